// Desired state (from config) and live state (from the API), both normalized to camelCase.
// Desired fields that are `undefined` are not managed: dbform sends nothing for them at create
// and never plans a change to them (SPEC section 1). `null` in YAML is normalized by the loader
// to the value it means (environment DEV, ha 0/0, pooler false, paused false, vpc null = detached).
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
// Desired

export interface DesiredPeering {
  kind: 'peering';
  address: Address;
  vpcKey: string;
  peerAccountId: string;
  peerRegionCode: string;
  peerVpcId: string;
  source?: SourceRef;
}

export interface DesiredVpc {
  kind: 'vpc';
  address: Address;
  key: string;
  name: string;
  cidr: string;
  regionCode: string;
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

export interface DesiredReplicaSet {
  kind: 'replica_set';
  address: Address;
  serviceKey: string;
  key: string;
  name: string;
  cpuMillis: number;
  memoryGbs: number;
  nodes: number;
  pooler?: boolean;
  environment?: EnvironmentTag;
  protect?: boolean;
  source?: SourceRef;
}

export interface DesiredService {
  kind: 'service';
  address: Address;
  key: string;
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

export interface LivePeering {
  id: string;
  vpcId: string;
  peerAccountId: string;
  peerRegionCode: string;
  peerVpcId: string;
  status?: string;
  errorMessage?: string;
  provisionedId?: string;
}

export interface LiveVpc {
  id: string;
  name: string;
  cidr: string;
  regionCode: string;
  /** Only where the API reports one (SPEC section 12): CREATING or PENDING until usable. */
  status?: string;
  /** Undefined when the reader was not asked for this VPC's peerings. */
  peerings?: LivePeering[];
}

export interface LiveReplicaSet {
  id: string;
  serviceId: string;
  name: string;
  cpuMillis: number;
  memoryGbs: number;
  nodes: number;
  /** creating | active | resizing | deleting | error, or anything newer (never crash on it). */
  status: string;
  pooler: boolean;
  environment?: string;
  endpoint?: Endpoint;
  /** Set exactly while the pooler is enabled (`connection_pooler.endpoint`). */
  poolerEndpoint?: Endpoint;
}

export interface LiveService {
  id: string;
  name: string;
  projectId: string;
  regionCode: string;
  /** TIMESERIESDB | POSTGRES | VECTOR (legacy) or anything newer. */
  serviceType: string;
  /**
   * The addons it was created with, sorted, when the API reports them (the emulator does;
   * cloud-api.md does not promise it). Undefined when not reported.
   */
  addons?: Addon[];
  /** READY, PAUSED, ... or anything newer such as the deprecated OPTIMIZING. */
  status: string;
  created: string;
  /** Undefined when the API did not report a size. */
  size?: ServiceSize;
  /** Undefined when not reported. */
  environment?: string;
  ha: HaConfig;
  /** Whether the connection pooler is enabled: `connection_pooler.endpoint.host` is set exactly then. */
  pooler: boolean;
  /** The VPC the service is attached to (from vpc_endpoint, then vpcEndpoint), or null. */
  vpcId: string | null;
  endpoint?: Endpoint;
  poolerEndpoint?: Endpoint;
  vpcEndpoint?: Endpoint;
  forkedFrom?: { serviceId: string; projectId?: string; isStandby?: boolean };
  replicaSets: LiveReplicaSet[];
}

export interface LiveState {
  projectId: string;
  vpcs: LiveVpc[];
  services: LiveService[];
}
