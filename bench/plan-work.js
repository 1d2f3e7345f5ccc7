// Child process of bench/plan.js and bench/policy.js: the planning work of `dbform plan` without
// the network, on the live state the API answered (saved beforehand as the raw JSON bodies):
//   node bench/plan-work.js CONFIG LOCKFILE LIVE.json [--policy FILE]... [--now RFC3339]
// Loads the modules `dbform plan` loads, then times: config load + validation, lockfile read,
// decoding the API bodies (JSON.parse + mapping, as fetchLiveState does), planChanges, and the
// text rendering. With --policy, also the policy engine as plan will call it (src/policy/index.ts):
// loading its modules and compiling the files (policyLoad), and mapping the plan, evaluating every
// rule and marking the plan (policyEval); the plan rendered is then the marked one. Prints one
// JSON line: phase times, the process's age at the end (node start-up and module loading
// included), its peak RSS and the plan's size.
import { readFile } from 'node:fs/promises';

const [configPath, lockPath, livePath, ...rest] = process.argv.slice(2);
if (!livePath) {
  process.stderr.write('usage: node bench/plan-work.js CONFIG LOCKFILE LIVE.json [--policy FILE]... [--now RFC3339]\n');
  process.exit(2);
}
const policyFiles = [];
let now = new Date();
for (let i = 0; i < rest.length; i++) {
  if (rest[i] === '--policy') policyFiles.push(rest[++i]);
  else if (rest[i] === '--now') now = new Date(rest[++i]);
  else {
    process.stderr.write(`plan-work: unknown argument ${rest[i]}\n`);
    process.exit(2);
  }
}

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
let plan = await timed('planChanges', () => mods.planner.planChanges(desired, live, lock, { replace: [], target: [], allowDataLoss: false }));
let verdicts;
if (policyFiles.length > 0) {
  const { policy, set } = await timed('policyLoad', async () => {
    const policy = await import('../dist/policy/index.js');
    const loaded = await policy.loadPolicyFiles(policyFiles);
    if (!loaded.ok) throw new Error(`policy files invalid: ${loaded.errors[0]?.message}`);
    return { policy, set: loaded.value };
  });
  plan = await timed('policyEval', () => {
    const input = policy.policyInputFromPlan(plan, { workspace: 'default', now, resourceOf: policy.resourcesFromStates(desired, live) });
    const result = policy.evaluatePolicies(set, input);
    verdicts = { rules: set.rules.length, actions: input.actions.length, denies: result.denies, warns: result.warns };
    return policy.markPolicyBlocks(plan, result);
  });
}
const text = await timed('render', () => mods.render.renderPlanText(plan, { color: false }));

const workMs = phases.loadConfig + phases.readLockfile + phases.decodeLive + phases.planChanges + (phases.policyLoad ?? 0) + (phases.policyEval ?? 0) + phases.render;
process.stdout.write(
  `${JSON.stringify({
    phases,
    workMs,
    processMs: performance.now(),
    maxRssKb: process.resourceUsage().maxRSS,
    actions: plan.actions.length,
    ...(verdicts ? { verdicts } : {}),
    errors: plan.diagnostics.filter((d) => d.severity === 'error').length,
    outputLines: text.split('\n').length - 1,
  })}\n`,
);
