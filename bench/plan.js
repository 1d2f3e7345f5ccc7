// Plan benchmarks (SPEC section 8): request count, wall time and peak memory of `dbform plan`
// against generated worlds of N services (two replica sets each, VPCs with a peering each),
// the same read done naively, the planning work without the network on one core, and the
// length of the rendered summary.
import { join } from 'node:path';
import { ApiClient } from '../dist/api/client.js';
import { fetchLiveState } from '../dist/api/live-state.js';
import { loadConfig } from '../dist/config/index.js';
import { readLockfile } from '../dist/lockfile/index.js';
import { planChanges } from '../dist/planner/index.js';
import { expectExit, hasTaskset, lineCount, median, run, runCli } from './measure.js';
import { readLiveNaive } from './naive.js';
import { dumpLive, KEY_PAIR, PROJECT_ID, readStats, resetStats, scratchDir, shown, startWorldEmulator, TOKEN, writeWorld } from './world.js';

const PLAN_OPTIONS = { replace: [], target: [], allowDataLoss: false };

const SEED_AUTH = { DBFORM_API_KEY: TOKEN };
/** The real service's way in (SPEC section 12): the key pair, sent with HTTP Basic. */
const TIGER_AUTH = { DBFORM_ACCESS_KEY: KEY_PAIR.public_key, DBFORM_SECRET_KEY: KEY_PAIR.secret_key };

/** `dbform plan` as a user runs it, against the emulator at `url`; exit 0 = no changes. */
function cliPlan(configPath, url, expectCodes = [0], auth = SEED_AUTH) {
  return runCli(['plan', '-f', configPath, '--api-url', url, '--detailed-exitcode'], { env: auth }).then((r) =>
    expectExit(r, expectCodes, `dbform plan -f ${configPath}`),
  );
}

/**
 * The same no-change plan against the emulator's tiger dialect, whose services list does not
 * embed replica sets: the read costs 2 + V + M requests (M managed services; here every one).
 */
async function measureTiger(world) {
  const emulator = await startWorldEmulator(world, { dialect: 'tiger' });
  try {
    await resetStats(emulator);
    const r = await cliPlan(world.config, emulator.url, [0], TIGER_AUTH);
    return { wallMs: r.wallMs, maxRssKb: r.maxRssKb, requests: await readStats(emulator), managedServices: world.services };
  } finally {
    await emulator.close();
  }
}

async function measureCli(world, emulator, runs) {
  const walls = [];
  const rss = [];
  let requests;
  let stdout = '';
  for (let i = 0; i < runs; i++) {
    await resetStats(emulator);
    const r = await cliPlan(world.config, emulator.url);
    walls.push(r.wallMs);
    if (r.maxRssKb !== undefined) rss.push(r.maxRssKb);
    requests = await readStats(emulator);
    stdout = r.stdout;
  }
  return { medianMs: median(walls), minMs: Math.min(...walls), runs, requests, maxRssKb: rss.length ? Math.max(...rss) : undefined, stdout };
}

/** One in-process read with a fresh client (connections included); requests from the emulator's stats. */
async function measureReader(emulator, read) {
  const client = new ApiClient({ baseUrl: emulator.url, token: TOKEN });
  try {
    await resetStats(emulator);
    const t = performance.now();
    const live = await read(client);
    const ms = performance.now() - t;
    return { ms, requests: await readStats(emulator), live };
  } finally {
    await client.close();
  }
}

async function measureReaders(emulator, { naive, desired, lock, runs }) {
  const dbform = [];
  for (let i = 0; i < runs; i++) dbform.push(await measureReader(emulator, (c) => fetchLiveState(c, PROJECT_ID)));
  const reader = { ms: median(dbform.map((r) => r.ms)), requests: dbform[0].requests };
  if (!naive) return { reader };
  const n = await measureReader(emulator, (c) => readLiveNaive(c, PROJECT_ID));
  // The naive reader must see the same world: planning on what it read changes nothing either.
  const actions = planChanges(desired, n.live, lock, PLAN_OPTIONS).actions.length;
  if (actions !== 0) throw new Error(`the naive reader's live state plans ${actions} action(s); it should plan none`);
  return { reader, naive: { ms: n.ms, requests: n.requests } };
}

