#!/usr/bin/env node
// `npm run bench [-- --quick] [-- --only plan,apply,scale,startup,state,policy] [-- --no-write]`: measures every
// SPEC section 8 target against the emulator on loopback (see BENCHMARKS.md for the method),
// prints the tables, and (full run of every family) rewrites the generated part of BENCHMARKS.md.
// `--from FILE` measures nothing: it renders the figures a run saved (bench/out/results-*.json).
// Exits 1 only when the bench itself fails; a missed target is a MISS line, not a failure.
import { readFileSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { benchApply } from './apply.js';
import { benchApplyScale } from './apply-scale.js';
import { baselineBuild, ENGINE_BASELINE_REF } from './baseline.js';
import { machine, REPO } from './measure.js';
import { benchPlan } from './plan.js';
import { benchPlanScale } from './plan-scale.js';
import { benchPolicy } from './policy.js';
import { renderReport, spliceReport } from './report.js';
import { benchStartup } from './startup.js';
import { benchState } from './state.js';

const FAMILIES = ['plan', 'apply', 'scale', 'startup', 'state', 'policy'];

class UsageError extends Error {}

/** Sizes, runs and time scales per mode. Quick: a smoke check in well under a minute. */
const MODES = {
  full: {
    plan: { sizes: [10, 100, 1000, 5000], latencies: [0, 50], cliRuns: (s) => (s >= 5000 ? 3 : 5), readerRuns: 3, workRuns: (s) => (s >= 5000 ? 3 : 5), naiveUpTo: Infinity, renderSize: 1000, tigerUpTo: Infinity },
    planScale: { sizes: [1000, 10000, 20000], runs: () => 3, cliAt: 10000, baseline: true },
    apply: { width: 100, parallelism: 10, timeScale: 0.2, pollMs: 20, runs: 3, chains: ['chain', 'chain-attach', 'deep'], defaultPoll: { timeScale: 1 }, cli: { timeScale: 1, deep: true } },
    scale: { bytes: { sizes: [10, 10000], timeScale: 0.2, pollMs: 20 }, creates: { count: 2000, compressed: { timeScale: 0.02, pollMs: 20 } } },
    startup: {
      runs: 7,
      services: 1000,
      baseline: true,
      errors: { sizes: [10000, 20000], allInvalid: 10000, runs: 3, baselineRuns: 1, baselineTimeoutMs: 180_000 },
      readers: { services: 10000, runs: 3 },
    },
    state: { width: 100, timeScale: 0.2, pollMs: 20, runs: 3 },
    policy: { runs: 7 },
  },
  quick: {
    plan: { sizes: [10, 1000], latencies: [0, 50], cliRuns: () => 1, readerRuns: 1, workRuns: () => 1, naiveUpTo: 100, renderSize: 1000, tigerUpTo: Infinity },
    planScale: { sizes: [1000, 2000], runs: () => 1, cliAt: 2000, baseline: false },
    apply: { width: 20, parallelism: 10, timeScale: 0.1, pollMs: 10, runs: 1, chains: ['deep'], defaultPoll: { timeScale: 0.2 }, cli: { timeScale: 1, deep: false } },
    scale: { bytes: { sizes: [10, 1000], timeScale: 0.1, pollMs: 10 }, creates: { count: 200, compressed: { timeScale: 0.02, pollMs: 20 } } },
    startup: {
      runs: 3,
      services: 1000,
      baseline: false,
      errors: { sizes: [1000, 2000], allInvalid: 1000, runs: 1, baselineRuns: 0, baselineTimeoutMs: 60_000 },
      readers: { services: 1000, runs: 1 },
    },
    state: { width: 100, timeScale: 0.1, pollMs: 10, runs: 1 },
    policy: { runs: 2 },
  },
};

function parseArgs(argv) {
  const args = { quick: false, write: true, only: FAMILIES, from: undefined, noBaseline: false };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--quick') args.quick = true;
    else if (a === '--no-write') args.write = false;
    else if (a === '--no-baseline') args.noBaseline = true;
    else if (a === '--from') args.from = argv[++i];
    else if (a === '--only') args.only = (argv[++i] ?? '').split(',').filter(Boolean);
    else if (a.startsWith('--only=')) args.only = a.slice('--only='.length).split(',').filter(Boolean);
    else throw new UsageError(`unknown option ${a} (use --quick, --only plan,apply,scale,startup,state,policy, --no-write, --no-baseline, --from RESULTS.json)`);
  }
  const unknown = args.only.filter((f) => !FAMILIES.includes(f));
  if (unknown.length > 0 || args.only.length === 0) throw new UsageError(`--only takes a list of ${FAMILIES.join(', ')}`);
  return args;
}

