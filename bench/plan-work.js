// Child process of bench/plan.js: the planning work of `dbform plan` without the network, on the
// live state the API answered (saved beforehand as the raw JSON bodies):
//   node bench/plan-work.js CONFIG LOCKFILE LIVE.json
// Loads the modules `dbform plan` loads, then times: config load + validation, lockfile read,
// decoding the API bodies (JSON.parse + mapping, as fetchLiveState does), planChanges, and the
// text rendering. Prints one JSON line: phase times, the process's age at the end (node start-up
// and module loading included), its peak RSS and the plan's size.
import { readFile } from 'node:fs/promises';

const [configPath, lockPath, livePath] = process.argv.slice(2);
if (!livePath) {
  process.stderr.write('usage: node bench/plan-work.js CONFIG LOCKFILE LIVE.json\n');
  process.exit(2);
}

// As `dbform plan` does (src/cli/heap-budget.ts, src/cli/plan-pipeline.ts): a large config bounds the
// heap, and the garbage of the config and of the API bodies is collected when each is done.
const { boundHeapForConfig, collectPhaseGarbage } = await import('../dist/cli/heap-budget.js');
const heapBounded = boundHeapForConfig([configPath]);

const phases = {};
const timed = async (name, fn) => {
  const t = performance.now();
  const value = await fn();
  phases[name] = performance.now() - t;
  return value;
};

const mods = await timed('import', async () => {
  const [config, lockfile, mapping, planner, render] = await Promise.all([
    import('../dist/config/index.js'),
    import('../dist/lockfile/index.js'),
    import('../dist/kinds/index.js'),
    import('../dist/planner/index.js'),
    import('../dist/cli/render/index.js'),
  ]);
  return { config, lockfile, mapping, planner, render };
});

const loaded = await timed('loadConfig', () => mods.config.loadConfig([configPath]));
if (!loaded.ok) throw new Error(`config invalid: ${loaded.errors[0]?.message}`);
const desired = loaded.value;
collectPhaseGarbage();
const lock = await timed('readLockfile', () => mods.lockfile.readLockfile(lockPath, desired.projectId));
const live = await timed('decodeLive', async () => {
  const raw = JSON.parse(await readFile(livePath, 'utf8'));
  const vpcs = raw.vpcs.map((dto) => {
    const vpc = mods.mapping.mapLive('vpc', dto);
    vpc.peerings = (raw.peerings[vpc.id] ?? []).map((p) => mods.mapping.mapLive('peering', p, vpc.id));
    return vpc;
  });
  return { projectId: desired.projectId, vpcs, services: raw.services.map((s) => mods.mapping.mapLive('service', s)) };
});
collectPhaseGarbage();
const plan = await timed('planChanges', () => mods.planner.planChanges(desired, live, lock, { replace: [], target: [], allowDataLoss: false }));
const text = await timed('render', () => mods.render.renderPlanText(plan, { color: false }));

const workMs = phases.loadConfig + phases.readLockfile + phases.decodeLive + phases.planChanges + phases.render;
process.stdout.write(
  `${JSON.stringify({
    phases,
    workMs,
    processMs: performance.now(),
    maxRssKb: process.resourceUsage().maxRSS,
    heapBounded,
    actions: plan.actions.length,
    errors: plan.diagnostics.filter((d) => d.severity === 'error').length,
    outputLines: text.split('\n').length - 1,
  })}\n`,
);
