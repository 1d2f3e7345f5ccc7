// Issue 17 changed how apply waits (the poll schedule, a list or per-resource reads per tick),
// what --parallelism counts (requests, not waits) and when a create's bookkeeping runs; the
// behaviour before stays selectable. Both must do the same thing: for random configs and edits
// (the convergence generator, no drift), two worlds in lockstep, one per behaviour, each with its
// own emulator (durations scaled down, not to zero, so waits really wait), plan the same actions,
// end each apply with the same outcome, and leave the same live state, lockfile and pgpass file,
// IDs aside (each emulator numbers its own resources, in the order they were created).
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { fetchLiveState, type ApiClient } from '../../../src/api/index.js';
import { StatusPoller, type StatusPollerOptions } from '../../../src/api/waiters.js';
import { thisProcess } from '../../../src/cli/local-process.js';
import { loadConfig } from '../../../src/config/index.js';
import type { EmulatorHandle } from '../../../src/emulator/index.js';
import { applyPlan, type ApplyOptions } from '../../../src/executor/apply-plan.js';
import { WorkingState } from '../../../src/state/working-state.js';
import { readLockfile } from '../../../src/lockfile/index.js';
import type { LiveState, Lockfile, Plan } from '../../../src/model/index.js';
import { planChanges } from '../../../src/planner/index.js';
import { startTestEmulator, testClient } from '../../support/dialect.js';
import { tempDir } from '../../support/temp-dir.js';
import { editConfig, passwordEnv, PROJECT, randomConfig, renderYaml, Rng, type Cfg } from '../convergence/generate.js';

interface Behaviour {
  poll: Pick<StatusPollerOptions, 'schedule' | 'reads'>;
  apply: Pick<ApplyOptions, 'waitsHoldSlots' | 'bookkeeping'>;
}

const NOW: Behaviour = { poll: {}, apply: {} };
const BEFORE: Behaviour = { poll: { schedule: 'backoff', reads: 'lists' }, apply: { waitsHoldSlots: true, bookkeeping: 'before-wait' } };

class World {
  /** Every ID this world's emulator has shown, by what it identified (a fork names a parent gone since). */
  private readonly names = new Map<string, string>();

  private constructor(
    readonly behaviour: Behaviour,
    readonly emulator: EmulatorHandle,
    readonly client: ApiClient,
    readonly dir: string,
  ) {}

  static async start(behaviour: Behaviour): Promise<World> {
    // Create 5 s -> 15 ms, resize 3 s -> 9 ms: a few ticks of the 3 ms poll each.
    const emulator = await startTestEmulator({ timeScale: 0.003 });
    return new World(behaviour, emulator, testClient(emulator.url, { retry: { baseDelayMs: 1, maxDelayMs: 5 } }), tempDir('dbform-differential-'));
  }

  get paths() {
    return { config: join(this.dir, 'dbform.yaml'), lock: join(this.dir, 'dbform.lock.json'), pgpass: join(this.dir, 'pgpass') };
  }

  async plan(yaml: string, env: Record<string, string>): Promise<{ plan: Plan; lock: Lockfile }> {
    writeFileSync(this.paths.config, yaml);
    const loaded = await loadConfig([this.paths.config], { env });
    if (!loaded.ok) throw new Error(`the generated config is invalid: ${loaded.errors.map((e) => e.message).join('; ')}`);
    const live = await fetchLiveState(this.client, PROJECT, { peeringsOf: 'all' });
    const lock = await readLockfile(this.paths.lock, PROJECT);
    let plan = planChanges(loaded.value, live, lock, { replace: [], target: [], allowDataLoss: true });
    const replace = plan.diagnostics.filter((d) => d.code === 'replace-required').map((d) => d.address!);
    if (replace.length > 0) plan = planChanges(loaded.value, live, lock, { replace, target: [], allowDataLoss: true });
    return { plan, lock };
  }

  async apply(plan: Plan, lock: Lockfile, env: Record<string, string>, parallelism: number) {
    const poller = new StatusPoller(this.client, { projectId: PROJECT, pollMs: 3, ...this.behaviour.poll });
    try {
      const pgpass = { path: this.paths.pgpass, owner: thisProcess() };
      const store = new WorkingState(this.paths.lock, lock);
      return await applyPlan(plan, { api: this.client, poller, bindings: store, pgpass, env, pollMs: 3, timeoutMs: 20_000, parallelism, ...this.behaviour.apply });
    } finally {
      poller.close();
    }
  }

  /** The live state, lockfile and pgpass file with every ID replaced by the name of what it identifies. */
  async snapshot(): Promise<unknown> {
    const live = await fetchLiveState(this.client, PROJECT, { peeringsOf: 'all' });
    const lock = await readLockfile(this.paths.lock, PROJECT);
    for (const [id, name] of idNames(live)) this.names.set(id, name);
    const pgpass = readText(this.paths.pgpass)
      .split('\n')
      .filter(Boolean)
      // host:port:database:user:password; an initial password is random, a configured one is not.
      .map((line) => line.split(':').slice(0, 4).join(':'));
    // In the order the creates were answered, which timing decides: compared as a set.
    const named = anonymize({ live: normalizeLive(live), lock: lock.resources, pgpass }, this.names) as { pgpass: string[] };
    named.pgpass.sort();
    return named;
  }

