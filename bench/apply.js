// Apply benchmarks (SPEC section 8): wall time of wide and deep plans against the critical path of
// their waits, and the poll requests waiting costs; the same plans applied naively (one operation
// at a time, a GET per waiting resource per tick) as the reference. Engine rows run the engine in
// this process, wired as `dbform apply` wires it (src/cli/progress/apply-flow.ts), with the timer
// around the plan's execution only; CLI rows time `dbform apply --auto-approve` as a whole. The
// emulator always runs in its own process.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ApiClient } from '../dist/api/client.js';
import { fetchLiveState } from '../dist/api/live-state.js';
import { StatusPoller } from '../dist/api/waiters.js';
import { loadConfig } from '../dist/config/index.js';
import { applyPlan } from '../dist/executor/apply-plan.js';
import { LockStore } from '../dist/executor/lock-store.js';
import { pollerWaits } from '../dist/executor/poller-waits.js';
import { readLockfile } from '../dist/lockfile/index.js';
import { planChanges } from '../dist/planner/index.js';
import { criticalPath, quantizedCriticalPath } from './critical-path.js';
import { expectExit, runCli } from './measure.js';
import { naiveWaits } from './naive.js';
import { chainConfig, Fleet, PROJECT_ID, readStats, resetStats, scratchDir, shown, startEmptyEmulator, TOKEN } from './world.js';

const POLL_ROUTES = /^GET \/projects\/\{project_id\}\/(services|services\/\{service_id\}|services\/\{service_id\}\/replicaSets|vpcs\/\{vpc_id\}\/peerings(\/\{peering_id\})?)$/;

/** A project directory (config + lockfile) served by one emulator. */
function project(emulator, name) {
  const dir = scratchDir(name);
  return { emulator, dir, config: join(dir, 'dbform.yaml'), lockfile: join(dir, 'dbform.lock.json') };
}

async function planFor(proj, client, yaml) {
  writeFileSync(proj.config, yaml);
  const loaded = await loadConfig([proj.config]);
  if (!loaded.ok) throw new Error(`bench config invalid: ${loaded.errors[0]?.message}`);
  const lock = await readLockfile(proj.lockfile, PROJECT_ID);
  const live = await fetchLiveState(client, PROJECT_ID, { peeringsOf: 'all' });
  const plan = planChanges(loaded.value, live, lock, { replace: [], target: [], allowDataLoss: false });
  const problems = [...plan.diagnostics.filter((d) => d.severity === 'error').map((d) => d.message), ...plan.actions.filter((a) => a.blocked).map((a) => a.blocked)];
  if (problems.length > 0) throw new Error(`bench plan failed: ${problems.join('; ')}`);
  return { plan, lock };
}

/** When each action's request was answered (its first reported status): how long the burst of sends lasted. */
function sendTimes() {
  const answered = new Map();
  return {
    reporter: {
      emit(event) {
        if (event.type === 'action-status' && !answered.has(event.action.id)) answered.set(event.action.id, performance.now());
      },
    },
    last: () => (answered.size > 0 ? Math.max(...answered.values()) : NaN),
  };
}

function describe(plan, { timeScale, pollMs }) {
  const ops = {};
  for (const a of plan.actions) ops[a.op] = (ops[a.op] ?? 0) + 1;
  return {
    actions: plan.actions.length,
    ops,
    criticalMs: criticalPath(plan.actions, timeScale).ms,
    quantizedMs: quantizedCriticalPath(plan.actions, timeScale, pollMs).ms,
  };
}

const pollRequestsOf = (stats) => Object.entries(stats.requests).reduce((sum, [key, count]) => sum + (POLL_ROUTES.test(key) ? count : 0), 0);

/**
 * Plans `yaml` against the project and applies it with the engine; only applyPlan is timed.
 * strategy: 'batched' (dbform's StatusPoller) or 'naive' (a GET per waiting resource per tick).
 */
export async function engineApply(proj, yaml, { parallelism, pollMs, timeScale, strategy = 'batched' }) {
  const client = new ApiClient({ baseUrl: proj.emulator.url, token: TOKEN });
  const poller = new StatusPoller(client, { projectId: PROJECT_ID, pollMs });
  try {
    const { plan, lock } = await planFor(proj, client, yaml);
    const waits = strategy === 'naive' ? naiveWaits(client, PROJECT_ID, pollMs) : pollerWaits(poller);
    const sends = sendTimes();
    await resetStats(proj.emulator);
    const started = performance.now();
    const result = await applyPlan(plan, { api: client, waits, lockStore: new LockStore(proj.lockfile, lock), parallelism, pollMs, reporter: sends.reporter });
    const ms = performance.now() - started;
    const stats = await readStats(proj.emulator);
    if (result.failed.length > 0) throw new Error(`bench apply failed: ${result.failed.map((f) => f.message).join('; ')}`);
    if (result.done.length !== plan.actions.length) throw new Error(`bench apply did ${result.done.length} of ${plan.actions.length} actions`);
    return { ms, ...describe(plan, { timeScale, pollMs }), stats, pollRequests: pollRequestsOf(stats), sendSpanMs: sends.last() - started };
  } finally {
    poller.close();
    await client.close();
  }
}

