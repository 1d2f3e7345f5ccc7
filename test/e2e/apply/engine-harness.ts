// A real emulator on 127.0.0.1:0, the real client over HTTP, and the engine's dependencies.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ApiClient } from '../../../src/api/client.js';
import { thisProcess } from '../../../src/cli/local-process.js';
import { StatusPoller } from '../../../src/api/waiters.js';
import type { EmulatorHandle, EmulatorOptions } from '../../../src/emulator/index.js';
import { applyPlan, type ApplyOptions } from '../../../src/executor/apply-plan.js';
import type { ApplyEvent } from '../../../src/executor/events.js';
import { WorkingState } from '../../../src/state/working-state.js';
import { writeLockfile } from '../../../src/lockfile/index.js';
import type { ExecutorApi } from '../../../src/executor/ports.js';
import { startTestEmulator, testClient } from '../../support/dialect.js';
import { emptyLockfile, emptySummary, parseLockfileJson, type Action, type Lockfile, type Plan } from '../../../src/model/index.js';
import { tempDir } from '../../support/temp-dir.js';
import { driveUntilSettled, InFlightCounter } from '../../support/fake-clock-api.js';
import type { FakeTimers } from '../../support/fake-timers.js';

export const PROJECT = 'proj-demo';

export interface Harness {
  dir: string;
  lockPath: string;
  pgpassPath: string;
  client: ApiClient;
  emulator: EmulatorHandle;
  events: ApplyEvent[];
  apply(
    plan: Plan,
    extra?: Partial<ApplyOptions> & {
      lock?: Lockfile;
      api?: ExecutorApi;
      pollMs?: number;
      /** The client the poller reads through (a lists-only one reads by list alone). */
      pollThrough?: ConstructorParameters<typeof StatusPoller>[0];
      /** Sees every lockfile write (test/support/fake-clock-api.ts counts them in flight). */
      trackWrite?: <T>(write: Promise<T>) => Promise<T>;
    },
  ): ReturnType<typeof applyPlan>;
  readLock(): Lockfile;
  close(): Promise<void>;
}

export async function startHarness(options: EmulatorOptions = {}): Promise<Harness> {
  const emulator = await startTestEmulator({ timeScale: 0.01, ...options });
  const client = testClient(emulator.url, { retry: { baseDelayMs: 5, maxDelayMs: 50 } });
  const dir = tempDir('dbform-engine-');
  const lockPath = join(dir, 'dbform.lock.json');
  const pgpassPath = join(dir, 'pgpass');
  const events: ApplyEvent[] = [];
  let store: WorkingState | undefined;
  const pollers: StatusPoller[] = [];
  return {
    dir,
    lockPath,
    pgpassPath,
    client,
    emulator,
    events,
    apply(plan, extra = {}) {
      const { pollThrough, trackWrite, ...options } = extra;
      const write = trackWrite && ((path: string, lock: Lockfile) => trackWrite(writeLockfile(path, lock)));
      store = new WorkingState(lockPath, extra.lock ?? store?.snapshot() ?? emptyLockfile(PROJECT), write);
      const poller = new StatusPoller(pollThrough ?? client, { projectId: PROJECT, pollMs: extra.pollMs ?? 10 });
      pollers.push(poller);
      return applyPlan(plan, {
        api: extra.api ?? client,
        poller,
        bindings: store,
        reporter: { emit: (e) => events.push(e) },
        pgpass: { path: pgpassPath, owner: thisProcess() },
        timeoutMs: 20_000,
        pollMs: extra.pollMs ?? 10,
        ...options,
      });
    },
    readLock() {
      const parsed = parseLockfileJson(JSON.parse(readFileSync(lockPath, 'utf8')));
      if (!parsed.ok) throw new Error(parsed.errors.join('; '));
      return parsed.value;
    },
    async close() {
      for (const p of pollers) p.close();
      await client.close();
      await emulator.close();
    },
  };
}

/**
 * An apply whose waits tick on `timers` (the emulator's clock too), moved timer to timer once the
 * apply's requests and lockfile writes in flight are done; `calls` also sees its API calls.
 */
export async function applyOnFakeTime(h: Harness, timers: FakeTimers, plan: Plan, options: { parallelism?: number; pollMs: number; listsOnly?: boolean; engineCalls?: InFlightCounter }) {
  const calls = new InFlightCounter();
  const api = calls.wrap(h.client);
  // A lists-only client has no per-service GET: the poller reads by list alone.
  const pollThrough = options.listsOnly ? { listServices: api.listServices.bind(api), listVPCs: api.listVPCs.bind(api), listVPCPeerings: api.listVPCPeerings.bind(api), listReplicaSets: api.listReplicaSets.bind(api) } : api;
  const poller = new StatusPoller(pollThrough, { projectId: PROJECT, pollMs: options.pollMs, timers });
  try {
    const engineApi = options.engineCalls ? options.engineCalls.wrap(api) : api;
    const running = h.apply(plan, { api: engineApi, poller, pollMs: options.pollMs, trackWrite: calls.track, ...(options.parallelism ? { parallelism: options.parallelism } : {}) });
    return await driveUntilSettled(timers, running, calls.busy);
  } finally {
    poller.close();
  }
}

let counter = 0;
/** A hand-written action (the planner's shape) for engine tests that need no config. */
export function act(op: Action['op'], address: string, fields: Partial<Action> = {}): Action {
  const kind = address.split('.')[0] as Action['kind'];
  return { id: `a${++counter}`, address, kind, op, reason: 'missing', risk: 'none', dependsOn: [], changes: [], refs: {}, ...fields };
}

export function planOf(actions: Action[], bindings: Plan['bindings'] = [], settling: Plan['settling'] = []): Plan {
  return { formatVersion: 1, projectId: PROJECT, summary: emptySummary(), actions, bindings, settling, fingerprints: {}, stateFingerprint: 'sha256:0', diagnostics: [] };
}
