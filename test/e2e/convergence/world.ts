// One seed of the convergence property: a random config applied to an in-process emulator (time
// scale 0) through the functions the CLI runs (loader, live-state reader, planner, engine, real
// client over HTTP), then rounds of random edits and out-of-band drift, each followed by an apply
// and the checks of checks.ts. Any failure names the seed, the round, the config and the history.
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ApiClient, fetchLiveState } from '../../../src/api/index.js';
import { StatusPoller } from '../../../src/api/waiters.js';
import { thisProcess } from '../../../src/cli/local-process.js';
import { planExitCode } from '../../../src/app/plan.js';
import { loadConfig } from '../../../src/config/index.js';
import { startTestEmulator, testClient } from '../../support/dialect.js';
import { applyPlan } from '../../../src/executor/apply-plan.js';
import { WorkingState } from '../../../src/state/working-state.js';
import { readLockfile } from '../../../src/lockfile/index.js';
import type { DesiredState, Plan } from '../../../src/model/index.js';
import { planChanges, type PlanOptions } from '../../../src/planner/index.js';
import { findCreatesOverLiveNames, findViolations } from './checks.js';
import { driftRandomly, type DriftMemory } from './drift.js';
import { editConfig, passwordEnv, PROJECT, randomConfig, renderYaml, Rng, type Cfg } from './generate.js';

export interface SeedOptions {
  rounds: number;
  /** Whether rounds drift the live state out of band (besides editing the config). */
  drift: boolean;
}

export class ConvergenceError extends Error {}

export async function runSeed(seed: number, options: SeedOptions): Promise<{ actions: number; ops: Map<string, number>; history: string[] }> {
  const rng = new Rng(seed);
  const emulator = await startTestEmulator({ timeScale: 0 });
  const client = testClient(emulator.url, { retry: { baseDelayMs: 1, maxDelayMs: 5 } });
  const dir = mkdtempSync(join(scratchRoot(), 'dbform-convergence-'));
  const paths = { config: join(dir, 'dbform.yaml'), lock: join(dir, 'dbform.lock.json'), pgpass: join(dir, 'pgpass') };
  const memory: DriftMemory = { lookAlikes: new Map(), lookAlikeNames: new Set(), log: [] };
  const history: string[] = [];
  let cfg: Cfg = randomConfig(rng);
  let actions = 0;
  const ops = new Map<string, number>();
  const fail = (round: number, message: string): never => {
    throw new ConvergenceError(
      `seed ${seed}, round ${round}: ${message}\n` +
        `reproduce: DBFORM_CONVERGENCE_SEEDS=${seed} npx vitest run test/e2e/convergence\n` +
        `history:\n  ${history.join('\n  ')}\nconfig (${paths.config}):\n${renderYaml(cfg)}`,
    );
  };
  try {
    for (let round = 0; round <= options.rounds; round++) {
      if (round > 0) {
        const lock = await readLockfile(paths.lock, PROJECT);
        if (options.drift && rng.chance(0.7)) {
          const live = await fetchLiveState(client, PROJECT);
          for (const what of await driftRandomly(rng, client, live, lock, memory)) history.push(`round ${round} drift: ${what}`);
        }
        const names = new Set([...memory.lookAlikeNames].map((k) => k.slice(k.lastIndexOf('/') + 1)));
        for (let i = rng.int(3); i >= 0; i--) {
          const next = editConfig(rng, cfg, names);
          cfg = next.cfg;
          history.push(`round ${round} edit: ${next.edit}`);
        }
      }
      writeFileSync(paths.config, renderYaml(cfg));
      const env = passwordEnv(cfg);
      const desired = await loadDesired(paths.config, env, (m) => fail(round, m));
      const plan = await planLikeAUser(client, desired, paths.lock, (m) => fail(round, m));
      history.push(`round ${round} apply: ${plan.actions.map((a) => `${a.op} ${a.address}`).join(', ') || 'nothing'}${plan.bindings.length ? `; bindings ${plan.bindings.map((b) => `${b.kind} ${b.address}`).join(', ')}` : ''}`);
      actions += plan.actions.length;
      for (const a of plan.actions) ops.set(a.op, (ops.get(a.op) ?? 0) + 1);
      await applyLikeTheCli(client, plan, paths, env, (m) => fail(round, m));
      forgetAdoptedLookAlikes(memory, plan);
      await checkConverged(client, desired, cfg, paths, env, memory, (m) => fail(round, m));
    }
  } finally {
    await client.close();
    await emulator.close();
  }
  // Kept on failure, for a look at the lockfile and pgpass the message names.
  rmSync(dir, { recursive: true, force: true });
  return { actions, ops, history };
}

/**
 * A look-alike that the plan adopted (SPEC section 2: the one live resource with the name of a
 * gone lockfile ID) is managed from then on: a later removal from the config deletes it.
 */
function forgetAdoptedLookAlikes(memory: DriftMemory, plan: Plan): void {
  for (const b of plan.bindings) if (b.kind === 'adopt' && b.id !== undefined) memory.lookAlikes.delete(b.id);
}

