// A field's values under the paths plans name them by (`cpu_millis`, `ha.replicas`, `vpc_id`):
// drift tells a changed field by these paths, a plan's changes name what an op sets by them, and
// an operation left pending in the state (SPEC section 14) records its values by them. Here the
// two meet: which field a path belongs to, and whether a live resource holds the values an op set.
// Pure, generic over the registry.
import type { DriftValue, FieldDescriptor } from '../model/index.js';
import type { AnyKind } from './types.js';

type AnyField = FieldDescriptor<unknown, unknown, unknown>;

const snake = (k: string) => k.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** A value as drift shows it: a scalar, or the JSON of anything else; undefined is null. */
export const driftScalar = (v: unknown): DriftValue => (v === undefined ? null : v === null || typeof v !== 'object' ? (v as DriftValue) : JSON.stringify(v));

/** The path a field is named by: its fingerprint key (service_type, vpc_id), else its id. */
export const fieldBase = (f: AnyField): string => (typeof f.fingerprint === 'string' ? f.fingerprint : f.id);

/** The path of one part of a pair: under its own YAML key where it has one (cpu_millis), else below the field (ha.replicas). */
export function partPath(f: AnyField, key: string): string {
  const part = snake(key);
  return part in f.schema ? part : `${fieldBase(f)}.${part}`;
}

/** A field's value (in the vocabulary of its `live`) by path: one path, or one per part of a pair. */
export function pathValues(f: AnyField, value: unknown): Map<string, DriftValue> {
  if (!isRecord(value)) return new Map([[fieldBase(f), driftScalar(value)]]);
  return new Map(Object.keys(value).map((key) => [partPath(f, key), driftScalar(value[key])]));
}

/** The field of `def` a path names: its base, one of its YAML keys, or a part below it. */
export function fieldOfPath(def: AnyKind, path: string): AnyField | undefined {
  for (const f of def.fields.fields as readonly AnyField[]) {
    const base = fieldBase(f);
    if (path === base || path === f.id || path in f.schema || path.startsWith(`${base}.`) || path.startsWith(`${f.id}.`)) return f;
  }
  return undefined;
}

/** The ids of the fields these paths name, once each. */
export function fieldIdsOfPaths(def: AnyKind, paths: Iterable<string>): Set<string> {
  const out = new Set<string>();
  for (const path of paths) {
    const f = fieldOfPath(def, path);
    if (f) out.add(f.id);
  }
  return out;
}

/**
 * Whether the live resource holds every value of `sets` (by path): true, false, or undefined when
 * a path cannot be read back from it (a write-only field, or a change told by a label, such as the
 * VPC an attach names by address).
 */
export function holdsValues(def: AnyKind, live: unknown, sets: Readonly<Record<string, DriftValue>>): boolean | undefined {
  let holds: boolean | undefined = true;
  for (const [path, value] of Object.entries(sets)) {
    const f = fieldOfPath(def, path);
    const values = f?.live ? pathValues(f, f.live(live)) : undefined;
    if (values === undefined || !values.has(path)) holds = holds === false ? false : undefined;
    else if (values.get(path) !== driftScalar(value)) holds = false;
  }
  return holds;
}
