// The `resource` a rule sees, in the config's own names (SPEC section 16): what the config says
// of a resource, or, for a delete, what the live resource is, written as the config would write
// it. Unmanaged fields are left out, so `has()` tells whether the config manages one. Beside the
// fields: `key` (the resource's key in the config, for a kind kept in a map), the key of the
// resource it belongs to under that kind's name (`service`, `vpc`), `protect` and what its kind
// builds beyond its fields (`fork`) as written, and for live resources `id` and `status`.
//
// Both walk the kind's field descriptors (its definition in src/kinds), naming no field and no
// kind: a desired value is the desired property of each YAML key (`region_code` -> regionCode; a
// pair such as cpu_millis and memory_gbs is one value with a part per key), spelled as the config
// spells it (snake_case keys; a reference by key is the key). A live value is what the field's
// export writes, and where export writes nothing (a default, such as a name equal to the key) the
// value as the planner reads it (`live`). test/unit/policy/resource-fields.test.ts holds every key
// of each kind's schema to appearing.
import { kindDef } from '../kinds/index.js';
import { kindOf, type ExportContext, type ExportValue, type FieldDescriptor, type FieldSet, type Kind } from '../model/index.js';

export type ResourceFields = Record<string, unknown>;
/** A desired resource of any kind (its own properties are its kind's business). */
export type DesiredResource = { kind: Kind; address: string; protect?: boolean };
/** A live resource with its kind. */
export type LiveResource = { kind: Kind; live: { id: string; status?: string } };

type AnySet = FieldSet<unknown, unknown, unknown>;
type AnyField = FieldDescriptor<unknown, unknown, unknown>;
type Bag = Record<string, unknown>;

const camel = (key: string): string => key.replace(/_([a-z])/g, (_m, c: string) => c.toUpperCase());
const snakeNames = new Map<string, string>();
/** cpuMillis -> cpu_millis; a plan of 1,000 actions asks for the same few names thousands of times. */
function snake(key: string): string {
  let name = snakeNames.get(key);
  if (name === undefined) snakeNames.set(key, (name = key.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`)));
  return name;
}
const isBag = (v: unknown): v is Bag => v !== null && typeof v === 'object' && !Array.isArray(v);

/** A model value as the config spells it: snake_case keys, and a reference by key (`{ key }`) as the key. */
function configValue(v: unknown): unknown {
  if (v === null || typeof v !== 'object') return v;
  if (Array.isArray(v)) return v.map(configValue);
  const out: Bag = {};
  let count = 0;
  let onlyKey = true;
  for (const k in v) {
    const x = (v as Bag)[k];
    if (x === undefined) continue;
    count++;
    if (k !== 'key') onlyKey = false;
    out[snake(k)] = configValue(x);
  }
  return count === 1 && onlyKey ? out.key : out;
}

/** An export value without its YAML wrappings (quoting, flow maps). */
function exportedValue(v: ExportValue): unknown {
  if (Array.isArray(v)) return v.map(exportedValue);
  if (isBag(v) && 'quoted' in v) return v.quoted;
  if (isBag(v) && 'map' in v) return Object.fromEntries(Object.entries((v as { map: Record<string, ExportValue> }).map).map(([k, x]) => [k, exportedValue(x)]));
  return v;
}

/** A field's YAML keys, the property holding its whole value, and the property of each key. */
interface FieldNames {
  field: AnyField;
  keys: string[];
  whole: string;
  parts: string[];
}

const namesOfSets = new WeakMap<AnySet, FieldNames[]>();
function namesOf(set: AnySet): FieldNames[] {
  let names = namesOfSets.get(set);
  if (!names) {
    names = set.fields.map((field) => {
      const keys = Object.keys(field.schema);
      return { field, keys, whole: keys.length === 1 ? camel(keys[0]!) : camel(field.id), parts: keys.map(camel) };
    });
    namesOfSets.set(set, names);
  }
  return names;
}

/**
 * Each YAML key of the field from `whole` (the field's value; for a pair, one value with a part
 * per key) or, when the field has no whole value, from `own` (the object holding a property per
 * key, such as a resource's own cpuMillis and memoryGbs).
 */
function assignKeys(out: ResourceFields, n: FieldNames, whole: unknown, own: Bag | undefined): void {
  for (let i = 0; i < n.keys.length; i++) {
    const v = n.keys.length === 1 ? whole : isBag(whole) ? whole[n.parts[i]!] : whole === null ? null : own?.[n.parts[i]!];
    if (v !== undefined) out[n.keys[i]!] = configValue(v);
  }
}

function desiredFields(set: AnySet, d: Bag, out: ResourceFields): ResourceFields {
  for (const n of namesOf(set)) assignKeys(out, n, d[n.whole], d);
  return out;
}

const EXPORT_CONTEXT: ExportContext = { key: '', vpcKey: () => undefined, quote: (name) => name, passwordEnv: '' };

function liveFields(set: AnySet, l: unknown): ResourceFields {
  const out: ResourceFields = {};
  for (const n of namesOf(set)) {
    const written = n.field.export?.(l, EXPORT_CONTEXT);
    if (written && 'values' in written) {
      for (const [key, v] of Object.entries(written.values)) out[key] = exportedValue(v);
    } else if (n.field.live) {
      assignKeys(out, n, n.field.live(l), undefined);
    }
  }
  return out;
}

const setOf = (kind: Kind): AnySet => kindDef(kind).fields as AnySet;

/**
 * `key` (for a kind kept in a map) and the key of the resource it belongs to under that kind's
 * name (`service`, `vpc`), from the address, as the config names them.
 */
function keysOf(address: string | undefined): ResourceFields {
  const kind = address === undefined ? undefined : kindOf(address);
  if (kind === undefined) return {};
  const def = kindDef(kind);
  const rest = address!.slice(kind.length + 1);
  if (def.parent === undefined) return { key: rest };
  const dot = rest.indexOf('.');
  return { ...(def.config.shape === 'map' ? { key: rest.slice(dot + 1) } : {}), [def.parent]: rest.slice(0, dot) };
}

/** A desired resource's fields, in the config's names. */
export function desiredResourceFields(d: DesiredResource): ResourceFields {
  const def = kindDef(d.kind);
  const out = keysOf(d.address);
  desiredFields(setOf(d.kind), d as unknown as Bag, out);
  for (const [key, v] of Object.entries(def.config.built?.(d) ?? {})) if (v !== undefined) out[key] = configValue(v);
  if (def.config.protect && d.protect !== undefined) out.protect = d.protect;
  return out;
}

/** A live resource's fields for a delete, in the names the config would use; `address` gives `key` (and its parent's key). */
export function liveResourceFields(r: LiveResource, address?: string): ResourceFields {
  const status = r.live.status === undefined ? {} : { status: r.live.status };
  return { ...keysOf(address), id: r.live.id, ...status, ...liveFields(setOf(r.kind), r.live) };
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
