// One ajv keyword error -> a sentence for someone who never read the API docs.
import { describeAllowedSizes } from '../model/sizes.js';
import type { KeywordError } from '../model/schema-error.js';
import type { PathSeg, Target } from './positions.js';
import { formatPath } from './paths.js';
import { KIND_NOUNS, nounOf } from '../model/address.js';
import { kindAtPath, kindOfCollection } from './kind-paths.js';
import { buildConfigSchema, KEY_REGEX } from './schema.js';
import { quoteCode, quoteIfUnshown } from './quote.js';
import { expectedTypes, found, joinList, orList, show } from './value-words.js';
import { closestMatch } from '../model/suggest.js';

export type { KeywordError };

interface Problem {
  path: PathSeg[];
  target: Target;
  message: string;
  code: string;
}

type Json = Record<string, unknown>;

const TARGET_TIME_EXAMPLE = 'an RFC 3339 time such as 2026-11-01T00:00:00Z';
const KEY_RULE = 'keys start with a lowercase letter, then up to 62 lowercase letters, digits or hyphens';
const SIZES = describeAllowedSizes();
const DEDICATED_SIZES = SIZES.replace(', shared/shared', '');

const last = (path: readonly PathSeg[]) => path[path.length - 1];
/** Whether a size field's allowed values (the enum it failed) include the shared pair: services' do, their children's not. */
const allowsShared = (e: KeywordError): boolean => Array.isArray(e.schema) && e.schema.includes('shared');
const prefix = (path: readonly PathSeg[]) => (path.length === 0 ? '' : `${formatPath(path)}: `);

let rootSchema: Json | undefined;

/** The schema of the mapping that holds `path`'s last key, following properties and unions. */
function schemaOfParent(path: readonly PathSeg[]): Json | undefined {
  let schema: Json | undefined = (rootSchema ??= buildConfigSchema({ forLoader: true }));
  for (const seg of path.slice(0, -1)) {
    if (!schema) return undefined;
    if (Array.isArray(schema.anyOf)) schema = (schema.anyOf as Json[]).find((b) => b.type === 'object' || b.type === 'array');
    if (!schema) return undefined;
    if (typeof seg === 'number') schema = schema.items as Json | undefined;
    else schema = ((schema.properties as Json | undefined)?.[seg] ?? schema.additionalProperties) as Json | undefined;
  }
  return typeof schema === 'object' ? schema : undefined;
}


function wrongType(e: KeywordError, path: PathSeg[]): Problem {
  const types = (Array.isArray(e.params.type) ? e.params.type : String(e.params.type).split(',')) as string[];
  const expected = expectedTypes(types);
  const v = e.data;
  const kind = kindAtPath(path);
  if (path.length === 0) {
    return { path, target: 'value', code: 'wrong-type', message: `the file must be a mapping of settings (version, project_id, vpcs, services, moved), found ${found(v)}` };
  }
  if (kind?.config.needs && v === null) {
    const hint = kind.config.needs.replace('KEY', String(last(path)));
    return { path, target: 'value', code: 'null-not-allowed', message: `${prefix(path)}expected the settings of the ${nounOf(kind.kind)} as a mapping, found nothing; ${hint}` };
  }
  if (v === null) {
    const field = String(last(path));
    const required = ((schemaOfParent(path)?.required as string[] | undefined) ?? []).includes(field);
    // Resource lists are managed by presence: an empty one means none, not "unmanaged".
    const container = field === 'moved' || kindOfCollection(field) !== undefined;
    const hint = required
      ? `expected ${expected}`
      : field === 'target_time'
        ? `give ${TARGET_TIME_EXAMPLE} (strategy PITR needs one; other strategies take none)`
        : container
        ? `write ${types.includes('array') ? '[]' : '{}'} for none`
        : `give ${expected}, or remove \`${field}\` to leave it unmanaged`;
    return { path, target: 'value', code: 'null-not-allowed', message: `${prefix(path)}null is not allowed here; ${hint}` };
  }
  let hint = '';
  // Quoting a Unix time or a bare date would only lead to the next error.
  if (last(path) === 'target_time') hint = `; give ${TARGET_TIME_EXAMPLE}`;
  else if (types.includes('string') && (typeof v === 'number' || typeof v === 'boolean')) hint = `; put it in quotes: "${String(v)}"`;
  else if (typeof v === 'string' && /^(yes|no|on|off|y|n)$/i.test(v) && types.includes('boolean')) {
    hint = `; YAML 1.2 reads ${v} as a string: write true or false`;
  } else if (typeof v === 'string' && /^(-?\d+(\.\d+)?|true|false)$/.test(v.trim())) hint = '; write it without quotes';
  else if (types.includes('array') && (typeof v === 'string' || typeof v === 'number')) hint = `; write a list: [${String(v)}]`;
  return { path, target: 'value', code: 'wrong-type', message: `${prefix(path)}expected ${expected}, found ${found(v)}${hint}` };
}

