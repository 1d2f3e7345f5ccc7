// The secrets the server could know of, and their removal from anything it says. The CLI never
// prints them; this is the second wall: should one ever appear in a command's output (an error
// quoting a value, a log line), the client, the server's stderr and the history still never see it.
import { readFile } from 'node:fs/promises';
import { splitPgpassLine } from '../model/index.js';

/** Environment variables whose values are credentials (the API's and the state database's). */
export const SECRET_ENV = ['DBFORM_API_KEY', 'DBFORM_SECRET_KEY', 'PGPASSWORD'] as const;

/**
 * Shorter values are not searched for: removing every "ab" from an answer would garble it, and a
 * credential that short is no secret anyway.
 */
const MIN_SECRET_LENGTH = 4;

export const REDACTED = '(redacted)';

export interface SecretSources {
  env: Record<string, string | undefined>;
  /** Names of environment variables that hold passwords (password.from_env of the config). */
  passwordEnv: readonly string[];
  /** State URLs in use (DBFORM_STATE, --state, the config's state:): their passwords. */
  stateUrls: readonly string[];
  /** Files whose whole content is a secret (--api-key-file). */
  keyFiles: readonly string[];
  /** pgpass files: every password in them (apply writes created services' passwords there). */
  pgpassFiles: readonly string[];
}

export async function collectSecrets(s: SecretSources): Promise<string[]> {
  const values = [...SECRET_ENV, ...s.passwordEnv].map((name) => s.env[name]);
  values.push(...s.stateUrls.flatMap(urlPassword));
  for (const file of s.keyFiles) values.push((await readText(file))?.trim());
  for (const file of s.pgpassFiles) {
    const text = await readText(file);
    for (const line of text?.split('\n') ?? []) values.push(splitPgpassLine(line)?.[4]);
  }
  return [...new Set(values.filter((v): v is string => v !== undefined && v.length >= MIN_SECRET_LENGTH))];
}

function urlPassword(url: string): string[] {
  try {
    const { password } = new URL(url);
    return password === '' ? [] : [password, decodeURIComponent(password)];
  } catch {
    return [];
  }
}

async function readText(path: string): Promise<string | undefined> {
  try {
    return await readFile(path, 'utf8');
  } catch {
    return undefined;
  }
}

/** `text` with every secret, as written and as escaped inside a JSON string, replaced. */
export function redact(text: string, secrets: readonly string[]): string {
  let out = text;
  // Longest first: a secret that contains another is removed whole.
  for (const secret of [...secrets].sort((a, b) => b.length - a.length)) {
    for (const form of new Set([secret, JSON.stringify(secret).slice(1, -1)])) out = out.split(form).join(REDACTED);
  }
  return out;
}
