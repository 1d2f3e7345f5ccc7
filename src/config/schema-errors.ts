// ajv's errors -> one plain message per problem. ajv reports every failed branch of a union
// and several errors per value; a developer wants the one that explains their mistake.
import { kindOfCollection } from './kind-paths.js';
import type { PathSeg } from './positions.js';
import { describeMisindentedEntry, describeMisindentedKey } from './misindent.js';
import { describePasswordProblem, isPasswordPath } from './password-messages.js';
import { pointerToPath } from './paths.js';
import { describeProblem, type KeywordError, type Problem as SchemaProblem } from './schema-messages.js';
import { countWork } from './work-meter.js';

export type { KeywordError, SchemaProblem };

function branchAccepts(branch: { type?: unknown } | undefined, v: unknown): boolean {
  const types = [branch?.type].flat();
  const actual = v === null ? 'null' : Array.isArray(v) ? 'array' : Number.isInteger(v) ? 'integer' : typeof v === 'object' ? 'object' : typeof v;
  return types.includes(actual) || (actual === 'integer' && types.includes('number'));
}

const isWithin = (pointer: string, parent: string): boolean => pointer === parent || pointer.startsWith(`${parent}/`);

/**
 * Keeps, for each failed `anyOf`, only the errors of the branch whose type fits the value (a VPC
 * key that is not a valid key) or, when no branch fits, the `anyOf` error itself (a number
 * where a key or a mapping was expected). ajv reports a union's branch errors right before the
 * union's own error, so each union looks back only over its own.
 */
function resolveUnions(errors: readonly KeywordError[]): KeywordError[] {
  const dropped = new Set<KeywordError>();
  errors.forEach((union, at) => {
    if (union.keyword !== 'anyOf') return;
    const fitting = ((union.schema as Array<{ type?: unknown }>) ?? []).findIndex((b) => branchAccepts(b, union.data));
    for (let i = at - 1; i >= 0; i--) {
      const e = errors[i]!;
      countWork(1);
      // Every service shares one schemaPath: the instancePath tells whose union a branch error is.
      if (!e.schemaPath.startsWith(`${union.schemaPath}/`) || !isWithin(e.instancePath, union.instancePath)) break;
      const index = Number(e.schemaPath.slice(union.schemaPath.length + 1).split('/')[0]);
      if (index !== fitting) dropped.add(e);
    }
    if (fitting >= 0) dropped.add(union);
  });
  return errors.filter((e) => !dropped.has(e));
}

/**
 * fork's PITR if/then/else and target_time's pattern are in the schema for editors; the loader
 * reports both through kinds/service/config-rules.ts, in its own words (and checks the calendar).
 */
const isReportedByRules = (e: KeywordError): boolean =>
  e.keyword === 'if' || /\/(then|else)\//.test(e.schemaPath) || (e.keyword === 'pattern' && e.instancePath.endsWith('/fork/target_time'));

/** A wrong type says everything about a value, and "empty" all a pattern would: drop what they shadow. */
function dropShadowed(errors: readonly KeywordError[]): KeywordError[] {
  const typed = new Set(errors.filter((e) => e.keyword === 'type' || e.keyword === 'anyOf').map((e) => e.instancePath));
  const empty = new Set(errors.filter((e) => e.keyword === 'minLength' && e.data === '').map((e) => e.instancePath));
  return errors.filter((e) => (e.keyword === 'type' || e.keyword === 'anyOf' || !typed.has(e.instancePath)) && !(e.keyword === 'pattern' && empty.has(e.instancePath)));
}

/** What a value was written as, when it read environment variables (see interpolate.ts). */
export type WrittenAs = (path: PathSeg[]) => { written: string; emptyVariables: readonly string[] } | undefined;

/** The data path of a JSON pointer into the data. */
type PathOf = (pointer: string) => PathSeg[];

/** Collections of resources by key (a kind's map), where a mis-indented setting may land. */
const isResourceCollection = (key: unknown): boolean => kindOfCollection(key)?.config.shape === 'map';

/** The key of `map` written above `key` that is not itself a mis-indented setting. */
function entryBefore(map: unknown, mapPath: PathSeg[], key: string): string | undefined {
  const keys = typeof map === 'object' && map !== null ? Object.keys(map) : [];
  countWork(keys.length);
  for (let i = keys.indexOf(key) - 1; i >= 0; i--) if (describeMisindentedEntry(mapPath, keys[i]!, undefined) === undefined) return keys[i];
  return undefined;
}

const valueAt = (data: unknown, path: readonly PathSeg[]): unknown =>
  path.reduce<unknown>((node, seg) => (typeof node === 'object' && node !== null ? (node as Record<PathSeg, unknown>)[seg] : undefined), data);

