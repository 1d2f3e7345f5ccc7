// Drift (SPEC section 11): what changed outside dbform since the last apply. The state records the
// managed fields as each apply left them (`applied` in a lockfile entry, by field descriptor id);
// here each bound resource's live fields are compared with that record by the descriptors
// themselves (driftedFields), and each difference is told as plan changes tell it. Pure.
import {
  compareAddresses,
  driftedFields,
  parseAddress,
  vpcAddress,
  type Drift,
  type DriftChange,
  type DriftValue,
  type FieldDescriptor,
  type FieldSet,
  type LiveState,
  type LockEntry,
  type Lockfile,
} from '../model/index.js';
import { PEERING_FIELDS } from '../kinds/peering/kind.js';
import { REPLICA_SET_FIELDS } from '../kinds/replica-set/kind.js';
import { SERVICE_FIELDS } from '../kinds/service/fields.js';
import { VPC_FIELDS } from '../kinds/vpc/kind.js';

type AnySet = FieldSet<unknown, unknown, unknown>;
type AnyField = FieldDescriptor<unknown, unknown, unknown>;

/** The live resources by ID, built once per plan: a lookup per bound address stays O(1) at 20,000 replica sets. */
interface LiveIndex {
  services: Map<string, LiveState['services'][number]>;
  replicaSets: Map<string, LiveState['services'][number]['replicaSets'][number]>;
  vpcs: Map<string, LiveState['vpcs'][number]>;
}

function indexLive(live: LiveState): LiveIndex {
  const index: LiveIndex = { services: new Map(), replicaSets: new Map(), vpcs: new Map() };
  for (const s of live.services) {
    index.services.set(s.id, s);
    for (const r of s.replicaSets) index.replicaSets.set(r.id, r);
  }
  for (const v of live.vpcs) index.vpcs.set(v.id, v);
  return index;
}

/** The live resource an entry binds with its kind's fields; 'gone' when it is not live; undefined when not read. */
function liveOf(address: string, entry: LockEntry, live: LiveIndex, lock: Lockfile): { set: AnySet; resource: unknown } | 'gone' | undefined {
  const parsed = parseAddress(address);
  const id = entry.id;
  const found = (set: unknown, resource: unknown) => ({ set: set as AnySet, resource });
  switch (parsed?.kind) {
    case 'service': {
      const s = live.services.get(id);
      return !s || s.status === 'DELETING' || s.status === 'DELETED' ? 'gone' : found(SERVICE_FIELDS, s);
    }
    case 'replica_set': {
      const r = live.replicaSets.get(id);
      return !r || r.status === 'deleting' ? 'gone' : found(REPLICA_SET_FIELDS, r);
    }
    case 'vpc': {
      const v = live.vpcs.get(id);
      return v ? found(VPC_FIELDS, v) : 'gone';
    }
    case 'peering': {
      const vpcId = lock.resources[vpcAddress(parsed.vpcKey)]?.id;
      const vpc = vpcId === undefined ? undefined : live.vpcs.get(vpcId);
      // Its VPC's peerings were not read (or the VPC is gone, which the VPC reports): nothing to say.
      if (!vpc?.peerings) return undefined;
      const p = vpc.peerings.find((x) => x.id === id);
      return p ? found(PEERING_FIELDS, p) : 'gone';
    }
    default:
      return undefined;
  }
}

const snake = (k: string) => k.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const scalar = (v: unknown): DriftValue => (v === undefined ? null : v === null || typeof v !== 'object' ? (v as DriftValue) : JSON.stringify(v));

/**
 * A drifted field as plan changes name it: under its fingerprint key (service_type, vpc_id); a
 * pair by its parts, each under its own YAML key where it has one (cpu_millis) or below the field
 * (ha.replicas).
 */
function changesOf(f: AnyField, before: unknown, after: unknown): DriftChange[] {
  const base = typeof f.fingerprint === 'string' ? f.fingerprint : f.id;
  if (!isRecord(before) && !isRecord(after)) return [{ path: base, before: scalar(before), after: scalar(after) }];
  const b = isRecord(before) ? before : {};
  const a = isRecord(after) ? after : {};
  const out: DriftChange[] = [];
  for (const key of [...new Set([...Object.keys(b), ...Object.keys(a)])]) {
    if (scalar(b[key]) === scalar(a[key])) continue;
    const part = snake(key);
    out.push({ path: part in f.schema ? part : `${base}.${part}`, before: scalar(b[key]), after: scalar(a[key]) });
  }
  return out;
}

function changedFields(set: AnySet, resource: unknown, applied: Record<string, unknown>): DriftChange[] {
  const drifted = new Set(driftedFields(set, applied, resource));
  return set.fields.filter((f) => drifted.has(f.id)).flatMap((f) => changesOf(f, applied[f.id], f.live!(resource)));
}

/** Every bound resource that changed outside dbform, in address order; fields in the kind's order. */
export function findDrift(live: LiveState, lock: Lockfile): Drift[] {
  const out: Drift[] = [];
  const index = indexLive(live);
  for (const [address, entry] of Object.entries(lock.resources)) {
    const found = liveOf(address, entry, index, lock);
    if (found === undefined) continue;
    if (found === 'gone') {
      out.push({ address, id: entry.id, deleted: true, changes: [] });
      continue;
    }
    const changes = entry.applied ? changedFields(found.set, found.resource, entry.applied) : [];
    if (changes.length > 0) out.push({ address, id: entry.id, deleted: false, changes });
  }
  // Sorted once found: usually nothing drifted, and a project's every address need not be ordered.
  return out.sort((a, b) => compareAddresses(a.address, b.address));
}
