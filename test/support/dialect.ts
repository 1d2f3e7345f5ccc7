// The API dialect the end-to-end harnesses run against (SPEC section 12): `seed` (cloud-api.md)
// by default, `tiger` (the real service's OpenAPI) in the vitest project of that name, which sets
// DBFORM_TEST_DIALECT (vitest.config.ts). One suite, run against both worlds: a harness asks this
// module how to start the emulator, how to authenticate and what the dialect answers, and never
// branches on the dialect itself.
import { describe, it } from 'vitest';
import { ApiClient, type ApiClientOptions } from '../../src/api/client.js';
import type { ApiCredentials } from '../../src/api/credentials.js';
import { startEmulator, type EmulatorHandle, type EmulatorOptions } from '../../src/emulator/index.js';

export type TestDialect = 'seed' | 'tiger';

export const DIALECT: TestDialect = process.env.DBFORM_TEST_DIALECT === 'tiger' ? 'tiger' : 'seed';

/**
 * SPEC section 15 behaviours of the tiger dialect that the client does not handle yet, held back
 * for the harnesses (the emulator's own tests turn them on). Each line is removed once the client
 * handles it, and the tiger scenarios then run with the dialect's default:
 * - backupDelay 0 (tiger: 30 s): a fork or replica set create right after its parent's create is
 *   a 409 "doesn't yet have any backups or snapshots available", to be retried by the client;
 * - teardown immediate (tiger: eventual): a deleted peering is listed as DELETING for 2 s, a
 *   deleted service keeps its VPC attachment until gone, and their VPC's delete is a 409 "already
 *   being updated" meanwhile, to be retried; a second delete of a DELETING peering is a 409;
 * - endpoints fixed (tiger: moving): an attached service's endpoint (and pooler) host moves to a
 *   private one, so pgpass lines and outputs written before the attach name the old host.
 * The same holds for `--emulator` commands through EMULATOR_ENV. Peering acceptance stays `auto`
 * (the default in both dialects), which today's client already waits through.
 */
export const HELD_BACK: Pick<EmulatorOptions, 'backupDelay' | 'teardown' | 'endpoints'> = { backupDelay: 0, teardown: 'immediate', endpoints: 'fixed' };
const HELD_BACK_ENV: Record<string, string> = {
  DBFORM_EMULATOR_BACKUP_DELAY: '0',
  DBFORM_EMULATOR_TEARDOWN: 'immediate',
  DBFORM_EMULATOR_ENDPOINTS: 'fixed',
};

/**
 * `it` for a test, in a file the tiger project runs again, whose requests and answers no dialect
 * changes: a refusal made before any request or before any change, a flag, rendering, a config
 * error. The seed run defines it; the tiger run does not, since running it against the tiger
 * emulator proves nothing more (vitest.config.ts says what each tiger run proves).
 */
export const itDialectBlind = (DIALECT === 'seed' ? it : () => undefined) as typeof it;

/** `describe` for a group of such tests only (vitest fails a describe that defines no test). */
export const describeDialectBlind = (DIALECT === 'seed' ? describe : () => undefined) as typeof describe;

interface DialectFacts {
  /** How the CLI authenticates: the env it gets (never both kinds, so no note is printed). */
  authEnv: Record<string, string>;
  /** What `--emulator` commands need to run the in-process emulator in this dialect. */
  emulatorEnv: Record<string, string>;
  /** How in-process clients authenticate. */
  credentials: ApiCredentials;
  /** service_type of a time-series service. */
  timeSeriesType: string;
  /** Whether the services list embeds read_replica_sets (else a plan reads one list per managed service). */
  embedsReplicaSets: boolean;
  /** Peering status once usable, and once failed. */
  peeringActive: string;
  peeringFailed: string;
}

const FACTS: Record<TestDialect, DialectFacts> = {
  seed: {
    authEnv: { DBFORM_API_KEY: 'demo-pat' },
    emulatorEnv: { ...HELD_BACK_ENV },
    credentials: { kind: 'bearer', token: 'demo-pat' },
    timeSeriesType: 'TIMESERIESDB',
    embedsReplicaSets: true,
    peeringActive: 'active',
    peeringFailed: 'failed',
  },
  tiger: {
    authEnv: { DBFORM_ACCESS_KEY: 'demo-access', DBFORM_SECRET_KEY: 'demo-secret' },
    emulatorEnv: { DBFORM_EMULATOR_DIALECT: 'tiger', ...HELD_BACK_ENV },
    credentials: { kind: 'key-pair', publicKey: 'demo-access', secretKey: 'demo-secret' },
    timeSeriesType: 'TIMESCALEDB',
    embedsReplicaSets: false,
    peeringActive: 'ACTIVE',
    peeringFailed: 'INVALID',
  },
};

export const DIALECT_FACTS: DialectFacts = FACTS[DIALECT];
export const AUTH_ENV = DIALECT_FACTS.authEnv;
export const EMULATOR_ENV = DIALECT_FACTS.emulatorEnv;

/** The emulator of this run's dialect, with HELD_BACK (options may still override either). */
export function startTestEmulator(options: EmulatorOptions = {}): Promise<EmulatorHandle> {
  return startEmulator({ dialect: DIALECT, ...HELD_BACK, ...options });
}

/** A client of this run's dialect's credentials. */
export function testClient(baseUrl: string, options: Omit<ApiClientOptions, 'baseUrl' | 'token' | 'credentials'> = {}): ApiClient {
  return new ApiClient({ baseUrl, credentials: DIALECT_FACTS.credentials, ...options });
}

/**
 * Requests a plan (or export) reads: the services list, the VPC list, one peerings list per VPC,
 * and, where the list does not embed replica sets, one replica set list per managed service.
 */
export function planReads(vpcs: number, managedServices: number): number {
  return 2 + vpcs + (DIALECT_FACTS.embedsReplicaSets ? 0 : managedServices);
}