/** `dbform apply --auto-approve` of `yaml` in the project directory, as a user runs it. */
async function cliApply(proj, yaml, { parallelism, pollMs, timeScale }) {
  const client = new ApiClient({ baseUrl: proj.emulator.url, token: TOKEN });
  const { plan } = await planFor(proj, client, yaml).finally(() => client.close());
  await resetStats(proj.emulator);
  const args = ['apply', '-f', proj.config, '--api-url', proj.emulator.url, '--auto-approve', '--parallelism', String(parallelism), '--pgpass', join(proj.dir, 'pgpass')];
  const r = expectExit(await runCli(args, { env: { DBFORM_API_KEY: TOKEN, DBFORM_POLL_MS: String(pollMs) } }), [0], 'dbform apply');
  const stats = await readStats(proj.emulator);
  // The CLI reads the live state once (one services list) before it applies; the rest is polling.
  return { ms: r.wallMs, ...describe(plan, { timeScale, pollMs }), stats, pollRequests: pollRequestsOf(stats) - 1, config: shown(proj.config), parallelism, pollMs };
}

/** The median run (by wall time) of `runs`, with every run's time. */
async function medianOf(runs, once) {
  const results = [];
  for (let i = 0; i < runs; i++) results.push(await once());
  const sorted = [...results].sort((a, b) => a.ms - b.ms);
  return { ...sorted[(sorted.length - 1) >> 1], runs, allMs: results.map((r) => r.ms) };
}

async function wideScenarios(o, log) {
  const emulator = await startEmptyEmulator({ timeScale: o.timeScale });
  try {
    const proj = project(emulator, 'apply-wide');
    const fleet = new Fleet(o.width);
    const settings = { pollMs: o.pollMs, timeScale: o.timeScale, parallelism: o.width };
    log(`apply: creating ${o.width} services (setup)`);
    await engineApply(proj, fleet.config(), settings);
    log('apply: one resize');
    const one = await medianOf(o.runs, () => engineApply(proj, fleet.resize(1), settings));
    log(`apply: ${o.width} resizes`);
    const wide = await medianOf(o.runs, () => engineApply(proj, fleet.resize(o.width), settings));
    log(`apply: ${o.width} resizes, naive (parallelism 1, per-resource polling)`);
    const naive = await engineApply(proj, fleet.resize(o.width), { ...settings, parallelism: 1, strategy: 'naive' });
    log(`apply: ${o.width} resizes, per-resource polling at parallelism ${o.width}`);
    const perResource = await engineApply(proj, fleet.resize(o.width), { ...settings, strategy: 'naive' });
    return { one, wide, naive, perResource };
  } finally {
    await emulator.close();
  }
}

/** Applies `yaml` on a fresh emulator (its creates need an empty project). */
async function onFreshEmulator(name, timeScale, run) {
  const emulator = await startEmptyEmulator({ timeScale });
  try {
    return await run(project(emulator, name));
  } finally {
    await emulator.close();
  }
}

const CHAINS = {
  chain: () => chainConfig(),
  'chain-attach': () => chainConfig({ attach: true }),
  deep: () => chainConfig({ attach: true, fork: true }),
};

async function chainScenarios(o, log) {
  const out = {};
  const settings = { pollMs: o.pollMs, timeScale: o.timeScale, parallelism: 10 };
  for (const name of o.chains) {
    log(`apply: ${name}`);
    const engine = await medianOf(o.runs, () => onFreshEmulator(`apply-${name}`, o.timeScale, (p) => engineApply(p, CHAINS[name](), settings)));
    const naive = await onFreshEmulator(`apply-${name}-naive`, o.timeScale, (p) => engineApply(p, CHAINS[name](), { ...settings, parallelism: 1, strategy: 'naive' }));
    out[name] = { engine, naive };
  }
  return out;
}

/** `dbform apply` end to end at the CLI's own time scale: one resize, all resizes, the deep chain. */
async function cliScenarios(o, log) {
  const settings = { pollMs: o.cli.pollMs, timeScale: o.cli.timeScale, parallelism: o.width };
  const out = await onFreshEmulator('apply-cli', settings.timeScale, async (proj) => {
    const fleet = new Fleet(o.width);
    log(`apply CLI: creating ${o.width} services (setup)`);
    await engineApply(proj, fleet.config(), settings);
    log('apply CLI: one resize');
    const one = await cliApply(proj, fleet.resize(1), settings);
    log(`apply CLI: ${o.width} resizes`);
    const wide = await cliApply(proj, fleet.resize(o.width), settings);
    if (!o.cli.defaultPoll) return { one, wide };
    log('apply CLI: one resize at the default DBFORM_POLL_MS (1000)');
    return { one, wide, defaultPoll: await cliApply(proj, fleet.resize(1), { ...settings, pollMs: 1000 }) };
  });
  if (o.cli.deep) {
    log('apply CLI: deep chain');
    out.deep = await onFreshEmulator('apply-cli-deep', settings.timeScale, (proj) => cliApply(proj, CHAINS.deep(), { ...settings, parallelism: 10 }));
  }
  return out;
}

/** options: { width, timeScale, pollMs, runs, chains, cli: { timeScale, pollMs, deep, defaultPoll }, log } */
export async function benchApply(options) {
  const { log, ...settings } = options;
  return {
    settings,
    ...(await wideScenarios(options, log)),
    chains: await chainScenarios(options, log),
    cli: await cliScenarios(options, log),
  };
}
