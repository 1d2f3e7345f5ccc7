// Everything a command needs to talk to the API: the base URL, the credentials (a token or a key
// pair, see credentials-input.ts), the debug logger, and with --emulator an in-process emulator.
// Loaded with `await import()` by the commands (it pulls in undici).
import { existsSync } from 'node:fs';
import { dirname, join, resolve, sep } from 'node:path';
import { ApiClient } from '../api/client.js';
import type { ApiCredentials } from '../api/credentials.js';
import { backoffAtTimeScale, isLoopback } from '../api/index.js';
import { DbformError } from '../model/errors.js';
import { readCredentials } from '../app/credentials-input.js';
import { emulatorSwitchesFromEnv } from './emulator-switches-env.js';
import { isDebug } from './errors.js';
import type { ApiOptions, GlobalOptions } from './options.js';
import { VERSION } from './version.js';
import { cliProcess, runDirectory } from './process.js';

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
/** The key pair the emulator seeds for proj-demo; its tiger dialect takes it (HTTP Basic). */
export const EMULATOR_KEY_PAIR: ApiCredentials = { kind: 'key-pair', publicKey: 'demo-access', secretKey: 'demo-secret' };

export async function openApiContext(input: ApiContextInput, env: NodeJS.ProcessEnv = cliProcess().env, stderr: NodeJS.WritableStream = cliProcess().stderr): Promise<ApiContext> {
  const debug = input.debug === true || isDebug();
  const logger = debug ? (line: string) => void stderr.write(`${line}\n`) : undefined;
  const credentials = await readCredentials(input.apiKeyFile, env, (note) => stderr.write(`${note}\n`), runDirectory());
  if (input.emulator) return openEmulatorContext(input, credentials, env, logger);
  const baseUrl = input.apiUrl?.trim() || env.DBFORM_API_URL?.trim() || undefined;
  if (baseUrl === undefined || credentials === undefined) throw new DbformError(missingSettingsMessage(baseUrl, credentials));
  const retry = emulatorBackoff(baseUrl, env);
  const client = new ApiClient({ baseUrl, credentials, userAgent: `dbform/${VERSION}`, allowInsecureHttp: input.allowInsecureHttp === true, logger, retry });
  return { client, close: () => client.close() };
}

async function openEmulatorContext(
  input: ApiContextInput,
  given: ApiCredentials | undefined,
  env: NodeJS.ProcessEnv,
  logger: ((line: string) => void) | undefined,
): Promise<ApiContext> {
  const timeScale = emulatorTimeScale(env);
  const dialect = emulatorDialect(env);
  const switches = emulatorSwitchesFromEnv(env);
  const stateFile = emulatorStateFile(input.configFiles);
  const { startEmulator } = await import('../emulator/index.js');
  const emulator = await startEmulator({ host: '127.0.0.1', port: 0, stateFile, timeScale, dialect, ...switches });
  logger?.(`[emulator] listening on ${emulator.url}, state in ${stateFile}, time scale ${timeScale}, dialect ${dialect}`);
  const s = emulator.switches;
  logger?.(`[emulator] backup delay ${s.backupDelay} s, peering acceptance ${s.peeringAcceptance}, teardown ${s.teardown}, endpoints ${s.endpoints}`);
  // Each dialect's own way in by default: the PAT (Bearer), or the real service's key pair (Basic).
  const credentials = given ?? (dialect === 'tiger' ? EMULATOR_KEY_PAIR : { kind: 'bearer' as const, token: EMULATOR_PAT });
  const client = new ApiClient({ baseUrl: emulator.url, credentials, userAgent: `dbform/${VERSION}`, logger, retry: backoffAtTimeScale(timeScale) });
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
export function emulatorStateFile(configFiles: string[] | undefined, cwd: string = cliProcess().cwd()): string {
  const first = configFiles?.[0];
  const start = resolve(cwd, first === undefined ? '.' : dirname(first));
  const top = resolve(cwd);
  if (start.startsWith(top + sep)) {
    for (let dir = start; dir !== top; dir = dirname(dir)) if (existsSync(join(dir, STATE))) return join(dir, STATE);
    if (existsSync(join(top, STATE))) return join(top, STATE);
  }
  return join(start, STATE);
}

/** DBFORM_EMULATOR_DIALECT for --emulator: `seed` (default) or `tiger` (SPEC section 12). */
export function emulatorDialect(env: NodeJS.ProcessEnv): 'seed' | 'tiger' {
  const raw = env.DBFORM_EMULATOR_DIALECT?.trim();
  if (raw === undefined || raw === '') return 'seed';
  if (raw === 'seed' || raw === 'tiger') return raw;
  throw new DbformError(`DBFORM_EMULATOR_DIALECT must be seed or tiger (found "${raw}")`);
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

function missingSettingsMessage(baseUrl: string | undefined, credentials: ApiCredentials | undefined): string {
  const missing: string[] = [];
  if (baseUrl === undefined) missing.push('the API URL (set DBFORM_API_URL or pass --api-url URL)');
  if (credentials === undefined) missing.push('credentials (set DBFORM_API_KEY, or DBFORM_ACCESS_KEY and DBFORM_SECRET_KEY, or pass --api-key-file PATH)');
  return `dbform needs ${missing.join(' and ')}; or add --emulator to use the local emulator`;
}
