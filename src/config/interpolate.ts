// `${env:NAME}` and `${workspace}` in any string value; `$${` writes a literal `${`. Keys are
// never interpolated: they are addresses, and an address that depends on the environment would
// break the lockfile.
import type { PathSeg } from './positions.js';
import { formatPath } from './paths.js';
import { isPasswordPath } from './password-messages.js';
import { quoteCode } from './quote.js';

export interface InterpolationProblem {
  path: PathSeg[];
  message: string;
  code: string;
}

/** A string value that read environment variables: what was written, and which variables were set but empty. */
export interface Interpolated {
  path: PathSeg[];
  written: string;
  emptyVariables: string[];
}

const REFERENCE = /^env:([A-Za-z_][A-Za-z0-9_]*)$/;

/** The variables dbform reads as credentials itself (SPEC section 13), and what each holds. */
const CREDENTIALS: Record<string, string> = {
  DBFORM_API_KEY: "dbform's API key",
  DBFORM_ACCESS_KEY: "dbform's access key",
  DBFORM_SECRET_KEY: "dbform's secret key",
  PGPASSWORD: 'the PostgreSQL password of the state',
};

/**
 * Variables a config may not read outside `password:`: dbform's credentials, and each variable a
 * `password.from_env` names (what it holds), so that no secret becomes a name, a plan or a log line.
 */
export function credentialVariables(files: readonly unknown[]): Map<string, string> {
  const out = new Map(Object.entries(CREDENTIALS));
  for (const data of files) {
    const services = (data as { services?: unknown } | null)?.services;
    if (services === null || typeof services !== 'object') continue;
    for (const key of Object.keys(services)) {
      const name = ((services as Record<string, unknown>)[key] as { password?: { from_env?: unknown } } | null)?.password?.from_env;
      if (typeof name === 'string' && !out.has(name)) out.set(name, `the password of services.${key}, by its password.from_env`);
    }
  }
  return out;
}

/**
 * Stands in for a value whose interpolation failed once the schema has run: the rules read only
 * strings, numbers and mappings, so they skip it instead of judging the empty text it left.
 */
export const UNRESOLVED: unique symbol = Symbol('interpolation failed');

/** Replaces the value at each of `paths` with UNRESOLVED (in place). */
export function markUnresolved(data: unknown, paths: ReadonlyArray<readonly PathSeg[]>): void {
  for (const path of paths) {
    let node = data;
    for (const seg of path.slice(0, -1)) node = node !== null && typeof node === 'object' ? (node as Record<PathSeg, unknown>)[seg] : undefined;
    if (path.length > 0 && node !== null && typeof node === 'object') (node as Record<PathSeg, unknown>)[path[path.length - 1]!] = UNRESOLVED;
  }
}

/** What `${workspace}` expands to when the command names no workspace (SPEC section 10). */
export const DEFAULT_WORKSPACE_NAME = 'default';

function interpolateString(
  text: string,
  path: PathSeg[],
  env: NodeJS.ProcessEnv,
  problems: InterpolationProblem[],
  read: string[],
  options: { workspace: string; credentials: ReadonlyMap<string, string> },
): string {
  const lead = path.length > 0 ? `${formatPath(path)}: ` : '';
  const credentials: string[] = [];
  let out = '';
  let i = 0;
  while (i < text.length) {
    if (text.startsWith('$${', i)) {
      out += '${';
      i += 3;
    } else if (text.startsWith('${', i)) {
      const end = text.indexOf('}', i + 2);
      if (end < 0) {
        problems.push({ path, code: 'interpolation', message: `${lead}\`\${\` is not closed; write \${env:NAME}, or $\${ for a literal \${` });
        return out + text.slice(i);
      }
      const expression = text.slice(i + 2, end);
      if (expression === 'workspace') {
        out += options.workspace;
        i = end + 1;
        continue;
      }
      const name = REFERENCE.exec(expression)?.[1];
      const credential = name === undefined ? undefined : options.credentials.get(name);
      // A credential's value is never read, so it can be in no message.
      const value = name === undefined || credential !== undefined ? undefined : env[name];
      if (credential !== undefined) credentials.push(name!);
      else if (name === undefined) {
        problems.push({ path, code: 'interpolation', message: `${lead}${quoteCode(`\${${expression}}`)} is not supported; write \${env:NAME} to read an environment variable, or $\${ for a literal \${` });
      } else if (value === undefined) {
        problems.push({ path, code: 'env-unset', message: `${lead}environment variable ${name} is not set (used as \${env:${name}})` });
      } else read.push(name);
      out += value ?? '';
      i = end + 1;
    } else {
      out += text[i];
      i += 1;
    }
  }
  if (credentials.length > 0) problems.push({ path, code: 'credential-env', message: `${lead}${credentialMessage(credentials, options.credentials)}` });
  return out;
}