function wrongUnion(e: KeywordError, path: PathSeg[]): Problem {
  const field = last(path);
  const expected =
    field === 'vpc'
      ? 'a key under vpcs:, { id: "<vpc id>" } for a VPC dbform does not manage, or null'
      : field === 'from'
        ? 'a key under services: or { service_id: "<service id>" }'
        : expectedTypes(((e.schema as Json[]) ?? []).map((b) => String(b.type)));
  return { path, target: 'value', code: 'wrong-type', message: `${prefix(path)}expected ${expected}, found ${found(e.data)}` };
}

function notAllowed(e: KeywordError, path: PathSeg[]): Problem {
  const v = e.data;
  const field = String(last(path));
  if (field === 'cpu_millis' || field === 'memory_gbs') {
    const unquote = typeof v === 'string' && /^\d+$/.test(v) ? '; write the number without quotes' : '';
    const pairs = allowsShared(e)
      ? `allowed cpu_millis/memory_gbs pairs are ${SIZES}`
      : `${KIND_NOUNS[kindAtPath(path.slice(0, -1))?.kind ?? 'service'].many} take one of the dedicated cpu_millis/memory_gbs pairs ${DEDICATED_SIZES}`;
    return { path, target: 'value', code: 'size-not-allowed', message: `${prefix(path)}${show(v)} is not an allowed size; ${pairs}${unquote}` };
  }
  const allowed = ((e.schema as unknown[]) ?? []).filter((a) => a !== null).map(String);
  const noun =
    field === 'environment' ? 'an environment tag' : field === 'strategy' ? 'a fork strategy' : path[path.length - 2] === 'addons' ? 'an addon' : 'allowed';
  const nullNote = field === 'environment' ? ' (null means DEV)' : '';
  const guess = typeof v === 'string' ? closestMatch(v, allowed) : undefined;
  const suggestion = guess ? `; did you mean ${guess}?` : '';
  const what = noun === 'allowed' ? 'is not allowed' : `is not ${noun}`;
  return { path, target: 'value', code: 'not-allowed-value', message: `${prefix(path)}${show(v)} ${what}; use ${orList(allowed)}${nullNote}${suggestion}` };
}

function badPattern(e: KeywordError, path: PathSeg[]): Problem {
  const v = e.data;
  const field = String(last(path));
  if (field === 'region_code' || field === 'peer_region_code') {
    return { path, target: 'value', code: 'region-code', message: `${prefix(path)}${show(v)} is not a region code; region codes look like us-east-1, eu-central-1 or az-eastus2` };
  }
  if (field === 'cidr') {
    return { path, target: 'value', code: 'cidr', message: `${prefix(path)}${show(v)} is not an IPv4 CIDR block like 10.10.0.0/16` };
  }
  if (path.length === 1 && field === 'project_id') {
    return { path, target: 'value', code: 'project-id', message: `project_id: ${show(v)} is not a project ID; a project ID is 1-128 letters, digits, _ or -, starting with a letter or digit` };
  }
  if (field === 'from_env') {
    return { path, target: 'value', code: 'env-name', message: `${prefix(path)}${show(v)} is not an environment variable name; use letters, digits and underscores, not starting with a digit` };
  }
  if (e.schema === KEY_REGEX) {
    const what = field === 'vpc' ? 'VPC key' : 'service key';
    return { path, target: 'value', code: 'invalid-key', message: `${prefix(path)}${show(v)} is not a valid ${what}; ${KEY_RULE}` };
  }
  return { path, target: 'value', code: 'pattern', message: `${prefix(path)}${show(v)} does not match the pattern ${String(e.schema)}` };
}

function invalidKey(e: KeywordError, path: PathSeg[]): Problem {
  const key = String(e.propertyName);
  const collection = kindOfCollection(path[path.length - 1]);
  const kind = collection === undefined ? 'entry' : nounOf(collection.kind);
  const fixed = key.toLowerCase().replace(/[^a-z0-9-]+/g, '-').replace(/^[^a-z]+/, '').replace(/-+$/, '').slice(0, 63);
  const suggest = /^[A-Za-z]/.test(key) && new RegExp(KEY_REGEX).test(fixed);
  const hint = key.length > 63 ? '; keys are at most 63 characters' : suggest ? ` (such as \`${fixed}\`)` : '';
  return {
    path: [...path, key],
    target: 'key',
    code: 'invalid-key',
    message: `${quoteCode(key)} is not a valid ${kind} key under ${formatPath(path)}; ${KEY_RULE}${hint}`,
  };
}