/**
 * Settings written one level too far left, as entries of a collection of resources (a service
 * named `cpu_millis`): one problem each, in place of what the schema says about such an entry,
 * and of the missing keys of the resource above that they were meant for.
 */
function takeMisindentedEntries(errors: KeywordError[], data: unknown, pathOf: PathOf): { rest: KeywordError[]; problems: SchemaProblem[] } {
  const found = new Map<string, { path: PathSeg[]; before?: string; message: string }>();
  const entryOf = (e: KeywordError): string | undefined => {
    const path = pathOf(e.instancePath);
    const full = e.propertyName !== undefined ? [...path, e.propertyName] : path;
    for (let n = full.length; n >= 2; n--) {
      const mapPath = full.slice(0, n - 1);
      const key = full[n - 1];
      if (typeof key !== 'string' || !isResourceCollection(mapPath[mapPath.length - 1])) continue;
      const id = JSON.stringify(full.slice(0, n));
      if (found.has(id)) return id;
      // Only a setting's name is mis-indented: the entry above it is looked for (a scan of the
      // collection's keys) once per such name, never per error.
      if (describeMisindentedEntry(mapPath, key, undefined) === undefined) continue;
      const before = entryBefore(valueAt(data, mapPath), mapPath, key);
      const message = describeMisindentedEntry(mapPath, key, before)!;
      return (found.set(id, { path: full.slice(0, n), before, message }), id);
    }
    return undefined;
  };
  const rest = errors.filter((e) => entryOf(e) === undefined);
  const meantFor = new Set([...found.values()].map((f) => JSON.stringify([...f.path.slice(0, -1), f.before, f.path[f.path.length - 1]])));
  const problems = [...found.values()].map((f): SchemaProblem => ({ path: f.path, target: 'key', message: f.message, code: 'misindented' }));
  const isFollowOn = (e: KeywordError) =>
    e.keyword === 'required' && meantFor.has(JSON.stringify([...pathOf(e.instancePath), e.params.missingProperty]));
  return { rest: rest.filter((e) => !isFollowOn(e)), problems };
}

/**
 * Unknown keys that are settings of another level (`replicas` beside `ha:`), one problem each;
 * the mapping they were meant for does not also report them missing.
 */
function takeMisindentedKeys(errors: KeywordError[], pathOf: PathOf): { rest: KeywordError[]; problems: SchemaProblem[] } {
  const problems: SchemaProblem[] = [];
  const meant = new Set<string>();
  const rest = errors.filter((e) => {
    if (e.keyword !== 'additionalProperties') return true;
    const path = pathOf(e.instancePath);
    const key = String(e.params.additionalProperty);
    const found = isPasswordPath(path) ? undefined : describeMisindentedKey(path, key);
    if (!found) return true;
    problems.push({ path: [...path, key], target: 'key', message: found.message, code: 'misindented' });
    if (found.meantFor) meant.add(JSON.stringify([...found.meantFor, key]));
    return false;
  });
  const missing = (e: KeywordError) => (e.keyword === 'required' || e.keyword === 'dependentRequired') && meant.has(JSON.stringify([...pathOf(e.instancePath), e.params.missingProperty]));
  return { rest: rest.filter((e) => !missing(e)), problems };
}

export function translateSchemaErrors(errors: readonly KeywordError[], data: unknown, writtenAs: WrittenAs = () => undefined): SchemaProblem[] {
  const resolved = dropShadowed(resolveUnions(errors)).filter((e) => e.keyword !== 'propertyNames' && !isReportedByRules(e));
  // Each error's path is read once: several steps below ask for it.
  const paths = new Map<string, PathSeg[]>();
  const pathOf: PathOf = (pointer) => paths.get(pointer) ?? (paths.set(pointer, pointerToPath(pointer, data)), paths.get(pointer)!);
  const entries = takeMisindentedEntries(resolved, data, pathOf);
  const keys = takeMisindentedKeys(entries.rest, pathOf);
  const problems = [...entries.problems, ...keys.problems];
  // Several missing keys of one mapping read better as one message.
  const missing = new Map<string, { path: PathSeg[]; keys: string[] }>();
  for (const e of keys.rest) {
    const path = pathOf(e.instancePath);
    const password = isPasswordPath(path) ? describePasswordProblem(e, path, typeof e.data === 'string' ? e.data : undefined) : undefined;
    if (password) problems.push(password);
    else if (e.keyword !== 'required') problems.push(describeProblem(e, path, writtenAs(path)));
    else {
      const entry = missing.get(e.instancePath);
      if (entry) entry.keys.push(String(e.params.missingProperty));
      else missing.set(e.instancePath, { path, keys: [String(e.params.missingProperty)] });
    }
  }
  for (const { path, keys } of missing.values()) {
    problems.push(describeProblem({ keyword: 'required', instancePath: '', schemaPath: '', params: { keys } }, path));
  }
  return problems;
}
