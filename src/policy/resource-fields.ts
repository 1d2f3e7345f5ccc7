// The `resource` a rule sees, in the config's own names (SPEC section 16): what the config says
// of a resource, or, for a delete, what the live resource is, written as the config would write
// it (`export` writes the same keys). Unmanaged fields are left out, so `has()` tells whether the
// config manages one. Beside the config's keys: `key` (the resource's key in the config),
// `service` (a replica set's service key), `vpc` of a peering, and for live resources `id` and
// `status`. test/unit/policy/resource-fields.test.ts holds every key of the config schema to
// appearing here, so a new field cannot be forgotten.
import { isLivePaused, parseAddress, type DesiredPeering, type DesiredReplicaSet, type DesiredService, type DesiredVpc, type LivePeering, type LiveReplicaSet, type LiveService, type LiveVpc } from '../model/index.js';

export type ResourceFields = Record<string, unknown>;
export type DesiredResource = DesiredService | DesiredReplicaSet | DesiredVpc | DesiredPeering;
export type LiveResource = { kind: 'service'; live: LiveService } | { kind: 'replica_set'; live: LiveReplicaSet } | { kind: 'vpc'; live: LiveVpc } | { kind: 'peering'; live: LivePeering };

/** Only the keys whose value is set: an unmanaged field is absent, not null. */
function defined(fields: ResourceFields): ResourceFields {
  const out: ResourceFields = {};
  for (const k in fields) if (fields[k] !== undefined) out[k] = fields[k];
  return out;
}

/** `key` (and a replica set's `service`, a peering's `vpc`) from the address, as the config names them. */
function keysOf(address: string | undefined): ResourceFields {
  const parsed = address === undefined ? undefined : parseAddress(address);
  if (!parsed) return {};
  if (parsed.kind === 'replica_set') return { key: parsed.key, service: parsed.serviceKey };
  if (parsed.kind === 'peering') return { vpc: parsed.vpcKey };
  return { key: parsed.key };
}

function desiredService(d: DesiredService): ResourceFields {
  const fork = d.fork && {
    from: 'key' in d.fork.from ? d.fork.from.key : { id: d.fork.from.serviceId },
    strategy: d.fork.strategy,
    ...(d.fork.targetTime !== undefined ? { target_time: d.fork.targetTime } : {}),
  };
  return defined({
    key: d.key,
    name: d.name,
    addons: d.addons,
    region_code: d.regionCode,
    cpu_millis: d.size?.cpuMillis,
    memory_gbs: d.size?.memoryGbs,
    environment: d.environment,
    ha: d.ha && { replicas: d.ha.replicas, sync_replicas: d.ha.syncReplicas },
    pooler: d.pooler,
    vpc: d.vpc === undefined || d.vpc === null ? d.vpc : 'key' in d.vpc ? d.vpc.key : { id: d.vpc.id },
    paused: d.paused,
    password: d.password && { from_env: d.password.fromEnv, version: d.password.version },
    fork,
    protect: d.protect,
  });
}

function desiredReplicaSet(d: DesiredReplicaSet): ResourceFields {
  return defined({ key: d.key, service: d.serviceKey, name: d.name, cpu_millis: d.cpuMillis, memory_gbs: d.memoryGbs, nodes: d.nodes, environment: d.environment, pooler: d.pooler, protect: d.protect });
}

/** A desired resource's fields, in the config's names. */
export function desiredResourceFields(d: DesiredResource): ResourceFields {
  switch (d.kind) {
    case 'service':
      return desiredService(d);
    case 'replica_set':
      return desiredReplicaSet(d);
    case 'vpc':
      return defined({ key: d.key, name: d.name, cidr: d.cidr, region_code: d.regionCode, protect: d.protect });
    case 'peering':
      return { vpc: d.vpcKey, peer_account_id: d.peerAccountId, peer_region_code: d.peerRegionCode, peer_vpc_id: d.peerVpcId };
  }
}

function liveService(l: LiveService): ResourceFields {
  return defined({
    id: l.id,
    status: l.status,
    name: l.name,
    addons: l.addons,
    region_code: l.regionCode,
    cpu_millis: l.size?.cpuMillis,
    memory_gbs: l.size?.memoryGbs,
    // As the planner reads it: a service that reports no environment is DEV.
    environment: l.environment ?? 'DEV',
    ha: { replicas: l.ha.replicas, sync_replicas: l.ha.syncReplicas },
    pooler: l.pooler,
    vpc: l.vpcId === null ? null : { id: l.vpcId },
    paused: isLivePaused(l),
  });
}

/** A live resource's fields for a delete, in the names the config would use; `address` gives `key` (and `service`, `vpc`). */
export function liveResourceFields(r: LiveResource, address?: string): ResourceFields {
  const keys = keysOf(address);
  switch (r.kind) {
    case 'service':
      return defined({ ...keys, ...liveService(r.live) });
    case 'replica_set': {
      const l = r.live;
      return defined({ ...keys, id: l.id, status: l.status, name: l.name, cpu_millis: l.cpuMillis, memory_gbs: l.memoryGbs, nodes: l.nodes, environment: l.environment ?? 'DEV', pooler: l.pooler });
    }
    case 'vpc':
      return defined({ ...keys, id: r.live.id, status: r.live.status, name: r.live.name, cidr: r.live.cidr, region_code: r.live.regionCode });
    case 'peering':
      return defined({ ...keys, id: r.live.id, status: r.live.status, peer_account_id: r.live.peerAccountId, peer_region_code: r.live.peerRegionCode, peer_vpc_id: r.live.peerVpcId });
  }
}

/**
 * What a saved plan file says of a resource, for `dbform policy test`: the after-value of every
 * change the plan makes to it (before-values for a delete), nested at the dots of the path
 * (`ha.replicas` -> `ha: {replicas}`). A plan lists only what changes: an update carries the
 * changed fields, a delete none.
 */
export function fieldsFromChanges(changes: readonly { path: string; before: unknown; after: unknown; sensitive?: boolean }[], deleting: boolean): ResourceFields {
  const out: ResourceFields = {};
  for (const c of changes) {
    if (c.sensitive) continue;
    const value = deleting ? c.before : c.after;
    const parts = c.path.split('.');
    let into = out;
    for (const p of parts.slice(0, -1)) into = (into[p] ??= {}) as ResourceFields;
    into[parts[parts.length - 1]!] = value;
  }
  return out;
}
