// The engine in the bench process, wired as `dbform apply` wires it (src/app/run-plan.ts:
// the real client, the StatusPoller, a WorkingState writing the lockfile, the pgpass file, the plain
// progress view), with the timer and the CPU clock around the plan's execution only. The emulator
// always runs in its own process. `before` (a baseline build, bench/baseline.js) runs the plan with
// that build's engine instead: every behaviour of before turn 2 (waits holding their slots, the
// x1.5 poll schedule, one services list per tick, each create's bookkeeping before its first poll),
// none of which src/ keeps, so a row can show both in one run.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { pathToFileURL } from 'node:url';
import { ApiClient } from '../dist/api/client.js';
import { fetchLiveState } from '../dist/api/live-state.js';
import { StatusPoller } from '../dist/api/waiters.js';
import { thisProcess } from '../dist/cli/local-process.js';
import { createProgressView } from '../dist/cli/progress/index.js';
import { loadConfig } from '../dist/config/index.js';
import { applyPlan } from '../dist/executor/apply-plan.js';
import { WorkingState } from '../dist/state/working-state.js';
import { pollerWaits } from '../dist/executor/poller-waits.js';
import { readLockfile } from '../dist/lockfile/index.js';
import { expectExit, runCli } from './measure.js';
import { planChanges } from '../dist/planner/index.js';
import { criticalPath, quantizedCriticalPath } from './critical-path.js';
import { naiveWaits } from './naive.js';
import { PROJECT_ID, readStats, resetStats, scratchDir, shown, startEmptyEmulator, TOKEN } from './world.js';

const NOW_ENGINE = {
  schedule: 'elapsed',
  poller: (client, pollMs) => new StatusPoller(client, { projectId: PROJECT_ID, pollMs }),
  pollerWaits,
  applyPlan,
  bindings: (path, lock) => ({ bindings: new WorkingState(path, lock) }),
  pgpass: (path) => ({ pgpass: { path, owner: thisProcess() } }),
};

const baselineEngines = new Map();

/** The engine of the baseline build in `dir` (its own poller, waits, lockfile writer and applyPlan). */
async function baselineEngine(dir) {
  if (!baselineEngines.has(dir)) {
    const load = (path) => import(pathToFileURL(join(dir, 'dist', path)).href);
    const [waiters, waits, apply, store] = await Promise.all([load('api/waiters.js'), load('executor/poller-waits.js'), load('executor/apply-plan.js'), load('executor/lock-store.js')]);
    baselineEngines.set(dir, {
      schedule: 'backoff',
      poller: (client, pollMs) => new waiters.StatusPoller(client, { projectId: PROJECT_ID, pollMs }),
      pollerWaits: waits.pollerWaits,
      applyPlan: apply.applyPlan,
      // That build's engine took its lockfile writer as `lockStore`.
      bindings: (path, lock) => ({ lockStore: new store.LockStore(path, lock) }),
      pgpass: (path) => ({ pgpassPath: path }),
    });
  }
  return baselineEngines.get(dir);
}

const POLL_ROUTES = /^GET \/projects\/\{project_id\}\/(services|services\/\{service_id\}|services\/\{service_id\}\/replicaSets|vpcs\/\{vpc_id\}\/peerings(\/\{peering_id\})?)$/;

export const pollRequestsOf = (stats) => Object.entries(stats.requests).reduce((sum, [key, count]) => sum + (POLL_ROUTES.test(key) ? count : 0), 0);

/** A project directory (config + lockfile + pgpass) served by one emulator. */
export function project(emulator, name) {
  const dir = scratchDir(name);
  return { emulator, dir, config: join(dir, 'dbform.yaml'), lockfile: join(dir, 'dbform.lock.json'), pgpass: join(dir, 'pgpass') };
}

export async function planFor(proj, client, yaml) {
  writeFileSync(proj.config, yaml);
  const loaded = await loadConfig([proj.config]);
  if (!loaded.ok) throw new Error(`bench config invalid: ${loaded.errors[0]?.message}`);
  const lock = await readLockfile(proj.lockfile, PROJECT_ID);
  const live = await fetchLiveState(client, PROJECT_ID);
  const plan = planChanges(loaded.value, live, lock, { replace: [], target: [], allowDataLoss: false });
  const problems = [...plan.diagnostics.filter((d) => d.severity === 'error').map((d) => d.message), ...plan.actions.filter((a) => a.blocked).map((a) => a.blocked)];
  if (problems.length > 0) throw new Error(`bench plan failed: ${problems.join('; ')}`);
  return { plan, lock };
}

