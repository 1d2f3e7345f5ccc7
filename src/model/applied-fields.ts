// The managed fields of each kind as the state records them after an apply (`applied` in a
// lockfile entry) and as drift compares them with the live resource (SPEC section 11).
//
// TO BE FOLDED INTO THE FIELD DESCRIPTORS (src/model/fields/*, STYLE.md "One field, one
// descriptor"): each row is a descriptor's desired value in live terms plus its `live` accessor.
// Built here because the descriptors had not landed when drift was; once they do, this table
// becomes `descriptors.map((d) => d.applied)` and these rows go.
import type { DesiredPeering, DesiredReplicaSet, DesiredService, DesiredVpc, LivePeering, LiveReplicaSet, LiveService, LiveVpc } from './resources.js';
import { isTimeSeriesType } from './api-values.js';

/** A recorded value: JSON scalars only, never a secret. */
export type AppliedValue = string | number | boolean | null;

/** Resolves a VPC reference of the config to the ID it had when the apply ended. */
export type VpcIdOf = (key: string) => string | undefined;

export interface AppliedField<D, L> {
  /** The field's name in plan changes and in the record (`cpu_millis`, `ha.replicas`). */
  path: string;
  /** The value the apply made live; undefined when the config does not manage the field. */
  desired(d: D, vpcIdOf: VpcIdOf): AppliedValue | undefined;
  live(l: L): AppliedValue;
  /** Equality where two spellings mean one value. */
  same?(recorded: AppliedValue, live: AppliedValue): boolean;
}

const envOf = (e: string | undefined): string => e ?? 'DEV';
const typeKind = (t: AppliedValue): AppliedValue => (typeof t === 'string' && isTimeSeriesType(t) ? 'TIMESERIESDB' : t === 'VECTOR' ? 'POSTGRES' : t);

export const SERVICE_FIELDS: ReadonlyArray<AppliedField<DesiredService, LiveService>> = [
  { path: 'name', desired: (d) => d.name, live: (l) => l.name },
  { path: 'region_code', desired: (d) => d.regionCode, live: (l) => l.regionCode },
  {
    path: 'service_type',
    desired: (d) => (d.addons === undefined ? undefined : d.addons.includes('time-series') ? 'TIMESERIESDB' : 'POSTGRES'),
    live: (l) => l.serviceType,
    same: (a, b) => typeKind(a) === typeKind(b),
  },
  { path: 'cpu_millis', desired: (d) => d.size?.cpuMillis, live: (l) => l.size?.cpuMillis ?? null },
  { path: 'memory_gbs', desired: (d) => d.size?.memoryGbs, live: (l) => l.size?.memoryGbs ?? null },
  { path: 'environment', desired: (d) => d.environment, live: (l) => envOf(l.environment) },
  { path: 'ha.replicas', desired: (d) => d.ha?.replicas, live: (l) => l.ha.replicas },
  { path: 'ha.sync_replicas', desired: (d) => d.ha?.syncReplicas, live: (l) => l.ha.syncReplicas },
  { path: 'pooler', desired: (d) => d.pooler, live: (l) => l.pooler },
  {
    path: 'vpc_id',
    desired: (d, vpcIdOf) => (d.vpc === undefined ? undefined : d.vpc === null ? null : 'id' in d.vpc ? d.vpc.id : (vpcIdOf(d.vpc.key) ?? undefined)),
    live: (l) => l.vpcId,
  },
  { path: 'paused', desired: (d) => d.paused, live: (l) => l.status === 'PAUSED' || l.status === 'PAUSING' },
];

export const REPLICA_SET_FIELDS: ReadonlyArray<AppliedField<DesiredReplicaSet, LiveReplicaSet>> = [
  { path: 'name', desired: (d) => d.name, live: (l) => l.name },
  { path: 'cpu_millis', desired: (d) => d.cpuMillis, live: (l) => l.cpuMillis },
  { path: 'memory_gbs', desired: (d) => d.memoryGbs, live: (l) => l.memoryGbs },
  { path: 'nodes', desired: (d) => d.nodes, live: (l) => l.nodes },
  { path: 'pooler', desired: (d) => d.pooler, live: (l) => l.pooler },
  { path: 'environment', desired: (d) => d.environment, live: (l) => envOf(l.environment) },
];

export const VPC_FIELDS: ReadonlyArray<AppliedField<DesiredVpc, LiveVpc>> = [
  { path: 'name', desired: (d) => d.name, live: (l) => l.name },
  { path: 'cidr', desired: (d) => d.cidr, live: (l) => l.cidr },
  { path: 'region_code', desired: (d) => d.regionCode, live: (l) => l.regionCode },
];

export const PEERING_FIELDS: ReadonlyArray<AppliedField<DesiredPeering, LivePeering>> = [
  { path: 'peer_account_id', desired: (d) => d.peerAccountId, live: (l) => l.peerAccountId },
  { path: 'peer_region_code', desired: (d) => d.peerRegionCode, live: (l) => l.peerRegionCode },
];

/** The record of one resource: the managed fields' values in table order. */
export function appliedRecord<D, L>(fields: ReadonlyArray<AppliedField<D, L>>, d: D, vpcIdOf: VpcIdOf): Record<string, AppliedValue> {
  const out: Record<string, AppliedValue> = {};
  for (const f of fields) {
    const v = f.desired(d, vpcIdOf);
    if (v !== undefined) out[f.path] = v;
  }
  return out;
}
