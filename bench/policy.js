// Policy benchmark (SPEC sections 8 and 16): 10 rules add at most 10% to a plan of 1,000 services.
// bench/plan-work.js (the planning work of `dbform plan` without the network, a new process per
// run, pinned to CPU 0) with and without `--policy`, runs alternating, on the 1,000-service world
// of the plan family: as it is (a no-change plan: the rules cost their loading only) and with
// every service resized (1,000 actions). The rules: the ten of examples/policies (scoped by op,
// risk or workspace, as real rules are, so most actions are decided by their guards), and ten
// that read every action's resource (nothing to skip: each one evaluated for each action).
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expectExit, hasTaskset, median, REPO, run } from './measure.js';
import { dumpLive, scratchDir, shown, startWorldEmulator, writeWorld } from './world.js';


const EXAMPLES = join(REPO, 'examples', 'policies');
/** A Thursday morning: the freeze rule does not hold, so the plan is judged as an ordinary one. */
const NOW = '2026-05-14T08:00:00Z';

/** Ten rules none of which a guard can decide: each reads the resource of every action. */
const EVERY_ACTION = `version: 1
rules:
  - name: prod-size-cap
    deny: has(resource.cpu_millis) && resource.environment == "PROD" && int(resource.cpu_millis) > 64000
    message: m
  - name: ha-cap
    warn: has(resource.ha) && resource.ha.replicas > 2
    message: m
  - name: no-mumbai
    deny: has(resource.region_code) && resource.region_code == "ap-south-1"
    message: m
  - name: long-names
    warn: resource.name.size() > 60
    message: m
  - name: big-resizes
    deny: action.changes.exists(c, c.path == "cpu_millis" && int(c.after) > 32000)
    message: m
  - name: pooled-prod
    warn: has(resource.pooler) && !resource.pooler && resource.environment == "PROD" && action.kind == "service"
    message: m
  - name: paused-prod
    deny: has(resource.paused) && resource.paused && resource.environment == "PROD"
    message: m
  - name: memory-cap
    warn: has(resource.memory_gbs) && int(resource.memory_gbs) > 128
    message: m
  - name: tmp-not-prod
    deny: action.address.startsWith("service.tmp-") && resource.environment == "PROD"
    message: m
  - name: detached-prod
    warn: has(resource.vpc) && resource.vpc == null && resource.environment == "PROD"
    message: m
`;

/** The world's config with every service (not its replica sets) resized 2000/8 -> 4000/16. */
function resizeAll(yaml) {
  const from = '    cpu_millis: 2000\n    memory_gbs: 8\n';
  const count = yaml.split(from).length - 1;
  if (count === 0) throw new Error('resizeAll: no service size found in the generated config');
  return { yaml: yaml.split(from).join('    cpu_millis: 4000\n    memory_gbs: 16\n'), count };
}

async function workOnce(args) {
  const r = expectExit(await run(process.execPath, ['bench/plan-work.js', ...args], { pin: true }), [0], 'bench/plan-work.js');
  return { ...JSON.parse(r.stdout), wallMs: r.wallMs, cpuMs: r.cpuMs };
}

/** `runs` pairs, without then with the policies, alternating so that load drifts hit both alike. */
async function sideBySide(base, policyArgs, runs, expectActions) {
  const without = [];
  const withPolicies = [];
  for (let i = 0; i < runs; i++) {
    without.push(await workOnce(base));
    withPolicies.push(await workOnce([...base, ...policyArgs]));
  }
  for (const r of [...without, ...withPolicies]) {
    if (r.actions !== expectActions || r.errors !== 0) throw new Error(`plan-work planned ${r.actions} action(s), ${r.errors} error(s); expected ${expectActions}`);
  }
  const summary = (list) => ({
    wallMs: median(list.map((r) => r.wallMs)),
    cpuMs: median(list.map((r) => r.cpuMs ?? NaN)),
    workMs: median(list.map((r) => r.workMs)),
    allWallMs: list.map((r) => r.wallMs),
  });
  const phases = {};
  for (const key of ['policyLoad', 'policyEval']) phases[key] = median(withPolicies.map((r) => r.phases[key]));
  return { without: summary(without), with: { ...summary(withPolicies), phases, verdicts: withPolicies[0].verdicts } };
}

/**
 * options: { runs, log }. Returns { rules, files, now, pinned, shapes: [{ name, actions, config, ... }] }.
 */
export async function benchPolicy(options) {
  const world = writeWorld(scratchDir('policy-1000'), 1000);
  const emulator = await startWorldEmulator(world, {});
  let livePath;
  try {
    livePath = await dumpLive(world, emulator);
  } finally {
    await emulator.close();
  }
  const resized = resizeAll(readFileSync(world.config, 'utf8'));
  const resizedConfig = join(world.dir, 'resize-all.yaml');
  writeFileSync(resizedConfig, resized.yaml);
  const examples = readdirSync(EXAMPLES).filter((f) => f.endsWith('.yaml')).sort().map((f) => join(EXAMPLES, f));
  const everyAction = join(world.dir, 'every-action.yaml');
  writeFileSync(everyAction, EVERY_ACTION);
  const ruleSets = [
    { rules: 'examples/policies (10 rules)', files: examples },
    { rules: '10 rules reading every resource', files: [everyAction], reference: true },
  ];
  const shapes = [];
  const plans = [['no-change plan', world.config, 0], ['every service resized', resizedConfig, resized.count]];
  for (const set of ruleSets) {
    for (const [name, config, actions] of plans) {
      options.log(`policy: ${set.rules}, ${name}, ${options.runs} runs each way`);
      const policyArgs = [...set.files.flatMap((f) => ['--policy', shown(f)]), '--now', NOW];
      const base = [config, world.lockfile, livePath];
      const measured = await sideBySide(base, policyArgs, options.runs, actions);
      shapes.push({ name, rules: set.rules, reference: set.reference === true, policyArgs: policyArgs.join(' '), actions, config: shown(config), lockfile: shown(world.lockfile), live: shown(livePath), ...measured });
    }
  }
  return { now: NOW, pinned: hasTaskset, runs: options.runs, shapes };
}