/** bench/plan-work.js in a new process each run, pinned to CPU 0 when taskset exists. */
async function measureWork(world, livePath, runs) {
  const results = [];
  for (let i = 0; i < runs; i++) {
    const r = expectExit(await run(process.execPath, ['bench/plan-work.js', world.config, world.lockfile, livePath], { pin: true }), [0], 'bench/plan-work.js');
    const out = JSON.parse(r.stdout);
    if (out.actions !== 0 || out.errors !== 0) throw new Error(`plan-work planned ${out.actions} action(s), ${out.errors} error(s); expected a no-change plan`);
    results.push({ ...out, wallMs: r.wallMs, timeRssKb: r.maxRssKb });
  }
  const phases = {};
  for (const key of Object.keys(results[0].phases)) phases[key] = median(results.map((r) => r.phases[key]));
  return {
    pinned: hasTaskset,
    runs,
    wallMs: median(results.map((r) => r.wallMs)),
    workMs: median(results.map((r) => r.workMs)),
    phases,
    maxRssKb: Math.max(...results.map((r) => r.timeRssKb ?? r.maxRssKb)),
  };
}

/** Lines of `dbform plan` text for the no-change world and for one changed field (SPEC: at most 5 and 15). */
async function measureRender(world, emulator, noChangeStdout) {
  const one = await cliPlan(world.oneField, emulator.url, [2]);
  return { noChangeLines: lineCount(noChangeStdout), oneFieldLines: lineCount(one.stdout), oneFieldText: one.stdout };
}

/**
 * options: { sizes, latencies, cliRuns(size), readerRuns, workRuns(size), naiveUpTo, renderSize, log }
 * Returns { sizes: [{ services, ..., work, byLatency: [{ latencyMs, cli, reader, naive }] }], render }.
 */
export async function benchPlan(options) {
  const out = { sizes: [], render: undefined };
  for (const services of options.sizes) {
    const world = writeWorld(scratchDir(`plan-${services}`), services);
    const loaded = await loadConfig([world.config]);
    if (!loaded.ok) throw new Error(`generated config invalid: ${loaded.errors[0]?.message}`);
    const lock = await readLockfile(world.lockfile, PROJECT_ID);
    const paths = { dir: shown(world.dir), config: shown(world.config), oneField: shown(world.oneField), lockfile: shown(world.lockfile), state: shown(world.state) };
    const entry = { services, replicaSets: world.replicaSets, vpcs: world.vpcs, peerings: world.peerings, paths, byLatency: [] };
    for (const latencyMs of options.latencies) {
      options.log(`plan: ${services} services, latency ${latencyMs} ms`);
      const emulator = await startWorldEmulator(world, { latencyMs });
      try {
        const cli = await measureCli(world, emulator, options.cliRuns(services));
        const naive = services <= options.naiveUpTo;
        const readers = await measureReaders(emulator, { naive, desired: loaded.value, lock, runs: options.readerRuns });
        entry.byLatency.push({ latencyMs, cli: { ...cli, stdout: undefined }, ...readers });
        if (latencyMs === 0) {
          entry.work = await measureWork(world, await dumpLive(world, emulator), options.workRuns(services));
          if (services === options.renderSize) out.render = { services, ...(await measureRender(world, emulator, cli.stdout)) };
        }
      } finally {
        await emulator.close();
      }
    }
    if (services <= options.tigerUpTo) {
      options.log(`plan: ${services} services, tiger dialect`);
      entry.tiger = await measureTiger(world);
    }
    out.sizes.push(entry);
  }
  return out;
}
