// Desired state (from config) and live state (from the API), both normalized to camelCase.
// Desired fields that are `undefined` are not managed: dbform sends nothing for them at create
// and never plans a change to them (SPEC section 1). `null` in YAML is normalized by the loader
// to the value it means; each managed field's descriptor (src/kinds/<kind>) says which, and
// sets the properties declared here (`*Fields`) on the desired and live resources.
import type { Address } from './address.js';
import type { SourceRef } from './diagnostics.js';

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
// Managed fields: the properties each kind's field descriptors set

/** The properties of a desired VPC that its fields set. */
export interface DesiredVpcFields {
  name: string;
  cidr: string;
  regionCode: string;
}

/** The properties of a live VPC that its fields read from the wire. */
export type LiveVpcFields = DesiredVpcFields;

/** The properties of a desired peering that its fields set. */
export interface DesiredPeeringFields {
  peerAccountId: string;
  peerRegionCode: string;
  peerVpcId: string;
}

/** The properties of a live peering that its fields read from the wire. */
export type LivePeeringFields = DesiredPeeringFields;

/** The properties of a desired service that its fields set (undefined: unmanaged). */
export interface DesiredServiceFields {
  name: string;
  /** Sorted, de-duplicated. `time-series` -> TIMESERIESDB, otherwise POSTGRES. */
  addons?: Addon[];
  regionCode?: string;
  size?: ServiceSize;
  environment?: EnvironmentTag;
  ha?: HaConfig;
  pooler?: boolean;
  /** null: manage detachment. */
  vpc?: VpcRef | null;
  paused?: boolean;
  password?: DesiredPassword;
}

/** The properties of a live service that its fields read from the wire. */
export interface LiveServiceFields {
  name: string;
  regionCode: string;
  /** TIMESERIESDB | POSTGRES | VECTOR (legacy) or anything newer. */
  serviceType: string;
  /**
   * The addons it was created with, sorted, when the API reports them (the emulator does;
   * cloud-api.md does not promise it). Undefined when not reported.
   */
  addons?: Addon[];
  /** Undefined when the API did not report a size. */
  size?: ServiceSize;
  /** Undefined when not reported. */
  environment?: string;
  ha: HaConfig;
  /** Whether the connection pooler is enabled: `connection_pooler.endpoint.host` is set exactly then. */
  pooler: boolean;
  poolerEndpoint?: Endpoint;
  /** The VPC the service is attached to (from vpc_endpoint, then vpcEndpoint), or null. */
  vpcId: string | null;
  vpcEndpoint?: Endpoint;
}

/** The properties of a desired replica set that its fields set. */
export interface DesiredReplicaSetFields {
  name: string;
  cpuMillis: number;
  memoryGbs: number;
  nodes: number;
  pooler?: boolean;
  environment?: EnvironmentTag;
}

/** The properties of a live replica set that its fields read from the wire. */
export interface LiveReplicaSetFields {
  name: string;
  cpuMillis: number;
  memoryGbs: number;
  nodes: number;
  pooler: boolean;
  /** Set exactly while the pooler is enabled (`connection_pooler.endpoint`): `dbform output` prints it. */
  poolerEndpoint?: Endpoint;
  environment?: string;
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
