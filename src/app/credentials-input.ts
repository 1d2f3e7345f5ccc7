// Where the API credentials come from (SPEC sections 4 and 12): a Bearer token (env DBFORM_API_KEY)
// or a key pair for HTTP Basic (env DBFORM_ACCESS_KEY + DBFORM_SECRET_KEY), or `--api-key-file`
// holding either one token or `public_key:secret_key`. The file beats the environment of its own
// kind; a key pair beats a token, with one note saying so. No message ever holds a value.
import { readFile } from 'node:fs/promises';
import type { ApiCredentials } from '../api/credentials.js';
import { DbformError } from '../model/errors.js';
import { inDirectory } from '../model/run-directory.js';

type Bearer = Extract<ApiCredentials, { kind: 'bearer' }>;
type KeyPair = Extract<ApiCredentials, { kind: 'key-pair' }>;

/**
 * The credentials to use, or undefined when none are given; `note` receives the one-line note.
 * `cwd`: the run's directory when it is not the process's own (model/run-directory.ts).
 */
export async function readCredentials(apiKeyFile: string | undefined, env: NodeJS.ProcessEnv, note: (line: string) => void, cwd?: string): Promise<ApiCredentials | undefined> {
  const file = apiKeyFile === undefined ? undefined : await readCredentialFile(apiKeyFile, cwd);
  const envToken = env.DBFORM_API_KEY?.trim() || undefined;
  const token: Bearer | undefined = file?.kind === 'bearer' ? file : envToken !== undefined ? { kind: 'bearer', token: envToken } : undefined;
  const pair: KeyPair | undefined = file?.kind === 'key-pair' ? file : envKeyPair(env);
  if (pair && token) {
    const tokenFrom = file?.kind === 'bearer' ? `a token in ${apiKeyFile}` : 'DBFORM_API_KEY';
    const pairFrom = file?.kind === 'key-pair' ? `a key pair in ${apiKeyFile}` : 'DBFORM_ACCESS_KEY/DBFORM_SECRET_KEY';
    note(`note: both ${pairFrom} and ${tokenFrom} are set; using the key pair (HTTP Basic)`);
  }
  return pair ?? token;
}

function envKeyPair(env: NodeJS.ProcessEnv): KeyPair | undefined {
  const publicKey = env.DBFORM_ACCESS_KEY?.trim() || undefined;
  const secretKey = env.DBFORM_SECRET_KEY?.trim() || undefined;
  if (publicKey === undefined && secretKey === undefined) return undefined;
  if (publicKey === undefined) throw new DbformError('DBFORM_SECRET_KEY is set but DBFORM_ACCESS_KEY is not; set both to use a key pair (or neither)');
  if (secretKey === undefined) throw new DbformError('DBFORM_ACCESS_KEY is set but DBFORM_SECRET_KEY is not; set both to use a key pair (or neither)');
  if (publicKey.includes(':')) throw new DbformError('DBFORM_ACCESS_KEY must not contain ":" (a public key never does); give the public key alone');
  return { kind: 'key-pair', publicKey, secretKey };
}

/**
 * A token, or `public_key:secret_key`, alone on one line (a trailing newline is fine). A line with
 * a colon is a key pair and must have both halves; whitespace inside is refused, since it is
 * almost always a pasting mistake.
 */
export async function readCredentialFile(path: string, cwd?: string): Promise<ApiCredentials> {
  let text: string;
  try {
    text = await readFile(inDirectory(cwd, path), 'utf8');
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    const why = code === 'ENOENT' ? 'no such file' : code === 'EACCES' ? 'permission denied' : code === 'EISDIR' ? 'it is a directory' : (err as Error).message;
    throw new DbformError(`cannot read the API key file ${path}: ${why}`);
  }
  const line = text.replace(/[\r\n]+$/, '').trim();
  const shape = 'it must hold one line: an API token, or public_key:secret_key';
  if (line === '') throw new DbformError(`the API key file ${path} is empty; put the API token or public_key:secret_key in it`);
  if (/[\r\n]/.test(line)) throw new DbformError(`the API key file ${path} holds several lines; ${shape}`);
  if (/\s/.test(line)) throw new DbformError(`the API key file ${path} has a space inside its line; ${shape}`);
  const colon = line.indexOf(':');
  if (colon < 0) return { kind: 'bearer', token: line };
  const publicKey = line.slice(0, colon);
  const secretKey = line.slice(colon + 1);
  if (publicKey === '') throw new DbformError(`the API key file ${path} has no public key before its ":"; ${shape}`);
  if (secretKey === '') throw new DbformError(`the API key file ${path} has no secret key after its ":"; ${shape}`);
  if (secretKey.includes(':')) throw new DbformError(`the API key file ${path} has more than one ":"; ${shape}`);
  return { kind: 'key-pair', publicKey, secretKey };
}
