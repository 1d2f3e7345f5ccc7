// Everything a command needs to talk to the API: the base URL, the token, the debug logger, and
// with --emulator an in-process emulator. Loaded with `await import()` by the commands (it pulls
// in undici).
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { dirname, join, resolve, sep } from 'node:path';
import { ApiClient } from '../api/client.js';
import { backoffAtTimeScale, isLoopback } from '../api/index.js';
import { DbformError } from '../model/errors.js';
import { isDebug } from './errors.js';
import type { ApiOptions, GlobalOptions } from './options.js';
import { VERSION } from './version.js';

export interface ApiContext {
  client: ApiClient;
  /** Stops the in-process emulator (waiting for its state write) and closes connections. */
  close(): Promise<void>;
}

export interface ApiContextInput extends ApiOptions, GlobalOptions {
  /** The command's config files; `--emulator` keeps its state beside the first (else in the cwd). */
  configFiles?: string[];
}

export const EMULATOR_PAT = 'demo-pat';

export async function openApiContext(input: ApiContextInput, env: NodeJS.ProcessEnv = process.env, stderr: NodeJS.WritableStream = process.stderr): Promise<ApiContext> {
  const debug = input.debug === true || isDebug();
  const logger = debug ? (line: string) => void stderr.write(`${line}\n`) : undefined;
  const fileToken = input.apiKeyFile === undefined ? undefined : await readTokenFile(input.apiKeyFile);
  const envToken = env.DBFORM_API_KEY?.trim() || undefined;
  const token = fileToken ?? envToken;
  if (input.emulator) return openEmulatorContext(input, token ?? EMULATOR_PAT, env, logger);
  const baseUrl = input.apiUrl?.trim() || env.DBFORM_API_URL?.trim() || undefined;
  if (baseUrl === undefined || token === undefined) throw new DbformError(missingSettingsMessage(baseUrl, token));
  const retry = emulatorBackoff(baseUrl, env);
  const client = new ApiClient({ baseUrl, token, userAgent: `dbform/${VERSION}`, allowInsecureHttp: input.allowInsecureHttp === true, logger, retry });
  return { client, close: () => client.close() };
}

async function openEmulatorContext(
  input: ApiContextInput,
  token: string,
  env: NodeJS.ProcessEnv,
  logger: ((line: string) => void) | undefined,
): Promise<ApiContext> {
  const timeScale = emulatorTimeScale(env);
  const stateFile = emulatorStateFile(input.configFiles);
  const { startEmulator } = await import('../emulator/index.js');
  const emulator = await startEmulator({ host: '127.0.0.1', port: 0, stateFile, timeScale });
  logger?.(`[emulator] listening on ${emulator.url}, state in ${stateFile}, time scale ${timeScale}`);
  const client = new ApiClient({ baseUrl: emulator.url, token, userAgent: `dbform/${VERSION}`, logger, retry: backoffAtTimeScale(timeScale) });
  return {
    client,
    close: async () => {
      await client.close();
      await emulator.close();
    },
  };
}

const STATE = join('.dbform', 'emulator-state.json');

/**
 * `.dbform/emulator-state.json` beside the first config file, or in the current directory. When
 * the config lies below the current directory, an existing state file between the two is used:
 * `dbform export --emulator --all-projects -o out` in a directory, then
 * `dbform plan --emulator -f out/<project>/dbform.yaml` there, see one world.
 */
export function emulatorStateFile(configFiles: string[] | undefined, cwd: string = process.cwd()): string {
  const first = configFiles?.[0];
  const start = resolve(cwd, first === undefined ? '.' : dirname(first));
  const top = resolve(cwd);
  if (start.startsWith(top + sep)) {
    for (let dir = start; dir !== top; dir = dirname(dir)) if (existsSync(join(dir, STATE))) return join(dir, STATE);
    if (existsSync(join(top, STATE))) return join(top, STATE);
  }
  return join(start, STATE);
}

export function emulatorTimeScale(env: NodeJS.ProcessEnv): number {
  const raw = env.DBFORM_EMULATOR_TIME_SCALE;
  if (raw === undefined || raw.trim() === '') return 1;
  const scale = Number(raw);
  if (!Number.isFinite(scale) || scale < 0) {
    throw new DbformError(`DBFORM_EMULATOR_TIME_SCALE must be a number >= 0, e.g. 0.1 (found "${raw}")`);
  }
  return scale;
}

/**
 * An emulator reached by URL (`dbform emulator --time-scale F`, the tests' in-process one) is on
 * loopback: there DBFORM_EMULATOR_TIME_SCALE scales the retry backoff as --emulator does. A remote
 * API keeps the full backoff whatever the environment says.
 */
export function emulatorBackoff(baseUrl: string, env: NodeJS.ProcessEnv) {
  let host: string;
  try {
    host = new URL(baseUrl).hostname;
  } catch {
    return undefined; // the client reports the bad URL
  }
  if (!isLoopback(host) || env.DBFORM_EMULATOR_TIME_SCALE === undefined) return undefined;
  return backoffAtTimeScale(emulatorTimeScale(env));
}

/** The token in a file, without the trailing newline editors and `echo` add. */
export async function readTokenFile(path: string): Promise<string> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    const why = code === 'ENOENT' ? 'no such file' : code === 'EACCES' ? 'permission denied' : code === 'EISDIR' ? 'it is a directory' : (err as Error).message;
    throw new DbformError(`cannot read the API key file ${path}: ${why}`);
  }
  const token = text.replace(/[\r\n]+$/, '').trim();
  if (token === '') throw new DbformError(`the API key file ${path} is empty; put the API token in it`);
  if (/[\r\n]/.test(token)) throw new DbformError(`the API key file ${path} holds several lines; it must hold only the API token`);
  return token;
}

function missingSettingsMessage(baseUrl: string | undefined, token: string | undefined): string {
  const missing: string[] = [];
  if (baseUrl === undefined) missing.push('the API URL (set DBFORM_API_URL or pass --api-url URL)');
  if (token === undefined) missing.push('the API token (set DBFORM_API_KEY or pass --api-key-file PATH)');
  return `dbform needs ${missing.join(' and ')}; or add --emulator to use the local emulator`;
}
