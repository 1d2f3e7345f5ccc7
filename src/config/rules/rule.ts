// What every rule sees and returns. Rules run on the merged data even when the schema found
// problems (so that all errors come at once), so they read values through these guards and
// skip whatever has the wrong type: the schema has already said so.
import type { Diagnostic } from '../../model/diagnostics.js';
import { isRecord, type Entry, type MergedConfig } from '../merge.js';

export interface Rule {
  /** Code of the diagnostics it produces, e.g. `cidr-overlap`. */
  code: string;
  check(config: MergedConfig): Diagnostic[];
}

export const str = (obj: unknown, key: string): string | undefined => {
  const v = isRecord(obj) ? obj[key] : undefined;
  return typeof v === 'string' ? v : undefined;
};

export const int = (obj: unknown, key: string): number | undefined => {
  const v = isRecord(obj) ? obj[key] : undefined;
  return typeof v === 'number' && Number.isInteger(v) ? v : undefined;
};

export const record = (obj: unknown, key: string): Record<string, unknown> | undefined => {
  const v = isRecord(obj) ? obj[key] : undefined;
  return isRecord(v) ? v : undefined;
};

// Several rules walk the replica sets of every service: build their entries once per service.
const replicaSetCache = new WeakMap<Entry, Entry[]>();

/** The replica sets of a service entry, each as an entry of its own. */
export function replicaSetsOf(service: Entry): Entry[] {
  const cached = replicaSetCache.get(service);
  if (cached) return cached;
  const sets = record(service.value, 'replica_sets');
  const entries = !sets
    ? []
    : Object.entries(sets).map(([key, value]) => ({
        key,
        value: isRecord(value) ? value : {},
        origin: { ...service.origin, path: [...service.origin.path, 'replica_sets', key] },
      }));
  replicaSetCache.set(service, entries);
  return entries;
}

/** The peerings of a VPC entry, each as an entry (key: its index). */
export function peeringsOf(vpc: Entry): Entry[] {
  const list = isRecord(vpc.value) ? vpc.value.peerings : undefined;
  if (!Array.isArray(list)) return [];
  return list.flatMap((value, i) =>
    isRecord(value) ? [{ key: String(i), value, origin: { ...vpc.origin, path: [...vpc.origin.path, 'peerings', i] } }] : [],
  );
}

/** `name`, or the key when it is left out (SPEC section 1). */
export const nameOf = (entry: Entry): string | undefined =>
  entry.value.name === undefined ? entry.key : str(entry.value, 'name');
