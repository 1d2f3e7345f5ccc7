// The emulator's projects and tokens: the default world or a seed file (YAML or JSON).
import { readFileSync } from 'node:fs';
import { parse } from 'yaml';
import { EmulatorConfigError } from './errors.js';
import type { KeyPairRecord, TokenRecord } from './store.js';

export interface Seed {
  projects: Array<{ id: string; name: string }>;
  tokens: TokenRecord[];
  /** Client credential pairs for HTTP Basic (the tiger dialect takes them). */
  keyPairs: KeyPairRecord[];
}

export const DEFAULT_SEED: Seed = {
  projects: [
    { id: 'proj-demo', name: 'Demo' },
    { id: 'proj-other', name: 'Other' },
  ],
  tokens: [
    { token: 'demo-pat', kind: 'pat', projectId: 'proj-demo' },
    { token: 'demo-oauth', kind: 'oauth', projectIds: ['proj-demo', 'proj-other'] },
  ],
  keyPairs: [{ publicKey: 'demo-access', secretKey: 'demo-secret', projectId: 'proj-demo' }],
};

export function loadSeedFile(path: string): Seed {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (err) {
    throw new EmulatorConfigError(`cannot read seed file ${path}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`);
  }
  let data: unknown;
  try {
    data = parse(text);
  } catch (err) {
    throw new EmulatorConfigError(`seed file ${path} is not valid YAML or JSON: ${(err as Error).message.split('\n')[0]!.replace(/:\s*$/, '')}`);
  }
  return parseSeed(data, `seed file ${path}`);
}

/**
 * Checks a seed value (`{projects: [{id, name}], tokens: [{token, kind, project_id | project_ids}],
 * key_pairs?: [{public_key, secret_key, project_id}]}`); `where` names its origin in error messages.
 */
export function parseSeed(data: unknown, where = 'seed'): Seed {
  const fail = (field: string, problem: string): never => {
    throw new EmulatorConfigError(`${where}: ${field}: ${problem}`);
  };
  if (!isObject(data)) return fail('(top level)', 'must be a mapping with "projects" and "tokens"');
  if (!Array.isArray(data.projects) || data.projects.length === 0) fail('projects', 'must be a non-empty list of {id, name}');
  if (!Array.isArray(data.tokens)) fail('tokens', 'must be a list of {token, kind, project_id | project_ids}');
  const projects = (data.projects as unknown[]).map((p, i) => {
    if (!isObject(p)) return fail(`projects[${i}]`, 'must be a mapping {id, name}');
    if (typeof p.id !== 'string' || !/^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$/.test(p.id)) {
      fail(`projects[${i}].id`, 'must be a string of letters, digits, "-" or "_" (1-64 characters)');
    }
    if (typeof p.name !== 'string' || p.name.length < 1 || p.name.length > 128) fail(`projects[${i}].name`, 'must be a string of 1-128 characters');
    return { id: p.id as string, name: p.name as string };
  });
  const ids = new Set<string>();
  projects.forEach((p, i) => {
    if (ids.has(p.id)) fail(`projects[${i}].id`, `duplicate project id "${p.id}"`);
    ids.add(p.id);
  });
  const seen = new Set<string>();
  const tokens = (data.tokens as unknown[]).map((t, i) => {
    const token = parseToken(t, `tokens[${i}]`, ids, fail);
    if (seen.has(token.token)) fail(`tokens[${i}].token`, 'duplicate token');
    seen.add(token.token);
    return token;
  });
  return { projects, tokens, keyPairs: parseKeyPairs(data.key_pairs, ids, fail) };
}

function parseKeyPairs(v: unknown, projectIds: Set<string>, fail: (field: string, problem: string) => never): KeyPairRecord[] {
  if (v === undefined) return [];
  if (!Array.isArray(v)) return fail('key_pairs', 'must be a list of {public_key, secret_key, project_id}');
  const seen = new Set<string>();
  return v.map((k, i) => {
    const at = `key_pairs[${i}]`;
    if (!isObject(k)) return fail(at, 'must be a mapping {public_key, secret_key, project_id}');
    // The public key ends at the first colon of a Basic credential, so it holds none.
    if (typeof k.public_key !== 'string' || !/^[^\s:]{1,256}$/.test(k.public_key)) fail(`${at}.public_key`, 'must be a non-empty string without spaces or ":"');
    if (typeof k.secret_key !== 'string' || !/^\S{1,256}$/.test(k.secret_key)) fail(`${at}.secret_key`, 'must be a non-empty string without spaces');
    if (typeof k.project_id !== 'string' || !projectIds.has(k.project_id)) fail(`${at}.project_id`, `unknown project ${JSON.stringify(k.project_id)} (not under projects)`);
    if (seen.has(k.public_key as string)) fail(`${at}.public_key`, 'duplicate public key');
    seen.add(k.public_key as string);
    return { publicKey: k.public_key as string, secretKey: k.secret_key as string, projectId: k.project_id as string };
  });
}

function parseToken(t: unknown, at: string, projectIds: Set<string>, fail: (field: string, problem: string) => never): TokenRecord {
  if (!isObject(t)) return fail(at, 'must be a mapping {token, kind, project_id | project_ids}');
  if (typeof t.token !== 'string' || !/^\S{1,256}$/.test(t.token)) fail(`${at}.token`, 'must be a non-empty string without spaces');
  const known = (id: unknown, field: string): string => {
    if (typeof id !== 'string') return fail(field, 'must be a project id string');
    if (!projectIds.has(id)) fail(field, `unknown project "${id}" (not under projects)`);
    return id as string;
  };
  if (t.kind === 'pat') return { token: t.token as string, kind: 'pat', projectId: known(t.project_id, `${at}.project_id`) };
  if (t.kind === 'oauth') {
    if (!Array.isArray(t.project_ids)) return fail(`${at}.project_ids`, 'must be a list of project ids');
    const list = t.project_ids.map((id, j) => known(id, `${at}.project_ids[${j}]`));
    return { token: t.token as string, kind: 'oauth', projectIds: list };
  }
  return fail(`${at}.kind`, `must be "pat" or "oauth" (got ${JSON.stringify(t.kind)})`);
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