function badLength(e: KeywordError, path: PathSeg[]): Problem {
  const isName = last(path) === 'name';
  if (e.keyword === 'minLength') {
    const message = `${prefix(path)}must not be empty${isName ? '; names are 1-128 characters' : ''}`;
    return { path, target: 'value', code: isName ? 'name-length' : 'empty-value', message };
  }
  const length = [...String(e.data)].length;
  return { path, target: 'value', code: 'name-length', message: `${prefix(path)}is ${length} characters long; names are at most ${String(e.params.limit)} characters` };
}

function outOfRange(e: KeywordError, path: PathSeg[]): Problem {
  const schema = e.parentSchema ?? {};
  const field = String(last(path));
  const range =
    schema.minimum !== undefined && schema.maximum !== undefined
      ? `${field} is ${String(schema.minimum)}-${String(schema.maximum)}`
      : `${field} is at least ${String(schema.minimum)}`;
  return { path, target: 'value', code: 'out-of-range', message: `${prefix(path)}${show(e.data)} is out of range; ${range}` };
}

function unknownKey(e: KeywordError, path: PathSeg[]): Problem {
  const key = String(e.params.additionalProperty);
  const allowed = Object.keys((e.parentSchema?.properties as Json | undefined) ?? {});
  const guess = closestMatch(key, allowed);
  const tail = guess ? `; did you mean \`${guess}\`?` : `; allowed keys: ${allowed.join(', ')}`;
  const where = path.length === 0 ? 'unknown top-level key' : 'unknown key';
  const under = path.length === 0 ? '' : ` under ${formatPath(path)}`;
  return { path: [...path, key], target: 'key', code: 'unknown-key', message: `${where} ${quoteCode(key)}${under}${tail}` };
}

const MISSING_HINTS: Record<string, string> = {
  version: 'add `version: 1`',
  project_id: 'add `project_id: <your project ID>`',
  strategy: 'LAST_SNAPSHOT, NOW or PITR',
};

function missingKeys(e: KeywordError, path: PathSeg[]): Problem {
  const keys = (e.params.keys as string[]).map((k) => `\`${k}\``);
  const hints = (e.params.keys as string[]).map((k) => MISSING_HINTS[k]).filter((h) => h !== undefined);
  const hint0 = kindAtPath(path)?.config.requiredHint;
  if (hint0 !== undefined) hints.push(hint0);
  const noun = keys.length === 1 ? 'key' : 'keys';
  const where = path.length === 0 ? ' at the top level' : '';
  const hint = hints.length > 0 ? ` (${hints.join('; ')})` : '';
  return { path, target: 'value', code: 'missing-key', message: `${prefix(path)}missing required ${noun} ${joinList(keys, 'and')}${where}${hint}` };
}

/** A number or boolean field given `${env:...}`: the text it gives can never be either. */
function stringFromEnv(e: KeywordError, path: PathSeg[], written: string): Problem | undefined {
  if (typeof e.data !== 'string') return undefined;
  const field = String(last(path));
  let needs: string | undefined;
  if (e.keyword === 'type') {
    const types = (Array.isArray(e.params.type) ? e.params.type : String(e.params.type).split(',')) as string[];
    if (!types.includes('string')) needs = expectedTypes(types);
  } else if (e.keyword === 'enum' && (field === 'cpu_millis' || field === 'memory_gbs')) {
    needs = `a number (allowed cpu_millis/memory_gbs pairs are ${allowsShared(e) ? SIZES : DEDICATED_SIZES})`;
  } else if (e.keyword === 'const') needs = 'the number 1';
  if (needs === undefined) return undefined;
  const message = `${prefix(path)}${quoteIfUnshown(written)} gives the string ${show(e.data)}, but ${field} needs ${needs}; \${env:...} always gives a string, so write the value itself`;
  return { path, target: 'value', code: 'wrong-type', message };
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
      return { path, target: 'value', code: 'version', message: `${prefix(path)}must be 1 (the only version of the format), found ${found(e.data)}` };
    case 'pattern':
      return e.propertyName !== undefined ? invalidKey(e, path) : badPattern(e, path);
    case 'minLength':
    case 'maxLength':
      return badLength(e, path);
    case 'minimum':
    case 'maximum':
      return outOfRange(e, path);
    case 'dependentRequired': {
      const [given, missing] = [String(e.params.property), String(e.params.missingProperty)];
      const message = `${prefix(path)}${given} is given without ${missing}; give both, as one of the allowed pairs ${SIZES}`;
      return { path, target: 'value', code: 'incomplete-size', message };
    }
    default:
      return { path, target: 'value', code: 'schema', message: `${prefix(path)}${e.message ?? e.keyword}` };
  }
}
