// State store benchmarks (SPEC sections 8 and 10): the same 100-create apply, then 100 resizes of
// those services (each recorded as pending before it is sent and ended after, SPEC section 14),
// with the state in the lockfile file and in PostgreSQL, in the same run on the same emulator
// settings, wired as
// `dbform apply` wires it (src/app/run-plan.ts: a WorkingState writing through the store's
// compare-and-swap writer); round trips counted by the store itself; plan's added state read.
import { join } from 'node:path';
import { ApiClient } from '../dist/api/client.js';
import { thisProcess } from '../dist/cli/local-process.js';
import { fetchLiveState } from '../dist/api/live-state.js';
import { StatusPoller } from '../dist/api/waiters.js';
import { loadConfig } from '../dist/config/index.js';
import { applyPlan } from '../dist/executor/apply-plan.js';
import { WorkingState } from '../dist/state/working-state.js';
import { pollerWaits } from '../dist/executor/poller-waits.js';
import { appliedRecorder, planChanges } from '../dist/planner/index.js';
import { FileStateStore, PgStateStore } from '../dist/state/index.js';
import { StateJournal } from '../dist/state/journal.js';
import { createStoreWriter } from '../dist/state/state-writer.js';
import { writeFileSync } from 'node:fs';
import { startBenchPostgres } from './postgres.js';
import { Fleet, PROJECT_ID, scratchDir, startEmptyEmulator, TOKEN } from './world.js';

function openStore(kind, dir, pgUrl, workspace) {
  if (kind === 'file') {
    return new FileStateStore({ lockfilePath: join(dir, 'dbform.lock.json'), projectId: PROJECT_ID, workspace, historyPath: join(dir, '.dbform', 'history.jsonl'), owner: thisProcess() });
  }
  return new PgStateStore({ url: pgUrl, projectId: PROJECT_ID, workspace, env: {} });
}

/**
 * Plans `configText` against the store and the emulator and applies it as `dbform apply` does;
 * only applyPlan is timed. Its writes and (PostgreSQL) round trips are counted.
 */
async function timedApply(kind, o, { dir, store, client, poller }, configText) {
  writeFileSync(join(dir, 'dbform.yaml'), configText);
  const loaded = await loadConfig([join(dir, 'dbform.yaml')]);
  const [snapshot, live] = await Promise.all([store.read(), fetchLiveState(client, PROJECT_ID)]);
  const plan = planChanges(loaded.value, live, snapshot.lockfile, { replace: [], target: [], allowDataLoss: false });
  const fail = (err) => {
    throw err;
  };
  const writer = createStoreWriter({ store, journal: new StateJournal(join(dir, '.dbform', 'state-journal.json')), base: snapshot.lockfile, onUnavailable: fail, onClaimRefused: fail });
  let writes = 0;
  const bindings = new WorkingState(store.location, snapshot.lockfile, (path, lock) => {
    writes++;
    return writer.write(path, lock);
  });
  const roundTripsBefore = store.roundTrips ?? 0;
  const started = performance.now();
  const appliedOf = appliedRecorder(loaded.value);
  const result = await applyPlan(plan, { api: client, waits: pollerWaits(poller), bindings, parallelism: o.width, pollMs: o.pollMs, appliedOf });
  const ms = performance.now() - started;
  if (result.done.length !== plan.actions.length) throw new Error(`bench apply (${kind}) did ${result.done.length} of ${plan.actions.length} actions`);
  const roundTrips = kind === 'postgres' ? store.roundTrips - roundTripsBefore : undefined;
  return { ms, actions: plan.actions.length, writes, roundTrips };
}

/**
 * On a fresh emulator: `width` creates, then `width` resizes of them (each recorded as pending in
 * the state before it is sent and ended once seen to finish, SPEC section 14).
 */
async function applyOnce(kind, o, pgUrl, run) {
  const emulator = await startEmptyEmulator({ timeScale: o.timeScale });
  const dir = scratchDir(`state-${kind}-${run}`);
  const client = new ApiClient({ baseUrl: emulator.url, token: TOKEN });
  const poller = new StatusPoller(client, { projectId: PROJECT_ID, pollMs: o.pollMs });
  const store = openStore(kind, dir, pgUrl, `bench-${kind}-${run}-${process.pid}`);
  try {
    const fleet = new Fleet(o.width);
    const scope = { dir, store, client, poller };
    const creates = await timedApply(kind, o, scope, fleet.config());
    const resizes = await timedApply(kind, o, scope, fleet.resize(o.width));
    const pending = Object.values((await store.read()).lockfile.resources).filter((e) => e.pending !== undefined).length;
    if (pending !== 0) throw new Error(`bench apply (${kind}) left ${pending} pending record(s)`);
    return { ...creates, resizes, workspace: store.workspace, dir };
  } finally {
    poller.close();
    await client.close();
    await store.close();
    await emulator.close();
  }
}

/** The state read plan adds: a new store (new connection, as a plan process has), one read. */
async function planRead(kind, pgUrl, workspace, dir) {
  const store = openStore(kind, dir, pgUrl, workspace);
  try {
    const started = performance.now();
    const snap = await store.read();
    return { ms: performance.now() - started, queries: store.roundTrips, bindings: Object.keys(snap.lockfile.resources).length };
  } finally {
    await store.close();
  }
}

const median = (xs) => [...xs].sort((a, b) => a - b)[(xs.length - 1) >> 1];

/** options: { width, timeScale, pollMs, runs, log } */
export async function benchState(options) {
  const { log, ...settings } = options;
  const pg = await startBenchPostgres();
  if (!pg) return { settings, skipped: 'PostgreSQL server binaries not found under /usr/lib/postgresql (apt-get install postgresql)' };
  try {
    const file = [];
    const postgres = [];
    // Alternate the stores so drift in the machine's load hits both alike.
    for (let i = 0; i < settings.runs; i++) {
      log(`state: ${settings.width} creates, state in the file (run ${i + 1})`);
      file.push(await applyOnce('file', settings, pg.url, i));
      log(`state: ${settings.width} creates, state in PostgreSQL (run ${i + 1})`);
      postgres.push(await applyOnce('postgres', settings, pg.url, i));
    }
    const last = postgres[postgres.length - 1];
    const read = await planRead('postgres', pg.url, last.workspace, last.dir);
    const fileRead = await planRead('file', pg.url, file[file.length - 1].workspace, file[file.length - 1].dir);
    return {
      settings,
      file: { medianMs: median(file.map((r) => r.ms)), allMs: file.map((r) => r.ms), actions: file[0].actions, writes: file.map((r) => r.writes) },
      postgres: {
        medianMs: median(postgres.map((r) => r.ms)),
        allMs: postgres.map((r) => r.ms),
        actions: postgres[0].actions,
        writes: postgres.map((r) => r.writes),
        roundTrips: postgres.map((r) => r.roundTrips),
      },
      resizes: {
        file: { medianMs: median(file.map((r) => r.resizes.ms)), allMs: file.map((r) => r.resizes.ms), actions: file[0].resizes.actions, writes: file.map((r) => r.resizes.writes) },
        postgres: {
          medianMs: median(postgres.map((r) => r.resizes.ms)),
          allMs: postgres.map((r) => r.resizes.ms),
          actions: postgres[0].resizes.actions,
          writes: postgres.map((r) => r.resizes.writes),
          roundTrips: postgres.map((r) => r.resizes.roundTrips),
        },
      },
      read,
      fileRead,
    };
  } finally {
    pg.stop();
  }
}
