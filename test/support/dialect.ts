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
  /** Whether the API renames services in place (renameService, SPEC section 15); else a name change is a replace. */
  renamesServices: boolean;
}

const FACTS: Record<TestDialect, DialectFacts> = {
  seed: {
    authEnv: { DBFORM_API_KEY: 'demo-pat' },
    emulatorEnv: {},
    credentials: { kind: 'bearer', token: 'demo-pat' },
    timeSeriesType: 'TIMESERIESDB',
    embedsReplicaSets: true,
    peeringActive: 'active',
    peeringFailed: 'failed',
    renamesServices: false,
  },
  tiger: {
    authEnv: { DBFORM_ACCESS_KEY: 'demo-access', DBFORM_SECRET_KEY: 'demo-secret' },
    emulatorEnv: { DBFORM_EMULATOR_DIALECT: 'tiger' },
    credentials: { kind: 'key-pair', publicKey: 'demo-access', secretKey: 'demo-secret' },
    timeSeriesType: 'TIMESCALEDB',
    embedsReplicaSets: false,
    peeringActive: 'ACTIVE',
    peeringFailed: 'INVALID',
    renamesServices: true,
  },
};

export const DIALECT_FACTS: DialectFacts = FACTS[DIALECT];
export const AUTH_ENV = DIALECT_FACTS.authEnv;
export const EMULATOR_ENV = DIALECT_FACTS.emulatorEnv;

/**
 * The emulator of this run's dialect, with the dialect's own behaviours (SPEC section 15: the tiger
 * dialect's backup delay, eventual teardown and moving endpoints); options may override any.
 */
export function startTestEmulator(options: EmulatorOptions = {}): Promise<EmulatorHandle> {
  return startEmulator({ dialect: DIALECT, ...options });
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
