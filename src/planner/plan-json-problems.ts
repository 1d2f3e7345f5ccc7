// The schema errors of a saved plan (ajv's, from generated/plan-validator.ts) as one line per
// problem, each naming its field the way the plan file writes it: `actions[2].op: must be one of
// createVPC, ... (found "explode")`, `fingerprints["service.x"]: must be "sha256:<64 hex digits>"`.
// Problems come in the order of the file, one per field.
import type { KeywordError } from '../model/index.js';

export type Seg = string | number;

export interface Problem {
  /** Where in the plan file: keys and array indexes. */
  path: Seg[];
  message: string;
}

type Schema = Record<string, unknown>;

/** The pattern-defined strings of the plan schema (its `$defs`), in words. */
const DEF_WORDS: Record<string, string> = { hash: '"sha256:<64 hex digits>"', address: 'an address' };
/** Patterns written in place. */
const PATTERN_WORDS: Record<string, string> = { '^a[1-9][0-9]*$': 'an action id (a1, a2, ...)' };

/** Keywords whose error is said better by the error of the branch they chose. */
const SILENT = new Set(['if', 'allOf', 'anyOf', 'oneOf']);

const isObject = (v: unknown): v is Schema => typeof v === 'object' && v !== null && !Array.isArray(v);

/** `actions[2].op`, `fingerprints["service.x"]`; the plan itself is `plan`. */
export function formatPath(path: readonly Seg[]): string {
  if (path.length === 0) return 'plan';
  return path
    .map((seg, i) => (typeof seg === 'number' ? `[${seg}]` : /^[A-Za-z_][A-Za-z0-9_]*$/.test(seg) ? `${i === 0 ? '' : '.'}${seg}` : `[${JSON.stringify(seg)}]`))
    .join('');
}

/** One line per problem, in the order of the file (a missing field after its siblings), one per field. */
export function describeSchemaErrors(errors: readonly KeywordError[], data: unknown, root: Schema): Problem[] {
  const problems = errors.filter((e) => !SILENT.has(e.keyword)).map((e) => describeError(e, data, root));
  const sorted = problems.map((p, i) => ({ p, i, key: documentOrder(p.path, data) })).sort((a, b) => compareKeys(a.key, b.key) || a.i - b.i);
  const seen = new Set<string>();
  return sorted.map((x) => x.p).filter((p) => {
    const where = formatPath(p.path);
    if (seen.has(where)) return false;
    seen.add(where);
    return true;
  });
}

function describeError(e: KeywordError, data: unknown, root: Schema): Problem {
  const path = pathOf(e.instancePath, data);
  const parent = isObject(e.parentSchema) ? e.parentSchema : {};
  switch (e.keyword) {
    case 'type':
    case 'minimum':
    case 'minLength':
    case 'pattern':
    case 'const':
      return { path, message: `must be ${describeSchema(parent, root)}` };
    case 'enum':
      return { path, message: `must be ${describeSchema(parent, root)} (found ${JSON.stringify(e.data)})` };
    case 'required': {
      const missing = String(e.params.missingProperty);
      return { path: [...path, missing], message: `must be ${describeSchema(schemaAt([...path, missing], root), root)}` };
    }
    case 'dependentRequired': {
      const missing = String(e.params.missingProperty);
      return { path: [...path, missing], message: `missing: a saved plan with ${e.params.property} also records ${e.params.deps}` };
    }
    case 'additionalProperties':
      return { path: [...path, String(e.params.additionalProperty)], message: 'is not a field of a dbform plan' };
    case 'false schema':
      return { path, message: 'must not be in a plan: a plan never holds a secret' };
    case 'minProperties':
      return { path, message: isObject(parent.properties) && 'address' in parent.properties ? 'needs an address or an id' : 'must not be empty' };
    case 'uniqueItems':
      return { path, message: `lists ${JSON.stringify((e.data as unknown[])[Number(e.params.i)])} twice` };
    default:
      return { path, message: e.message ?? `fails the schema's ${e.keyword}` };
  }
}