/** The plain progress view (as on a pipe), writing into a sink that counts bytes; plus when each request was answered. */
function progress() {
  let bytes = 0;
  const sink = new Writable({
    write(chunk, _encoding, done) {
      bytes += chunk.length;
      done();
    },
  });
  const view = createProgressView(sink, { color: false, tty: false });
  const answered = new Map();
  return {
    reporter: {
      emit(event) {
        if (event.type === 'action-status' && !answered.has(event.action.id)) answered.set(event.action.id, performance.now());
        view.emit(event);
      },
    },
    bytes: () => bytes,
    lastAnswer: () => (answered.size > 0 ? Math.max(...answered.values()) : NaN),
  };
}

export function describePlan(plan, { timeScale, pollMs }, schedule = 'elapsed') {
  const ops = {};
  for (const a of plan.actions) ops[a.op] = (ops[a.op] ?? 0) + 1;
  return {
    actions: plan.actions.length,
    ops,
    criticalMs: criticalPath(plan.actions, timeScale).ms,
    quantizedMs: quantizedCriticalPath(plan.actions, timeScale, pollMs, schedule).ms,
  };
}

/**
 * Applies a plan already made; only applyPlan is timed. settings: { parallelism, pollMs, timeScale,
 * strategy: 'batched' | 'naive', before: a baseline build ({ dir }) whose engine runs it instead }.
 */
export async function runPlan(proj, client, { plan, lock }, settings) {
  const engine = settings.before ? await baselineEngine(settings.before.dir) : NOW_ENGINE;
  const poller = engine.poller(client, settings.pollMs);
  try {
    const waits = settings.strategy === 'naive' ? naiveWaits(client, PROJECT_ID, settings.pollMs) : engine.pollerWaits(poller);
    const view = progress();
    await resetStats(proj.emulator);
    const cpu = process.cpuUsage();
    const started = performance.now();
    const result = await engine.applyPlan(plan, {
      api: client,
      waits,
      ...engine.bindings(proj.lockfile, lock),
      parallelism: settings.parallelism,
      pollMs: settings.pollMs,
      reporter: view.reporter,
      ...engine.pgpass(proj.pgpass),
    });
    const ms = performance.now() - started;
    const used = process.cpuUsage(cpu);
    const stats = await readStats(proj.emulator);
    if (result.failed.length > 0) throw new Error(`bench apply failed: ${result.failed.map((f) => f.message).join('; ')}`);
    if (result.done.length !== plan.actions.length) throw new Error(`bench apply did ${result.done.length} of ${plan.actions.length} actions`);
    return {
      ms,
      cpuMs: (used.user + used.system) / 1000,
      ...describePlan(plan, settings, engine.schedule),
      stats,
      pollRequests: pollRequestsOf(stats),
      sendSpanMs: view.lastAnswer() - started,
      progressBytes: view.bytes(),
      parallelism: settings.parallelism,
      timeScale: settings.timeScale,
      pollMs: settings.pollMs,
    };
  } finally {
    poller.close();
  }
}

/** Plans `yaml` against the project and applies it with the engine (see runPlan). */
export async function engineApply(proj, yaml, settings) {
  const client = new ApiClient({ baseUrl: proj.emulator.url, token: TOKEN });
  try {
    return await runPlan(proj, client, await planFor(proj, client, yaml), settings);
  } finally {
    await client.close();
  }
}

/** `dbform apply --auto-approve` of `yaml` in the project directory, as a user runs it: default --parallelism and DBFORM_POLL_MS. */
export async function cliApply(proj, yaml, { timeScale }) {
  const client = new ApiClient({ baseUrl: proj.emulator.url, token: TOKEN });
  const { plan } = await planFor(proj, client, yaml).finally(() => client.close());
  await resetStats(proj.emulator);
  const args = ['apply', '-f', proj.config, '--api-url', proj.emulator.url, '--auto-approve', '--pgpass', proj.pgpass];
  const r = expectExit(await runCli(args, { env: { DBFORM_API_KEY: TOKEN } }), [0], 'dbform apply');
  const stats = await readStats(proj.emulator);
  // The CLI reads the live state once (one services list) before it applies; the rest is polling.
  return { ms: r.wallMs, cpuMs: r.cpuMs, maxRssKb: r.maxRssKb, ...describePlan(plan, { timeScale, pollMs: 1000 }), stats, pollRequests: pollRequestsOf(stats) - 1, config: shown(proj.config), timeScale };
}

/** The median run (by wall time) of `runs`, with every run's time. */
export async function medianOf(runs, once) {
  const results = [];
  for (let i = 0; i < runs; i++) results.push(await once());
  const sorted = [...results].sort((a, b) => a.ms - b.ms);
  return { ...sorted[(sorted.length - 1) >> 1], runs, allMs: results.map((r) => r.ms) };
}

/** Applies `yaml` on a fresh emulator (its creates need an empty project). */
export async function onFreshEmulator(name, timeScale, run) {
  const emulator = await startEmptyEmulator({ timeScale });
  try {
    return await run(project(emulator, name));
  } finally {
    await emulator.close();
  }
}

