// Drift (SPEC section 11): what changed outside dbform since the last apply. The state records the
// managed fields as each apply left them (`applied` in a lockfile entry, by field descriptor id);
// here each bound resource's live fields are compared with that record by the descriptors
// themselves (driftedFields), and each difference is told as plan changes tell it (field-paths.ts).
// Pure.
import { indexLive, kindDef, liveIn, type AnyKind, type LiveById } from '../kinds/index.js';
import { driftScalar, fieldBase, fieldIdsOfPaths, pathValues } from '../kinds/field-paths.js';
import { listEntries, type ListedEntry } from './lock-entries.js';
import {
  compareAddresses,
  driftedFields,
  parentAddressOf,
  type Drift,
  type DriftChange,
  type DriftValue,
  type FieldDescriptor,
  type LiveState,
  type Lockfile,
  type PendingOp,
} from '../model/index.js';

type AnyField = FieldDescriptor<unknown, unknown, unknown>;

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * The live resource an entry of `def`'s kind binds; 'gone' when it is not live (or on its way
 * out); undefined when not read. A kind read only for the parents asked for is looked up under
 * the parent the state binds: its parent's list not read (or the parent gone, which the parent
 * reports) says nothing.
 */
function liveOf(def: AnyKind, { address, entry }: ListedEntry, index: LiveById, lock: Lockfile): { id: string } | 'gone' | undefined {
  let live: { id: string } | undefined;
  if (def.parent !== undefined && def.read.unread === 'absent') {
    const parentId = lock.resources[parentAddressOf(address)!]?.id;
    const parent = parentId === undefined ? undefined : index[def.parent].get(parentId);
    const siblings = parent && liveIn(def, parent);
    if (!siblings) return undefined;
    live = siblings.find((x) => x.id === entry.id);
  } else live = index[def.kind].get(entry.id);
  return !live || def.live.gone(live) ? 'gone' : live;
}

/**
 * A drifted field as plan changes name it: under its fingerprint key (service_type, vpc_id); a
 * pair by its parts, each under its own YAML key where it has one (cpu_millis) or below the field
 * (ha.replicas).
 */
function changesOf(f: AnyField, before: unknown, after: unknown): DriftChange[] {
  if (!isRecord(before) && !isRecord(after)) return [{ path: fieldBase(f), before: driftScalar(before), after: driftScalar(after) }];
  // A side that is not a pair has none of its parts.
  const b = isRecord(before) ? pathValues(f, before) : new Map<string, DriftValue>();
  const a = isRecord(after) ? pathValues(f, after) : new Map<string, DriftValue>();
  const out: DriftChange[] = [];
  for (const path of new Set([...b.keys(), ...a.keys()])) {
    const was = b.get(path) ?? null;
    const is = a.get(path) ?? null;
    if (was !== is) out.push({ path, before: was, after: is });
  }
  return out;
}

/**
 * The drifted fields of one entry. The fields an operation still pending sets (SPEC section 14)
 * are dbform's own change on its way, not a change made outside dbform: never drift.
 */
function changedFields(def: AnyKind, resource: unknown, applied: Record<string, unknown>, pending: PendingOp | undefined): DriftChange[] {
  const drifted = new Set(driftedFields(def.fields, applied, resource));
  if (pending) for (const id of fieldIdsOfPaths(def, Object.keys(pending.sets))) drifted.delete(id);
  return (def.fields.fields as AnyField[]).filter((f) => drifted.has(f.id)).flatMap((f) => changesOf(f, applied[f.id], f.live!(resource)));
}

/**
 * Every bound resource that changed outside dbform, in address order; fields in the kind's order.
 * `entries` and `index` (every live resource, those on their way out too): when the caller has them.
 */
export function findDrift(live: LiveState, lock: Lockfile, entries: readonly ListedEntry[] = listEntries(lock), index: LiveById = indexLive(live)): Drift[] {
  const out: Drift[] = [];
  for (const listed of entries) {
    const { address, kind, entry } = listed;
    if (kind === undefined) continue;
    const def = kindDef(kind);
    const found = liveOf(def, listed, index, lock);
    if (found === undefined) continue;
    if (found === 'gone') {
      out.push({ address, id: entry.id, deleted: true, changes: [] });
      continue;
    }
    // Nothing recorded (most entries), nothing to compare.
    if (!entry.applied) continue;
    const changes = changedFields(def, found, entry.applied, entry.pending);
    if (changes.length > 0) out.push({ address, id: entry.id, deleted: false, changes });
  }
  // Sorted once found: usually nothing drifted, and a project's every address need not be ordered.
  return out.sort((a, b) => compareAddresses(a.address, b.address));
}