  async close(): Promise<void> {
    await this.client.close();
    await this.emulator.close();
  }
}

function readText(path: string): string {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return '';
  }
}

function idNames(live: LiveState): Map<string, string> {
  const names = new Map<string, string>();
  for (const v of live.vpcs) {
    names.set(v.id, `<vpc ${v.name}>`);
    for (const p of v.peerings ?? []) names.set(p.id, `<peering ${v.name}/${p.peerVpcId}>`);
  }
  for (const s of live.services) {
    names.set(s.id, `<service ${s.name}>`);
    for (const r of s.replicaSets) names.set(r.id, `<replica set ${s.name}/${r.name}>`);
  }
  return names;
}

/** Sorted by name, without what differs between two emulators for the same history (times, the random ID of a provisioned peering). */
function normalizeLive(live: LiveState): unknown {
  const byName = <T extends { name: string }>(items: T[]) => [...items].sort((a, b) => a.name.localeCompare(b.name));
  const vpcs = byName(live.vpcs).map((v) => ({ ...v, peerings: [...(v.peerings ?? [])].sort((a, b) => a.peerVpcId.localeCompare(b.peerVpcId)) }));
  const services = byName(live.services).map((s) => ({ ...s, replicaSets: byName(s.replicaSets) }));
  return JSON.parse(JSON.stringify({ vpcs, services }, (key, value: unknown) => (/^(created|createdAt|created_at|updatedAt|provisionedId)$/i.test(key) ? undefined : value)));
}

function anonymize(value: unknown, names: Map<string, string>): unknown {
  const ids = [...names.keys()].sort((a, b) => b.length - a.length);
  const text = JSON.stringify(value, (_key, v: unknown) => (typeof v === 'string' ? ids.reduce((s, id) => s.split(id).join(names.get(id)!), v) : v));
  return JSON.parse(text);
}

const planned = (plan: Plan) => [...plan.actions.map((a) => `${a.op} ${a.address}`), ...plan.bindings.map((b) => `${b.kind} ${b.address}`)].sort();

type ApplyResult = Awaited<ReturnType<typeof applyPlan>>;
const outcome = (r: ApplyResult) => ({
  done: r.done.map((d) => `${d.action.op} ${d.action.address}`).sort(),
  failed: r.failed.map((f) => `${f.action.op} ${f.action.address}`).sort(),
  skipped: r.skipped.map((s) => `${s.action.op} ${s.action.address}`).sort(),
  blocked: r.blocked.map((b) => `${b.op} ${b.address}`).sort(),
});

async function runSeed(seed: number): Promise<number> {
  const rng = new Rng(seed);
  const worlds = [await World.start(NOW), await World.start(BEFORE)];
  let actions = 0;
  try {
    let cfg: Cfg = randomConfig(rng);
    for (let round = 0; round < 3; round++) {
      if (round > 0) for (let i = rng.int(3); i >= 0; i--) cfg = editConfig(rng, cfg, new Set()).cfg;
      const yaml = renderYaml(cfg);
      const env = passwordEnv(cfg);
      const parallelism = 1 + rng.int(6);
      const where = `seed ${seed}, round ${round}, --parallelism ${parallelism}`;
      const plans = await Promise.all(worlds.map((w) => w.plan(yaml, env)));
      expect(planned(plans[1]!.plan), `${where}: the same plan`).toEqual(planned(plans[0]!.plan));
      actions += plans[0]!.plan.actions.length;
      const results = await Promise.all(worlds.map((w, i) => w.apply(plans[i]!.plan, plans[i]!.lock, env, parallelism)));
      expect(outcome(results[0]!).failed, `${where}: the apply succeeds`).toEqual([]);
      expect(outcome(results[1]!), `${where}: the same outcome`).toEqual(outcome(results[0]!));
      const [now, before] = await Promise.all(worlds.map((w) => w.snapshot()));
      expect(before, `${where}: the same live state, lockfile and pgpass file`).toEqual(now);
    }
  } finally {
    await Promise.all(worlds.map((w) => w.close()));
  }
  return actions;
}

describe('apply does the same with the waiting and bookkeeping of before issue 17 (differential)', () => {
  const seeds = Array.from({ length: 24 }, (_, i) => 1700 + i);
  let actions = 0;

  it.each(seeds)('seed %i: same plans, outcomes, live state, lockfile and pgpass file', async (seed) => {
    actions += await runSeed(seed);
  });

  it('made the applies do real work', () => {
    expect(actions).toBeGreaterThan(seeds.length * 8);
  });
});
