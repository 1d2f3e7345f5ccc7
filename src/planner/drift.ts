// Drift (SPEC section 11): what changed outside dbform since the last apply. The state records the
// managed fields as each apply left them (`applied` in a lockfile entry); here each bound
// resource's live fields are compared with that record. Pure, like the rest of the planner.
import {
  compareAddresses,
  parseAddress,
  PEERING_FIELDS,
  REPLICA_SET_FIELDS,
  SERVICE_FIELDS,
  VPC_FIELDS,
  vpcAddress,
  type AppliedField,
  type AppliedValue,
  type Drift,
  type DriftChange,
  type LiveState,
  type LockEntry,
  type Lockfile,
} from '../model/index.js';

/** The live resource an entry binds with its field table; 'gone' when it is not live; undefined when not read. */
function liveOf(address: string, entry: LockEntry, live: LiveState, lock: Lockfile): { fields: ReadonlyArray<AppliedField<never, unknown>>; resource: unknown } | 'gone' | undefined {
  const parsed = parseAddress(address);
  const id = entry.id;
  switch (parsed?.kind) {
    case 'service': {
      const s = live.services.find((x) => x.id === id);
      return !s || s.status === 'DELETING' || s.status === 'DELETED' ? 'gone' : { fields: SERVICE_FIELDS, resource: s };
    }
    case 'replica_set': {
      const r = live.services.flatMap((s) => s.replicaSets).find((x) => x.id === id);
      return !r || r.status === 'deleting' ? 'gone' : { fields: REPLICA_SET_FIELDS, resource: r };
    }
    case 'vpc': {
      const v = live.vpcs.find((x) => x.id === id);
      return v ? { fields: VPC_FIELDS, resource: v } : 'gone';
    }
    case 'peering': {
      const vpc = live.vpcs.find((v) => v.id === lock.resources[vpcAddress(parsed.vpcKey)]?.id);
      // Its VPC's peerings were not read (or the VPC is gone, which the VPC reports): nothing to say.
      if (!vpc?.peerings) return undefined;
      const p = vpc.peerings.find((x) => x.id === id);
      return p ? { fields: PEERING_FIELDS, resource: p } : 'gone';
    }
    default:
      return undefined;
  }
}

function changedFields(fields: ReadonlyArray<AppliedField<never, unknown>>, resource: unknown, applied: Record<string, AppliedValue>): DriftChange[] {
  const out: DriftChange[] = [];
  for (const f of fields) {
    if (!(f.path in applied)) continue;
    const before = applied[f.path]!;
    const after = f.live(resource);
    if (!(f.same ? f.same(before, after) : before === after)) out.push({ path: f.path, before, after });
  }
  return out;
}

/** Every bound resource that changed outside dbform, in address order; fields in table order. */
export function findDrift(live: LiveState, lock: Lockfile): Drift[] {
  const out: Drift[] = [];
  for (const address of Object.keys(lock.resources).sort(compareAddresses)) {
    const entry = lock.resources[address]!;
    const found = liveOf(address, entry, live, lock);
    if (found === undefined) continue;
    if (found === 'gone') {
      out.push({ address, id: entry.id, deleted: true, changes: [] });
      continue;
    }
    const changes = entry.applied ? changedFields(found.fields, found.resource, entry.applied) : [];
    if (changes.length > 0) out.push({ address, id: entry.id, deleted: false, changes });
  }
  return out;
}
