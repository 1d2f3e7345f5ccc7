// One ajv keyword error -> a sentence for someone who never read the API docs.
import { KIND_NOUNS, nounOf } from '../model/address.js';
import type { KeywordError } from '../model/schema-error.js';
import { KEY_REGEX } from '../model/index.js';
import { describeAllowedSizes } from '../model/sizes.js';
import { closestMatch } from '../model/suggest.js';
import { kindAtPath, kindOfCollection } from './kind-paths.js';
import { entryNoun, schemaAt } from './misindent.js';
import { formatPath } from './paths.js';
import type { PathSeg, Target } from './positions.js';
import { quoteCode, quoteIfUnshown } from './quote.js';
import { expectedTypes, found, joinList, orList, show } from './value-words.js';

export type { KeywordError };

/** `shownPath`: the path to name in the diagnostic, when it is not `path` (a key under `password` is never named). */
export type Problem = { path: PathSeg[]; target: Target; message: string; code: string; shownPath?: PathSeg[] };

/** A problem with the value at `path`. */
const valueProblem = (path: PathSeg[], code: string, message: string): Problem => ({ path, target: 'value', code, message });

const TARGET_TIME_EXAMPLE = 'an RFC 3339 time such as 2026-11-01T00:00:00Z';
const KEY_RULE = 'keys start with a lowercase letter, then up to 62 lowercase letters, digits or hyphens';
const SIZES = describeAllowedSizes();
const DEDICATED_SIZES = SIZES.replace(', shared/shared', '');

const last = (path: readonly PathSeg[]) => path[path.length - 1];
/** Whether a size field's allowed values (the enum it failed) include the shared pair: services' do, their children's not. */
const allowsShared = (e: KeywordError): boolean => Array.isArray(e.schema) && e.schema.includes('shared');
const prefix = (path: readonly PathSeg[]) => (path.length === 0 ? '' : `${formatPath(path)}: `);
const typesOf = (e: KeywordError): string[] => (Array.isArray(e.params.type) ? e.params.type : String(e.params.type).split(',')) as string[];

function wrongType(e: KeywordError, path: PathSeg[]): Problem {
  const types = typesOf(e);
  const expected = expectedTypes(types);
  const v = e.data;
  const kind = kindAtPath(path);
  if (path.length === 0) return valueProblem(path, 'wrong-type', `the file must be a mapping of settings (version, project_id, vpcs, services, moved), found ${found(v)}`);
  if (kind?.config.needs && v === null) {
    return valueProblem(path, 'null-not-allowed', `${prefix(path)}expected the settings of the ${nounOf(kind.kind)} as a mapping, found nothing; ${kind.config.needs.replace('KEY', String(last(path)))}`);
  }
  if (v === null) {
    const field = String(last(path));
    const required = ((schemaAt(path.slice(0, -1), true)?.required as string[] | undefined) ?? []).includes(field);
    // Resource lists are managed by presence: an empty one means none, not "unmanaged".
    const container = field === 'moved' || kindOfCollection(field) !== undefined;
    const hint = required
      ? `expected ${expected}`
      : field === 'target_time'
        ? `give ${TARGET_TIME_EXAMPLE} (strategy PITR needs one; other strategies take none)`
        : container
        ? `write ${types.includes('array') ? '[]' : '{}'} for none`
        : `give ${expected}, or remove \`${field}\` to leave it unmanaged`;
    return valueProblem(path, 'null-not-allowed', `${prefix(path)}null is not allowed here; ${hint}`);
  }
  let hint = '';
  // Quoting a Unix time or a bare date would only lead to the next error.
  if (last(path) === 'target_time') hint = `; give ${TARGET_TIME_EXAMPLE}`;
  else if (types.includes('string') && (typeof v === 'number' || typeof v === 'boolean')) hint = `; put it in quotes: "${String(v)}"`;
  else if (typeof v === 'string' && /^(yes|no|on|off|y|n)$/i.test(v) && types.includes('boolean')) {
    hint = `; YAML 1.2 reads ${v} as a string: write true or false`;
  } else if (typeof v === 'string' && /^(-?\d+(\.\d+)?|true|false)$/.test(v.trim())) hint = '; write it without quotes';
  else if (types.includes('array') && (typeof v === 'string' || typeof v === 'number')) hint = `; write a list: [${String(v)}]`;
  return valueProblem(path, 'wrong-type', `${prefix(path)}expected ${expected}, found ${found(v)}${hint}`);
}

