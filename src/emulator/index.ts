// Programmatic entry: tests, benchmarks and the CLI's `--emulator` start the emulator here.
import { mkdirSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { dirname } from 'node:path';
import { API_PREFIX, type EmulatorStatsDto } from '../api/dto.js';
import { describeFileError } from '../lockfile/file-errors.js';
import { createClock } from './clock.js';
import { DIALECT_NAMES, dialectNamed, type Dialect, type DialectName } from './dialect.js';
import { EmulatorConfigError } from './errors.js';
import { FaultInjector, type Fault, type FaultSettings } from './faults.js';
import { buildWorld, readStateFile, serializeWorld, StateWriter } from './persistence.js';
import { Router } from './router.js';
import { authInfoRoute } from './routes/auth-info.js';
import { logRoutes } from './routes/logs.js';
import { peeringRoutes } from './routes/peerings.js';
import { projectRoutes } from './routes/projects.js';
import { replicaSetRoutes } from './routes/replica-sets.js';
import { renameServiceRoute, serviceActionRoutes } from './routes/service-actions.js';
import { serviceRoutes } from './routes/services.js';
import { vpcRoutes } from './routes/vpcs.js';
import { DEFAULT_SEED, loadSeedFile, parseSeed, type Seed } from './seed.js';
import { createRequestListener } from './server.js';
import { RequestStats } from './stats.js';
import type { World } from './store.js';
import { resolveSwitches, type Switches } from './switches.js';

export { DIALECT_NAMES, type DialectName } from './dialect.js';
export { EmulatorConfigError } from './errors.js';
export { DEFAULT_SEED, type Seed } from './seed.js';
export { ENDPOINT_PLACEMENTS, MAX_BACKUP_DELAY_SECONDS, PEERING_ACCEPTANCES, TEARDOWNS, type EndpointPlacement, type PeeringAcceptance, type Switches, type Teardown } from './switches.js';

export interface EmulatorOptions {
  host?: string;
  port?: number;
  /** Persist the world here after every mutation; reloaded at start. */
  stateFile?: string;
  /** A seed value (`{projects, tokens}` as in a seed file) or the path of a YAML/JSON seed file. */
  seed?: unknown;
  /** Multiplies every timeline duration; 0 completes a transition at the next read. */
  timeScale?: number;
  latencyMs?: number;
  faultRate?: number;
  throttleRate?: number;
  lostResponseRate?: number;
  /** Seed of the fault PRNG; random when omitted (see `faultSeed` of the handle). */
  faultSeed?: number;
  /** The time source (epoch ms); tests pass a controllable one to check timelines exactly. */
  now?: () => number;
  /** `seed` (default): cloud-api.md exactly; `tiger`: as the real service's OpenAPI (dialect.ts). */
  dialect?: DialectName | (string & {});
  /**
   * SPEC section 15, each defaulting to the dialect's (seed: 0, immediate, fixed; tiger: 30,
   * eventual, moving; auto in both): seconds after READY without a backup, scaled by the time
   * scale (a fork or replica set create meanwhile is a 409); `manual` keeps new peerings pending
   * until `POST /__emulator/peerings/{id}/accept`; `eventual` lists deleted peerings as deleting
   * for 2 s and keeps their VPC (and a deleted service's) from deletion meanwhile; `moving` gives
   * an attached service a private endpoint host.
   */
  backupDelay?: number;
  peeringAcceptance?: Switches['peeringAcceptance'] | (string & {});
  teardown?: Switches['teardown'] | (string & {});
  endpoints?: Switches['endpoints'] | (string & {});
}

export interface EmulatorHandle {
  /** Base URL of the API, ending in /public/api/v1. */
  url: string;
  /** http://host:port */
  origin: string;
  port: number;
  faultSeed: number;
  dialect: DialectName;
  /** The SPEC section 15 behaviours in force (the dialect's defaults, overridden by the options). */
  switches: Switches;
  close(): Promise<void>;
  stats(): EmulatorStatsDto;
  resetStats(): void;
  setFaults(partial: Partial<FaultSettings> & { faultSeed?: number }): void;
  /** Faults injected so far, by kind (500, 503, 429, lost response). */
  faultsInjected(): Record<Fault, number>;
  /**
   * A credential of the world for someone to paste into another terminal (`dbform emulator`
   * prints it): its first PAT (else first token) and its first key pair. Emulator credentials
   * only: the default world's are documented in SPEC section 6.
   */
  sampleCredentials(): { token?: string; keyPair?: { publicKey: string; secretKey: string } };
}

export async function startEmulator(options: EmulatorOptions = {}): Promise<EmulatorHandle> {
  const host = options.host ?? '127.0.0.1';
  const timeScale = options.timeScale ?? 1;
  if (!(timeScale >= 0) || !Number.isFinite(timeScale)) throw new EmulatorConfigError(`timeScale must be a number >= 0 (got ${timeScale})`);
  const dialect = effectiveDialect(options);
  const faults = new FaultInjector(
    {
      latencyMs: options.latencyMs ?? 0,
      faultRate: options.faultRate ?? 0,
      throttleRate: options.throttleRate ?? 0,
      lostResponseRate: options.lostResponseRate ?? 0,
    },
    options.faultSeed,
  );
  const world = loadWorld(options);
  const writer = options.stateFile ? await openStateFile(options.stateFile, () => serializeWorld(world)) : undefined;
  const stats = new RequestStats();
  const router = new Router().add([
    ...projectRoutes,
    ...vpcRoutes,
    ...peeringRoutes,
    ...serviceRoutes,
    ...serviceActionRoutes,
    ...replicaSetRoutes,
    ...logRoutes,
    // Routes only some documents have: elsewhere they are a 404 like any unknown path.
    ...(dialect.renamesServices ? [renameServiceRoute] : []),
    ...(dialect.servesAuthInfo ? [authInfoRoute] : []),
  ]);
  const persist = writer ? () => writer.save() : () => Promise.resolve();
  const server = createServer({ keepAliveTimeout: 30_000 }, createRequestListener({ world, clock: createClock(timeScale, options.now), dialect, router, stats, faults, persist }));
  const port = await listen(server, host, options.port ?? 0);
  const origin = `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
  let closing: Promise<void> | undefined;
  return {
    url: `${origin}${API_PREFIX}`,
    origin,
    port,
    faultSeed: faults.seed,
    dialect: dialect.name,
    switches: { ...dialect.switches },
    stats: () => stats.snapshot(),
    resetStats: () => stats.reset(),
    setFaults: (partial) => faults.update(partial),
    faultsInjected: () => faults.injected(),
    sampleCredentials: () => sampleCredentials(world),
    close: () => (closing ??= closeServer(server, writer)),
  };
}

function sampleCredentials(world: World): ReturnType<EmulatorHandle['sampleCredentials']> {
  const tokens = [...world.tokens.values()];
  const token = (tokens.find((t) => t.kind === 'pat') ?? tokens[0])?.token;
  const pair = world.keyPairs.values().next().value;
  return {
    ...(token === undefined ? {} : { token }),
    ...(pair === undefined ? {} : { keyPair: { publicKey: pair.publicKey, secretKey: pair.secretKey } }),
  };
}

/** The dialect's table with the SPEC section 15 switches the options set. */
function effectiveDialect(options: EmulatorOptions): Dialect {
  const dialect = dialectNamed(options.dialect);
  if (!dialect) throw new EmulatorConfigError(`dialect must be one of ${DIALECT_NAMES.join(', ')} (got "${options.dialect}")`);
  const given = { backupDelay: options.backupDelay, peeringAcceptance: options.peeringAcceptance, teardown: options.teardown, endpoints: options.endpoints };
  return { ...dialect, switches: resolveSwitches(dialect.switches, given as Partial<Switches>) };
}

/**
 * The state file's writer, after a first write of the world as loaded: a file the emulator cannot
 * write is refused at start, not found out by a 500 after a mutation has already happened.
 */
async function openStateFile(path: string, snapshot: () => string): Promise<StateWriter> {
  try {
    mkdirSync(dirname(path), { recursive: true });
  } catch (err) {
    throw new EmulatorConfigError(`cannot create the directory of the emulator state file ${path}: ${describeFileError(err)}`);
  }
  const writer = new StateWriter(path, snapshot);
  try {
    await writer.save();
  } catch (err) {
    throw new EmulatorConfigError(`cannot write the emulator state file ${path}: ${describeFileError(err)}`);
  }
  return writer;
}

function loadWorld(options: EmulatorOptions) {
  const saved = options.stateFile ? readStateFile(options.stateFile) : undefined;
  let seed: Seed;
  if (typeof options.seed === 'string') seed = loadSeedFile(options.seed);
  else if (options.seed !== undefined) seed = parseSeed(options.seed);
  else if (saved) {
    const kept = { projects: saved.projects.map(({ id, name }) => ({ id, name })), tokens: saved.tokens, key_pairs: saved.keyPairs ?? defaultKeyPairsOf(saved.projects) };
    seed = parseSeed(kept, `emulator state file ${options.stateFile}`);
  }
  else seed = DEFAULT_SEED;
  return buildWorld(seed, saved?.projects);
}

/** A state file written before key pairs existed gets the default world's, for the projects it has. */
function defaultKeyPairsOf(projects: Array<{ id: string }>): unknown[] {
  return DEFAULT_SEED.keyPairs
    .filter((k) => projects.some((p) => p.id === k.projectId))
    .map((k) => ({ public_key: k.publicKey, secret_key: k.secretKey, project_id: k.projectId }));
}

function listen(server: Server, host: string, port: number): Promise<number> {
  return new Promise((resolve, reject) => {
    const onError = (err: NodeJS.ErrnoException) => {
      reject(new EmulatorConfigError(`cannot listen on ${host}:${port}: ${err.code === 'EADDRINUSE' ? 'the port is already in use' : err.message}`));
    };
    server.once('error', onError);
    server.listen(port, host, () => {
      server.off('error', onError);
      resolve((server.address() as AddressInfo).port);
    });
  });
}

async function closeServer(server: Server, writer: StateWriter | undefined): Promise<void> {
  const closed = new Promise<void>((resolve) => server.close(() => resolve()));
  server.closeIdleConnections();
  // Requests in flight get a moment to finish; then connections are cut so the port is released.
  const timer = setTimeout(() => server.closeAllConnections(), 2000);
  await closed;
  clearTimeout(timer);
  await writer?.flush();
}
