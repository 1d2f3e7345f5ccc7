// Plan at scale (SPEC section 8, raised in turn 2): the planning work without the network
// (bench/plan-work.js, pinned to one core) at 1,000, 10,000 and 20,000 services (two replica sets
// each), its peak memory and CPU time, and `dbform plan` end to end at 10,000; each measured with
// the current build and with the baseline's (bench/baseline.js), in the same run on the same files.
import { join } from 'node:path';
import { baselineBuild } from './baseline.js';
import { CLI, expectExit, median, run } from './measure.js';
import { dumpLive, resetStats, scratchDir, shown, startWorldEmulator, TOKEN, writeWorld } from './world.js';

async function workRuns(root, world, livePath, runs) {
  const results = [];
  for (let i = 0; i < runs; i++) {
    const r = expectExit(await run(process.execPath, [join(root, 'bench', 'plan-work.js'), world.config, world.lockfile, livePath], { pin: true }), [0], 'bench/plan-work.js');
    const out = JSON.parse(r.stdout);
    if (out.actions !== 0 || out.errors !== 0) throw new Error(`plan-work planned ${out.actions} action(s), ${out.errors} error(s); expected a no-change plan`);
    results.push({ wallMs: r.wallMs, cpuMs: r.cpuMs, maxRssKb: r.maxRssKb ?? out.maxRssKb, workMs: out.workMs, phases: out.phases });
  }
  const phases = {};
  for (const key of Object.keys(results[0].phases)) phases[key] = median(results.map((r) => r.phases[key]));
  return {
    runs,
    wallMs: median(results.map((r) => r.wallMs)),
    cpuMs: median(results.map((r) => r.cpuMs)),
    workMs: median(results.map((r) => r.workMs)),
    maxRssKb: Math.max(...results.map((r) => r.maxRssKb)),
    phases,
  };
}

async function cliPlan(cli, world, emulator) {
  await resetStats(emulator);
  const r = expectExit(await run(process.execPath, [cli, 'plan', '-f', world.config, '--api-url', emulator.url, '--detailed-exitcode'], { env: { DBFORM_API_KEY: TOKEN } }), [0], `dbform plan (${cli})`);
  return { wallMs: r.wallMs, cpuMs: r.cpuMs, maxRssKb: r.maxRssKb };
}

/** options: { sizes, runs(size), cliAt, baseline: boolean, log } */
export async function benchPlanScale(options) {
  const base = options.baseline ? baselineBuild(options.log) : { skipped: 'not in this mode' };
  const out = { baseline: base.skipped ? { skipped: base.skipped } : { ref: base.ref }, sizes: [] };
  for (const services of options.sizes) {
    const world = writeWorld(scratchDir(`plan-scale-${services}`), services);
    const emulator = await startWorldEmulator(world);
    try {
      const livePath = await dumpLive(world, emulator);
      const runs = options.runs(services);
      options.log(`plan scale: ${services} services, planning work (${runs} runs, and the baseline's)`);
      const entry = { services, replicaSets: world.replicaSets, config: shown(world.config), lockfile: shown(world.lockfile), live: shown(livePath) };
      entry.now = await workRuns('.', world, livePath, runs);
      if (base.dir) entry.before = await workRuns(base.dir, world, livePath, runs);
      if (services === options.cliAt) {
        options.log(`plan scale: dbform plan of ${services} services end to end`);
        entry.cli = { now: await cliPlan(CLI, world, emulator) };
        if (base.dir) entry.cli.before = await cliPlan(join(base.dir, 'bin', 'dbform.js'), world, emulator);
      }
      out.sizes.push(entry);
    } finally {
      await emulator.close();
    }
  }
  return out;
}