function wrongUnion(e: KeywordError, path: PathSeg[]): Problem {
  const field = last(path);
  const expected =
    field === 'vpc'
      ? 'a key under vpcs:, { id: "<vpc id>" } for a VPC dbform does not manage, or null'
      : field === 'from'
        ? 'a key under services: or { service_id: "<service id>" }'
        : expectedTypes(((e.schema as Array<{ type: unknown }>) ?? []).map((b) => String(b.type)));
  return valueProblem(path, 'wrong-type', `${prefix(path)}expected ${expected}, found ${found(e.data)}`);
}

function notAllowed(e: KeywordError, path: PathSeg[]): Problem {
  const v = e.data;
  const field = String(last(path));
  if (field === 'cpu_millis' || field === 'memory_gbs') {
    const unquote = typeof v === 'string' && /^\d+$/.test(v) ? '; write the number without quotes' : '';
    const pairs = allowsShared(e)
      ? `allowed cpu_millis/memory_gbs pairs are ${SIZES}`
      : `${KIND_NOUNS[kindAtPath(path.slice(0, -1))?.kind ?? 'service'].many} take one of the dedicated cpu_millis/memory_gbs pairs ${DEDICATED_SIZES}`;
    return valueProblem(path, 'size-not-allowed', `${prefix(path)}${show(v)} is not an allowed size; ${pairs}${unquote}`);
  }
  const allowed = ((e.schema as unknown[]) ?? []).filter((a) => a !== null).map(String);
  const noun =
    field === 'environment' ? 'an environment tag' : field === 'strategy' ? 'a fork strategy' : path[path.length - 2] === 'addons' ? 'an addon' : 'allowed';
  const nullNote = field === 'environment' ? ' (null means DEV)' : '';
  const guess = typeof v === 'string' ? closestMatch(v, allowed) : undefined;
  const what = noun === 'allowed' ? 'is not allowed' : `is not ${noun}`;
  return valueProblem(path, 'not-allowed-value', `${prefix(path)}${show(v)} ${what}; use ${orList(allowed)}${nullNote}${guess ? `; did you mean ${guess}?` : ''}`);
}

function badPattern(e: KeywordError, path: PathSeg[]): Problem {
  const field = String(last(path));
  const [code, what] =
    field === 'region_code' || field === 'peer_region_code'
      ? ['region-code', 'is not a region code; region codes look like us-east-1, eu-central-1 or az-eastus2']
      : field === 'cidr'
        ? ['cidr', 'is not an IPv4 CIDR block like 10.10.0.0/16']
        : path.length === 1 && field === 'project_id'
          ? ['project-id', 'is not a project ID; a project ID is 1-128 letters, digits, _ or -, starting with a letter or digit']
          : field === 'from_env'
            ? ['env-name', 'is not an environment variable name; use letters, digits and underscores, not starting with a digit']
            : e.schema === KEY_REGEX
              ? ['invalid-key', `is not a valid ${field === 'vpc' ? 'VPC key' : 'service key'}; ${KEY_RULE}`]
              : ['pattern', `does not match the pattern ${String(e.schema)}`];
  return valueProblem(path, code, `${prefix(path)}${show(e.data)} ${what}`);
}

function invalidKey(e: KeywordError, path: PathSeg[]): Problem {
  const key = String(e.propertyName);
  const kind = entryNoun(path);
  const fixed = key.toLowerCase().replace(/[^a-z0-9-]+/g, '-').replace(/^[^a-z]+/, '').replace(/-+$/, '').slice(0, 63);
  const suggest = /^[A-Za-z]/.test(key) && new RegExp(KEY_REGEX).test(fixed);
  const hint = key.length > 63 ? '; keys are at most 63 characters' : suggest ? ` (such as \`${fixed}\`)` : '';
  return { path: [...path, key], target: 'key', code: 'invalid-key', message: `${quoteCode(key)} is not a valid ${kind} key under ${formatPath(path)}; ${KEY_RULE}${hint}` };
}

function badLength(e: KeywordError, path: PathSeg[]): Problem {
  const isName = last(path) === 'name';
  if (e.keyword === 'minLength') return valueProblem(path, isName ? 'name-length' : 'empty-value', `${prefix(path)}must not be empty${isName ? '; names are 1-128 characters' : ''}`);
  return valueProblem(path, 'name-length', `${prefix(path)}is ${[...String(e.data)].length} characters long; names are at most ${String(e.params.limit)} characters`);
}

function outOfRange(e: KeywordError, path: PathSeg[]): Problem {
  const schema = e.parentSchema ?? {};
  const field = String(last(path));
  const range = schema.maximum !== undefined ? `${String(schema.minimum)}-${String(schema.maximum)}` : `at least ${String(schema.minimum)}`;
  return valueProblem(path, 'out-of-range', `${prefix(path)}${show(e.data)} is out of range; ${field} is ${range}`);
}

