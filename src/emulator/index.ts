// Programmatic entry: tests, benchmarks and the CLI's `--emulator` start the emulator here.
import { mkdirSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { dirname } from 'node:path';
import { API_PREFIX, type EmulatorStatsDto } from '../api/dto.js';
import { describeFileError } from '../lockfile/file-errors.js';
import { createClock } from './clock.js';
import { EmulatorConfigError } from './errors.js';
import { FaultInjector, type Fault, type FaultSettings } from './faults.js';
import { buildWorld, readStateFile, serializeWorld, StateWriter } from './persistence.js';
import { Router } from './router.js';
import { logRoutes } from './routes/logs.js';
import { peeringRoutes } from './routes/peerings.js';
import { projectRoutes } from './routes/projects.js';
import { replicaSetRoutes } from './routes/replica-sets.js';
import { serviceActionRoutes } from './routes/service-actions.js';
import { serviceRoutes } from './routes/services.js';
import { vpcRoutes } from './routes/vpcs.js';
import { DEFAULT_SEED, loadSeedFile, parseSeed, type Seed } from './seed.js';
import { createRequestListener } from './server.js';
import { RequestStats } from './stats.js';

export { EmulatorConfigError } from './errors.js';
export { DEFAULT_SEED, type Seed } from './seed.js';

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
}

export interface EmulatorHandle {
  /** Base URL of the API, ending in /public/api/v1. */
  url: string;
  /** http://host:port */
  origin: string;
  port: number;
  faultSeed: number;
  close(): Promise<void>;
  stats(): EmulatorStatsDto;
  resetStats(): void;
  setFaults(partial: Partial<FaultSettings> & { faultSeed?: number }): void;
  /** Faults injected so far, by kind (500, 503, 429, lost response). */
  faultsInjected(): Record<Fault, number>;
}

export async function startEmulator(options: EmulatorOptions = {}): Promise<EmulatorHandle> {
  const host = options.host ?? '127.0.0.1';
  const timeScale = options.timeScale ?? 1;
  if (!(timeScale >= 0) || !Number.isFinite(timeScale)) throw new EmulatorConfigError(`timeScale must be a number >= 0 (got ${timeScale})`);
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
  ]);
  const persist = writer ? () => writer.save() : () => Promise.resolve();
  const server = createServer({ keepAliveTimeout: 30_000 }, createRequestListener({ world, clock: createClock(timeScale, options.now), router, stats, faults, persist }));
  const port = await listen(server, host, options.port ?? 0);
  const origin = `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
  let closing: Promise<void> | undefined;
  return {
    url: `${origin}${API_PREFIX}`,
    origin,
    port,
    faultSeed: faults.seed,
    stats: () => stats.snapshot(),
    resetStats: () => stats.reset(),
    setFaults: (partial) => faults.update(partial),
    faultsInjected: () => faults.injected(),
    close: () => (closing ??= closeServer(server, writer)),
  };
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
  else if (saved) seed = parseSeed({ projects: saved.projects.map(({ id, name }) => ({ id, name })), tokens: saved.tokens }, `emulator state file ${options.stateFile}`);
  else seed = DEFAULT_SEED;
  return buildWorld(seed, saved?.projects);
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