/** What a value of `schema` must be, in words: `a non-negative integer`, `an address`, `one of a, b`. */
export function describeSchema(schema: unknown, root: Schema): string {
  const s = resolve(schema, root);
  if (s === true) return 'present (any JSON value)';
  if (!isObject(s)) return 'absent';
  if (s.const !== undefined) return JSON.stringify(s.const);
  if (Array.isArray(s.enum)) return `one of ${s.enum.join(', ')}`;
  if (typeof s.pattern === 'string') return patternWords(s.pattern, root);
  const types = Array.isArray(s.type) ? s.type : [s.type];
  return types.map((t) => typeWords(String(t), s)).join(' or ');
}

function patternWords(pattern: string, root: Schema): string {
  const def = Object.keys(DEF_WORDS).find((name) => (pointer(root, `/$defs/${name}`) as Schema | undefined)?.pattern === pattern);
  return def !== undefined ? DEF_WORDS[def]! : (PATTERN_WORDS[pattern] ?? `a string matching ${pattern}`);
}

function typeWords(type: string, s: Schema): string {
  switch (type) {
    case 'string':
      return s.minLength === 1 ? 'a non-empty string' : 'a string';
    case 'integer':
      return s.minimum === 0 ? 'a non-negative integer' : s.minimum === 1 ? 'a positive integer' : 'an integer';
    case 'boolean':
      return 'true or false';
    case 'object':
      return 'an object';
    case 'array':
      return 'an array';
    default:
      return type;
  }
}

/** A `$ref` (`#/$defs/address`) followed to its schema. */
function resolve(schema: unknown, root: Schema): unknown {
  if (!isObject(schema) || typeof schema.$ref !== 'string') return schema;
  return resolve(pointer(root, schema.$ref.replace(/^#/, '')), root);
}

function pointer(root: unknown, path: string): unknown {
  let at = root;
  for (const raw of path.split('/').slice(1)) at = isObject(at) ? at[raw.replace(/~1/g, '/').replace(/~0/g, '~')] : undefined;
  return at;
}

/**
 * The schema of the value at `path`, found by walking the schema along it: the schema of a field
 * a `required` missed (the `then` of an `if` only says *that* it is required).
 */
function schemaAt(path: readonly Seg[], root: Schema): unknown {
  let at: unknown = root;
  for (const seg of path) {
    const s = resolve(at, root);
    if (!isObject(s)) return undefined;
    at = typeof seg === 'number' ? s.items : isObject(s.properties) && seg in s.properties ? s.properties[seg] : s.additionalProperties;
  }
  return resolve(at, root);
}

/** The instance path's segments, with the index of each array element as a number. */
function pathOf(instancePath: string, data: unknown): Seg[] {
  const out: Seg[] = [];
  let at = data;
  for (const raw of instancePath.split('/').slice(1)) {
    const key = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    const seg: Seg = Array.isArray(at) ? Number(key) : key;
    out.push(seg);
    at = isObject(at) || Array.isArray(at) ? (at as Record<string, unknown>)[key] : undefined;
  }
  return out;
}

/** Where each segment stands among its siblings in the file; a missing field after them all. */
function documentOrder(path: readonly Seg[], data: unknown): number[] {
  const out: number[] = [];
  let at = data;
  for (const seg of path) {
    if (Array.isArray(at) && typeof seg === 'number') {
      out.push(seg);
      at = at[seg];
    } else if (isObject(at)) {
      const keys = Object.keys(at);
      const i = keys.indexOf(String(seg));
      out.push(i === -1 ? keys.length : i);
      at = at[String(seg)];
    } else out.push(0);
  }
  return out;
}

function compareKeys(a: readonly number[], b: readonly number[]): number {
  for (let i = 0; i < Math.min(a.length, b.length); i++) if (a[i] !== b[i]) return a[i]! - b[i]!;
  return a.length - b.length;
}
