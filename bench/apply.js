// Apply benchmarks (SPEC section 8): wall time of wide and deep plans against the critical path of
// their waits, and the poll requests waiting costs; the same plans applied naively (one operation
// at a time, a GET per waiting resource per tick) as the reference, and as dbform applied them
// before turn 2 (the baseline build's engine, bench/baseline.js; skipped without one). Engine rows
// run the engine in this process, wired as
// `dbform apply` wires it, with the timer around the plan's execution only; CLI rows time
// `dbform apply --auto-approve` as a whole, at every default. The emulator runs in its own process.
// The scale rows (2,000 creates, waiting in a 10,000-service project) are in apply-scale.js.
import { cliApply, engineApply, medianOf, onFreshEmulator, project } from './engine.js';
import { chainConfig, Fleet, startEmptyEmulator } from './world.js';

/** A before-turn-2 row: the baseline build's engine runs it, or it is skipped with why. */
export async function withBaseline(base, run) {
  return base.dir ? run({ dir: base.dir }) : { skipped: base.skipped };
}

async function wideScenarios(o, base, log) {
  const emulator = await startEmptyEmulator({ timeScale: o.timeScale });
  try {
    const proj = project(emulator, 'apply-wide');
    const fleet = new Fleet(o.width);
    const settings = { pollMs: o.pollMs, timeScale: o.timeScale, parallelism: o.parallelism };
    log(`apply: creating ${o.width} services (setup)`);
    await engineApply(proj, fleet.config(), { ...settings, parallelism: o.width });
    log('apply: one resize');
    const one = await medianOf(o.runs, () => engineApply(proj, fleet.resize(1), settings));
    log(`apply: ${o.width} resizes at parallelism ${o.parallelism}`);
    const wide = await medianOf(o.runs, () => engineApply(proj, fleet.resize(o.width), settings));
    log(`apply: ${o.width} resizes at parallelism ${o.parallelism}, before turn 2 (waits holding their slots)`);
    const wideBefore = await withBaseline(base, (before) => engineApply(proj, fleet.resize(o.width), { ...settings, before }));
    log(`apply: ${o.width} resizes, naive (parallelism 1, per-resource polling)`);
    const naive = await engineApply(proj, fleet.resize(o.width), { ...settings, parallelism: 1, strategy: 'naive' });
    // Poll requests of waits that run at once: every resize sent together (parallelism = width).
    const together = { ...settings, parallelism: o.width };
    log(`apply: ${o.width} resizes sent together (parallelism ${o.width}), poll requests`);
    const concurrent = await engineApply(proj, fleet.resize(o.width), together);
    log(`apply: ${o.width} resizes, per-resource polling at parallelism ${o.width}`);
    const perResource = await engineApply(proj, fleet.resize(o.width), { ...together, strategy: 'naive' });
    log(`apply: ${o.width} resizes and one resize, before turn 2 (one services list per tick)`);
    const listsOnly = await withBaseline(base, (before) => engineApply(proj, fleet.resize(o.width), { ...together, before }));
    const oneListsOnly = await withBaseline(base, (before) => engineApply(proj, fleet.resize(1), { ...together, before }));
    return { one, wide, wideBefore, naive, concurrent, perResource, listsOnly, oneListsOnly };
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
  const settings = { pollMs: o.pollMs, timeScale: o.timeScale, parallelism: o.parallelism };
  for (const name of o.chains) {
    log(`apply: ${name}`);
    const engine = await medianOf(o.runs, () => onFreshEmulator(`apply-${name}`, o.timeScale, (p) => engineApply(p, CHAINS[name](), settings)));
    const naive = await onFreshEmulator(`apply-${name}-naive`, o.timeScale, (p) => engineApply(p, CHAINS[name](), { ...settings, parallelism: 1, strategy: 'naive' }));
    out[name] = { engine, naive };
  }
  return out;
}

/**
 * The deep chain at the SPEC's durations (time scale 1) and the default DBFORM_POLL_MS (1000), the
 * engine in process: the schedule before turn 2 (first look after 1 s, then x1.5) and the default.
 */
async function defaultPollScenarios(o, base, log) {
  const settings = { pollMs: 1000, timeScale: o.defaultPoll.timeScale, parallelism: o.parallelism };
  log('apply: deep chain at the default poll, before turn 2 (the x1.5 schedule)');
  const before = await withBaseline(base, (b) => onFreshEmulator('apply-deep-default-before', settings.timeScale, (p) => engineApply(p, CHAINS.deep(), { ...settings, before: b })));
  log('apply: deep chain at the default poll');
  const now = await onFreshEmulator('apply-deep-default', settings.timeScale, (p) => engineApply(p, CHAINS.deep(), settings));
  return { before, now };
}

/** `dbform apply` end to end at the SPEC's durations and every default: one resize, all resizes, the deep chain. */
async function cliScenarios(o, log) {
  const settings = { timeScale: o.cli.timeScale };
  const out = await onFreshEmulator('apply-cli', settings.timeScale, async (proj) => {
    const fleet = new Fleet(o.width);
    log(`apply CLI: creating ${o.width} services (setup)`);
    await engineApply(proj, fleet.config(), { ...settings, pollMs: 100, parallelism: o.width });
    log('apply CLI: one resize');
    const one = await cliApply(proj, fleet.resize(1), settings);
    log(`apply CLI: ${o.width} resizes`);
    const wide = await cliApply(proj, fleet.resize(o.width), settings);
    return { one, wide };
  });
  if (o.cli.deep) {
    log('apply CLI: deep chain');
    out.deep = await onFreshEmulator('apply-cli-deep', settings.timeScale, (proj) => cliApply(proj, CHAINS.deep(), settings));
  }
  return out;
}

/**
 * options: { width, parallelism, timeScale, pollMs, runs, chains, defaultPoll: { timeScale }, cli: { timeScale, deep },
 * baseline: bench/baseline.js's { dir } or { skipped }, log }
 */
export async function benchApply(options) {
  const { log, baseline, ...settings } = options;
  return {
    settings,
    ...(await wideScenarios(options, baseline, log)),
    chains: await chainScenarios(options, log),
    defaultPoll: await defaultPollScenarios(options, baseline, log),
    cli: await cliScenarios(options, log),
  };
}