async function loadDesired(file: string, env: Record<string, string>, fail: (m: string) => never): Promise<DesiredState> {
  const loaded = await loadConfig([file], { env });
  if (!loaded.ok) fail(`the generated config is invalid (a generator bug): ${loaded.errors.map((e) => e.message).join('; ')}`);
  return (loaded as { value: DesiredState }).value;
}

/**
 * As a user would: `--allow-data-loss`, plus `--replace` for each service the plan says needs it
 * (a new name, where the API cannot rename services in place: the seed dialect). Planned as the
 * CLI plans, asking the API what it can do when a name changes (SPEC section 15).
 */
async function planLikeAUser(client: ApiClient, desired: DesiredState, lockPath: string, fail: (m: string) => never): Promise<Plan> {
  const live = await fetchLiveState(client, PROJECT);
  const lock = await readLockfile(lockPath, PROJECT);
  let plan = await planWithApi(client, desired, live, lock, { replace: [], target: [], allowDataLoss: true });
  const replace = plan.diagnostics.filter((d) => d.code === 'replace-required').map((d) => d.address!);
  if (replace.length > 0) plan = await planWithApi(client, desired, live, lock, { replace, target: [], allowDataLoss: true });
  const errors = plan.diagnostics.filter((d) => d.severity === 'error');
  if (errors.length > 0) fail(`plan errors: ${errors.map((d) => `${d.address ?? ''} ${d.message}`).join('; ')}`);
  const duplicating = findCreatesOverLiveNames(plan, desired, live, lock);
  if (duplicating.length > 0) fail(`the plan would make duplicates:\n  ${duplicating.join('\n  ')}`);
  return plan;
}

async function applyLikeTheCli(client: ApiClient, plan: Plan, paths: { lock: string; pgpass: string }, env: Record<string, string>, fail: (m: string) => never): Promise<void> {
  const lock = await readLockfile(paths.lock, PROJECT);
  const poller = new StatusPoller(client, { projectId: PROJECT, pollMs: 2 });
  try {
    const result = await applyPlan(plan, { api: client, poller, bindings: new WorkingState(paths.lock, lock), pgpass: { path: paths.pgpass, owner: thisProcess() }, env, pollMs: 2, timeoutMs: 20_000 });
    const problems = [
      ...result.failed.map((f) => `failed: ${f.message}`),
      ...result.skipped.map((s) => `skipped: ${s.action.op} ${s.action.address} (${s.reason})`),
      ...result.blocked.map((b) => `blocked: ${b.op} ${b.address}: ${b.blocked}`),
    ];
    if (problems.length > 0) fail(`the apply did not succeed:\n  ${problems.join('\n  ')}`);
  } finally {
    poller.close();
  }
}

async function checkConverged(
  client: ApiClient,
  desired: DesiredState,
  cfg: Cfg,
  paths: { lock: string; pgpass: string },
  env: Record<string, string>,
  memory: DriftMemory,
  fail: (m: string) => never,
): Promise<void> {
  const live = await fetchLiveState(client, PROJECT);
  const lock = await readLockfile(paths.lock, PROJECT);
  const pgpass = await readText(paths.pgpass);
  const violations = findViolations({ desired, cfg, live, lock, lookAlikes: memory.lookAlikes, pgpass, env });
  const next = await planWithApi(client, desired, live, lock, { replace: [], target: [], allowDataLoss: false });
  if (planExitCode(next, true) !== 0) {
    const listed = [...next.actions.map((a) => `${a.op} ${a.address} ${JSON.stringify(a.changes.map((c) => [c.path, c.before, c.after]))}`), ...next.bindings.map((b) => `${b.kind} ${b.address}`)];
    violations.push(`the next plan is not empty (plan --detailed-exitcode would exit ${planExitCode(next, true)}): ${[...listed, ...next.diagnostics.map((d) => d.message)].join('; ')}`);
  }
  if (violations.length > 0) fail(violations.join('\n'));
}

/**
 * Every lockfile and pgpass write is fsynced; on a loaded disk that, not dbform, would dominate the
 * run. A memory file system (where there is one) keeps the files real and the syncs free; the
 * durability of those writes is tested elsewhere (the kill -9 tests).
 */
function scratchRoot(): string {
  return existsSync('/dev/shm') ? '/dev/shm' : tmpdir();
}

async function readText(path: string): Promise<string> {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return '';
  }
}

/** As dbform plans: where the plan needs to know whether the API renames in place, it asks the API. */
async function planWithApi(client: ApiClient, desired: DesiredState, live: Awaited<ReturnType<typeof fetchLiveState>>, lock: Parameters<typeof planChanges>[2], options: Omit<PlanOptions, 'now'>): Promise<Plan> {
  const plan = planChanges(desired, live, lock, options);
  return plan.needs === undefined ? plan : planChanges(desired, live, lock, { ...options, api: await client.capabilities() });
}
