// Desired state (from config) and live state (from the API), both normalized to camelCase.
// Desired fields that are `undefined` are not managed: dbform sends nothing for them at create
// and never plans a change to them (SPEC section 1). `null` in YAML is normalized by the loader
// to the value it means; each managed field's descriptor (src/model/fields) says which, and
// declares the properties it sets on the desired and live resources.
import type { Address } from './address.js';
import type { SourceRef } from './diagnostics.js';
import type { DesiredPeeringFields, LivePeeringFields } from './fields/peering.js';
import type { DesiredReplicaSetFields, LiveReplicaSetFields } from './fields/replica-set.js';
import type { DesiredServiceFields, LiveServiceFields } from './fields/service.js';
import type { DesiredVpcFields, LiveVpcFields } from './fields/vpc.js';

export type EnvironmentTag = 'DEV' | 'PROD';
export type Addon = 'time-series' | 'ai';
export type ForkStrategy = 'LAST_SNAPSHOT' | 'NOW' | 'PITR';
/** The service types dbform requests; live services may also report the legacy `VECTOR`. */
export type ServiceType = 'TIMESERIESDB' | 'POSTGRES';

export interface ServiceSize {
  cpuMillis: number | 'shared';
  memoryGbs: number | 'shared';
}

export interface HaConfig {
  replicas: number;
  syncReplicas: number;
}

// ---------------------------------------------------------------------------------------------
// Desired

export interface DesiredPeering extends DesiredPeeringFields {
  kind: 'peering';
  address: Address;
  vpcKey: string;
  source?: SourceRef;
}

export interface DesiredVpc extends DesiredVpcFields {
  kind: 'vpc';
  address: Address;
  key: string;
  protect?: boolean;
  peerings: DesiredPeering[];
  source?: SourceRef;
}

/** `vpc:` of a service: a key under `vpcs:` or the ID of a VPC dbform does not manage. */
export type VpcRef = { key: string } | { id: string };
/** `fork.from`: a key under `services:` or the ID of any service. */
export type ForkSource = { key: string } | { serviceId: string };

export interface DesiredFork {
  from: ForkSource;
  strategy: ForkStrategy;
  /** RFC 3339, only with PITR. */
  targetTime?: string;
}

export interface DesiredPassword {
  /** Name of the environment variable holding the password; the value is read only at apply. */
  fromEnv: string;
  version: number;
}

export interface DesiredReplicaSet extends DesiredReplicaSetFields {
  kind: 'replica_set';
  address: Address;
  serviceKey: string;
  key: string;
  protect?: boolean;
  source?: SourceRef;
}

export interface DesiredService extends DesiredServiceFields {
  kind: 'service';
  address: Address;
  key: string;
  protect?: boolean;
  fork?: DesiredFork;
  replicaSets: DesiredReplicaSet[];
  source?: SourceRef;
}

export interface MovedEntry {
  from: Address;
  to: Address;
  source?: SourceRef;
}

export interface DesiredState {
  projectId: string;
  /** The config's `state:` (where the state lives), and where it is written; may hold a password. */
  state?: { value: string; source: SourceRef };
  vpcs: DesiredVpc[];
  services: DesiredService[];
  moved: MovedEntry[];
  /** The config files, in the order given; the lockfile defaults to beside the first. */
  files: string[];
}

// ---------------------------------------------------------------------------------------------
// Live

export interface Endpoint {
  host: string;
  port: number;
}

export interface LivePeering extends LivePeeringFields {
  id: string;
  vpcId: string;
  status?: string;
  errorMessage?: string;
  provisionedId?: string;
}

export interface LiveVpc extends LiveVpcFields {
  id: string;
  /** Only where the API reports one (SPEC section 12): CREATING or PENDING until usable. */
  status?: string;
  /** Undefined when the reader was not asked for this VPC's peerings. */
  peerings?: LivePeering[];
}

export interface LiveReplicaSet extends LiveReplicaSetFields {
  id: string;
  serviceId: string;
  /** creating | active | resizing | deleting | error, or anything newer (never crash on it). */
  status: string;
  endpoint?: Endpoint;
}

export interface LiveService extends LiveServiceFields {
  id: string;
  projectId: string;
  /** READY, PAUSED, ... or anything newer such as the deprecated OPTIMIZING. */
  status: string;
  created: string;
  endpoint?: Endpoint;
  forkedFrom?: { serviceId: string; projectId?: string; isStandby?: boolean };
  replicaSets: LiveReplicaSet[];
}

export interface LiveState {
  projectId: string;
  vpcs: LiveVpc[];
  services: LiveService[];
}