function unknownKey(e: KeywordError, path: PathSeg[]): Problem {
  const key = String(e.params.additionalProperty);
  const allowed = Object.keys((e.parentSchema?.properties as object | undefined) ?? {});
  const guess = closestMatch(key, allowed);
  const tail = guess ? `; did you mean \`${guess}\`?` : `; allowed keys: ${allowed.join(', ')}`;
  const where = path.length === 0 ? `unknown top-level key ${quoteCode(key)}` : `unknown key ${quoteCode(key)} under ${formatPath(path)}`;
  return { path: [...path, key], target: 'key', code: 'unknown-key', message: `${where}${tail}` };
}

const MISSING_HINTS: Record<string, string> = {
  version: 'add `version: 1`',
  project_id: 'add `project_id: <your project ID>`',
  strategy: 'LAST_SNAPSHOT, NOW or PITR',
};

function missingKeys(e: KeywordError, path: PathSeg[]): Problem {
  const keys = e.params.keys as string[];
  const hints = [...keys.map((k) => MISSING_HINTS[k]), kindAtPath(path)?.config.requiredHint].filter((h) => h !== undefined);
  const where = path.length === 0 ? ' at the top level' : '';
  const hint = hints.length > 0 ? ` (${hints.join('; ')})` : '';
  const listed = joinList(keys.map((k) => `\`${k}\``), 'and');
  return valueProblem(path, 'missing-key', `${prefix(path)}missing required ${keys.length === 1 ? 'key' : 'keys'} ${listed}${where}${hint}`);
}

/** A number or boolean field given `${env:...}`: the text it gives can never be either. */
function stringFromEnv(e: KeywordError, path: PathSeg[], written: string): Problem | undefined {
  if (typeof e.data !== 'string') return undefined;
  const field = String(last(path));
  let needs: string | undefined;
  if (e.keyword === 'type') {
    if (!typesOf(e).includes('string')) needs = expectedTypes(typesOf(e));
  } else if (e.keyword === 'enum' && (field === 'cpu_millis' || field === 'memory_gbs')) {
    needs = `a number (allowed cpu_millis/memory_gbs pairs are ${allowsShared(e) ? SIZES : DEDICATED_SIZES})`;
  } else if (e.keyword === 'const') needs = 'the number 1';
  if (needs === undefined) return undefined;
  return valueProblem(path, 'wrong-type', `${prefix(path)}${quoteIfUnshown(written)} gives the string ${show(e.data)}, but ${field} needs ${needs}; \${env:...} always gives a string, so write the value itself`);
}

const variableList = (names: readonly string[]): string =>
  `${names.length === 1 ? 'environment variable' : 'environment variables'} ${joinList(names, 'and')} ${names.length === 1 ? 'is' : 'are'} set but empty`;

/** `from`: what the value was written as when it read environment variables. */
export function describeProblem(e: KeywordError, path: PathSeg[], from?: { written: string; emptyVariables: readonly string[] }): Problem {
  const fromEnv = from === undefined ? undefined : stringFromEnv(e, path, from.written);
  if (fromEnv) return fromEnv;
  const problem = describeKeyword(e, path);
  // An empty value from a variable: the variable is what to fix (CI gives "" for a missing secret).
  if (from && e.data === '' && from.emptyVariables.length > 0) problem.message += `; ${variableList(from.emptyVariables)}`;
  return problem;
}

function describeKeyword(e: KeywordError, path: PathSeg[]): Problem {
  switch (e.keyword) {
    case 'additionalProperties':
      return unknownKey(e, path);
    case 'required':
      return missingKeys(e, path);
    case 'type':
      return wrongType(e, path);
    case 'anyOf':
      return wrongUnion(e, path);
    case 'enum':
      return notAllowed(e, path);
    case 'const':
      return valueProblem(path, 'version', `${prefix(path)}must be 1 (the only version of the format), found ${found(e.data)}`);
    case 'pattern':
      return e.propertyName !== undefined ? invalidKey(e, path) : badPattern(e, path);
    case 'minLength':
    case 'maxLength':
      return badLength(e, path);
    case 'minimum':
    case 'maximum':
      return outOfRange(e, path);
    case 'dependentRequired':
      return valueProblem(path, 'incomplete-size', `${prefix(path)}${String(e.params.property)} is given without ${String(e.params.missingProperty)}; give both, as one of the allowed pairs ${SIZES}`);
    default:
      return valueProblem(path, 'schema', `${prefix(path)}${e.message ?? e.keyword}`);
  }
}