const log = (line) => process.stderr.write(`[bench ${new Date().toISOString().slice(11, 19)}] ${line}\n`);

async function measure(args) {
  const mode = args.quick ? 'quick' : 'full';
  const settings = MODES[mode];
  const started = performance.now();
  const results = {
    mode,
    families: args.only,
    command: `npm run bench${args.quick ? ' -- --quick' : ''}${args.only.length < FAMILIES.length ? ` -- --only ${args.only.join(',')}` : ''}`,
    startedAt: new Date().toISOString().replace(/\.\d+Z$/, 'Z'),
    machine: machine(),
  };
  log(`${mode} run; load average ${results.machine.loadAvg.join(', ')} on ${results.machine.cores} cores`);
  if (args.only.includes('plan')) {
    results.plan = await benchPlan({ ...settings.plan, log });
    results.plan.scale = await benchPlanScale({ ...settings.planScale, baseline: settings.planScale.baseline && !args.noBaseline, log });
  }
  // The before-turn-2 rows of apply and scale run the engine of main before issue 17 (bench/baseline.js).
  const engineBaseline = () => (args.noBaseline ? { skipped: 'not in this run (--no-baseline)' } : baselineBuild(log, ENGINE_BASELINE_REF));
  if (args.only.includes('apply')) results.apply = await benchApply({ ...settings.apply, baseline: engineBaseline(), log });
  if (args.only.includes('scale')) results.scale = await benchApplyScale({ ...settings.scale, baseline: engineBaseline(), log });
  if (args.only.includes('startup')) {
    const base = settings.startup.baseline && !args.noBaseline ? baselineBuild(log) : { skipped: 'not in this mode' };
    results.startup = await benchStartup({ ...settings.startup, base, log });
  }
  if (args.only.includes('state')) results.state = await benchState({ ...settings.state, log });
  if (args.only.includes('policy')) results.policy = await benchPolicy({ ...settings.policy, log });
  results.durationMs = performance.now() - started;
  results.loadAvgEnd = loadavg().map((x) => Math.round(x * 100) / 100);
  writeFileSync(join(REPO, 'bench', 'out', `results-${mode}.json`), `${JSON.stringify(results, null, 2)}\n`);
  return results;
}

async function main() {
  const args = parseArgs(process.argv.slice(2));
  const results = args.from ? JSON.parse(readFileSync(args.from, 'utf8')) : await measure(args);
  const { markdown, verdicts } = renderReport(results);
  process.stdout.write(markdown);
  const complete = results.mode === 'full' && (results.families ?? FAMILIES).length === FAMILIES.length;
  if (args.write && complete) {
    const path = join(REPO, 'BENCHMARKS.md');
    writeFileSync(path, spliceReport(readFileSync(path, 'utf8'), markdown));
    log('wrote the results into BENCHMARKS.md');
  } else {
    log('BENCHMARKS.md left unchanged (only a full run of every family rewrites it)');
  }
  for (const v of verdicts) process.stderr.write(`${v.pass ? 'PASS' : 'MISS'} ${v.target}: ${v.measured}\n`);
  const missed = verdicts.filter((v) => !v.pass).length;
  log(`${verdicts.length - missed} of ${verdicts.length} target rows pass; ${missed} MISS; measuring took ${(results.durationMs / 1000).toFixed(0)} s`);
}

main().catch((err) => {
  if (err instanceof UsageError) {
    process.stderr.write(`bench: ${err.message}\n`);
    process.exit(2);
  }
  process.stderr.write(`bench failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
  process.exit(1);
});