/** Which credentials a string reads (never their values), and why that is refused. */
function credentialMessage(names: readonly string[], what: ReadonlyMap<string, string>): string {
  const unique = [...new Set(names)];
  const refs = unique.map((name) => `\${env:${name}}`).join(' and ');
  const reads = unique.length === 1 ? `reads a credential, ${what.get(unique[0]!)}` : `read credentials (${unique.map((name) => `${name}: ${what.get(name)}`).join('; ')})`;
  return `${refs} ${reads}; a credential is never a config value, where plans and logs would show it`;
}

/**
 * Whether a YAML text can hold a value to interpolate. A value's `${` is written as such, or made
 * by an escape of a double-quoted string (`"\u0024{...}"`): a text with neither `${` nor a
 * backslash has nothing to expand, and its values need no walk.
 */
export const mayInterpolate = (text: string): boolean => text.includes('${') || text.includes('\\');

/**
 * `data` with every string value interpolated, and the problems found on the way. With `inPlace`
 * the containers are updated rather than copied: only for data that shares no container (data
 * built through YAML aliases does, and an escape `$${` must not be undone by a second visit).
 */
export function interpolateEnv(
  data: unknown,
  env: NodeJS.ProcessEnv,
  options: { inPlace?: boolean; workspace?: string; credentials?: ReadonlyMap<string, string> } = {},
): { data: unknown; problems: InterpolationProblem[]; interpolated: Interpolated[] } {
  const inPlace = options.inPlace === true;
  const settings = { workspace: options.workspace ?? DEFAULT_WORKSPACE_NAME, credentials: options.credentials ?? credentialVariables([data]) };
  const problems: InterpolationProblem[] = [];
  const interpolated: Interpolated[] = [];
  const interpolate = (text: string): string => {
    const [before, read] = [problems.length, [] as string[]];
    const out = interpolateString(text, [...path], env, problems, read, settings);
    if (problems.length === before && read.length > 0) {
      interpolated.push({ path: [...path], written: text, emptyVariables: [...new Set(read.filter((name) => env[name] === ''))] });
    }
    return out;
  };
  // One path array, pushed and popped on the way down; copied only when a problem is found.
  const path: PathSeg[] = [];
  // A container reached again through an alias gets the same copy (and its problems once).
  const copies = new WeakMap<object, unknown>();
  const walk = (value: unknown): unknown => {
    if (typeof value === 'string') return value.includes('${') ? interpolate(value) : value;
    if (value === null || typeof value !== 'object') return value;
    if (inPlace) return copyContainer(value);
    const seen = copies.get(value);
    if (seen !== undefined) return seen;
    const copy = copyContainer(value);
    copies.set(value, copy);
    return copy;
  };
  const copyContainer = (value: object): unknown => {
    if (Array.isArray(value)) {
      const out: unknown[] = inPlace ? value : new Array(value.length);
      for (let i = 0; i < value.length; i++) {
        path.push(i);
        out[i] = walk(value[i]);
        path.pop();
      }
      return out;
    }
    const out = (inPlace ? value : {}) as Record<string, unknown>;
    for (const key of Object.keys(value)) {
      const item = (value as Record<string, unknown>)[key];
      path.push(key);
      // Top-level `x-` blocks only hold anchors; their uses are interpolated where they land. A
      // password is never a value in the config: reading one in would put the secret into messages.
      const copy = (path.length === 1 && key.startsWith('x-')) || (path.length === 3 && isPasswordPath(path)) ? item : walk(item);
      path.pop();
      // A `__proto__` key must stay data (the schema rejects it), never become a prototype.
      if (key === '__proto__') Object.defineProperty(out, key, { value: copy, enumerable: true, writable: true, configurable: true });
      else out[key] = copy;
    }
    return out;
  };
  return { data: walk(data), problems, interpolated };
}
