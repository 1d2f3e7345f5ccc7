// One chaos run: a 30-action apply killed with SIGKILL at a seeded random moment, then re-applied
// until it succeeds; what is left must have no duplicate, every live ID in the lockfile, and an
// empty next plan.
//
// The moment is the arrival of the apply's k-th mutating request at the emulator (k seeded), seen
// by the emulator's clock, which it reads while handling a request: the kill is sent right there,
// before that request is answered. So every kill lands mid-apply (the apply cannot have printed its
// summary while a request of it is unanswered), at a depth set by the seed, not by how fast the
// machine is.
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { expect } from 'vitest';
import { startTestEmulator } from '../support/dialect.js';
import type { Fault } from '../../src/emulator/faults.js';
import { parseLockfileJson } from '../../src/model/index.js';
import { duplicates, nextPlan, runCli, spawnCli, thirtyActionConfig, unboundIds, workspace, type CliResult } from '../e2e/apply/cli-harness.js';

export interface ChaosFaults {
  faultRate?: number;
  throttleRate?: number;
  lostResponseRate?: number;
}

/** mulberry32: a small seeded PRNG so each run's kill moment replays exactly. */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export interface ChaosOutcome {
  /** The kill came when the k-th mutating request of the apply reached the emulator. */
  killedAtMutation: number;
  /** True when SIGKILL ended the first apply before it printed its summary: it landed mid-apply. */
  killedMidApply: boolean;
  reapplies: number;
  /** Lockfile entries the killed apply had written: how far it got. */
  entriesAtKill: number;
  /** IDs the apply had reported done before the kill (each must be in the lockfile it left). */
  doneAtKill: number;
  /** Faults the emulator had injected when the first apply was killed (its planning included). */
  faultsAtKill: Record<Fault, number>;
}

const SUMMARY = /^Apply (complete|finished with errors|interrupted|blocked)/m;
const MUTATING = /^(POST|PUT|PATCH|DELETE) /;
/** The mutating requests of the 30-action apply without faults: one per action. */
export const APPLY_MUTATIONS = 30;

/** The lockfile as the killed apply left it: absent, or whole and valid (written atomically). */
function lockfileIds(path: string): string[] {
  if (!existsSync(path)) return [];
  const parsed = parseLockfileJson(JSON.parse(readFileSync(path, 'utf8')));
  if (!parsed.ok) throw new Error(`the killed apply left an invalid lockfile: ${parsed.errors.join('; ')}`);
  return Object.values(parsed.value.resources).map((e) => e.id);
}

/** The emulator's time scale; the CLI is told it, so its retry backoff runs at the same pace. */
const TIME_SCALE = 0.03;

export async function chaosRun(seed: number, faults: ChaosFaults, options: { maxReapplies: number }): Promise<ChaosOutcome> {
  // Called by the emulator for every request it answers (and never before the kill is armed).
  let onRequest: (() => void) | undefined;
  const emulator = await startTestEmulator({
    timeScale: TIME_SCALE,
    faultSeed: seed,
    ...faults,
    now: () => {
      onRequest?.();
      return Date.now();
    },
  });
  const ws = workspace(thirtyActionConfig(), emulator.url, { DBFORM_EMULATOR_TIME_SCALE: String(TIME_SCALE) });
  try {
    const killedAtMutation = 1 + Math.floor(seededRandom(seed)() * APPLY_MUTATIONS);
    const mutations = () => Object.entries(emulator.stats().requests).reduce((n, [k, c]) => n + (MUTATING.test(k) ? c : 0), 0);
    const first = spawnCli(ws, ['apply', '--auto-approve']);
    let seen = '';
    first.child.stdout!.on('data', (d) => (seen += d));
    let summaryAtKill = true;
    let doneIds: string[] = [];
    let faultsAtKill = emulator.faultsInjected();
    onRequest = () => {
      if (mutations() < killedAtMutation) return;
      onRequest = undefined;
      summaryAtKill = SUMMARY.test(seen);
      doneIds = [...seen.matchAll(/ done \(id (\S+?)[,)]/g)].map((m) => m[1]!);
      faultsAtKill = emulator.faultsInjected();
      first.child.kill('SIGKILL');
    };
    const firstResult = await first.done;
    onRequest = undefined;
    // Whole and valid, and holding every ID the apply said was done (it records before it says so).
    const idsAtKill = lockfileIds(ws.lockfile);
    for (const id of doneIds) expect(idsAtKill, `seed ${seed}: an ID reported done before the kill is not in the lockfile`).toContain(id);

    let last: CliResult | undefined;
    let reapplies = 0;
    while (reapplies < options.maxReapplies) {
      reapplies++;
      last = await runCli(ws, ['apply', '--auto-approve']);
      if (last.code === 0) break;
    }
    expect(last?.code, `seed ${seed}: no re-apply succeeded; last stderr:\n${last?.stderr}`).toBe(0);

    emulator.setFaults({ faultRate: 0, throttleRate: 0, lostResponseRate: 0 });
    const { plan, live, lock } = await nextPlan(ws, emulator.url);
    expect(duplicates(live), `seed ${seed}: duplicates`).toEqual([]);
    expect(unboundIds(live, lock), `seed ${seed}: live IDs missing from the lockfile`).toEqual([]);
    expect(plan.actions.map((a) => `${a.op} ${a.address}`), `seed ${seed}: next plan`).toEqual([]);
    expect(live.services).toHaveLength(8);
    expect(live.services.flatMap((s) => s.replicaSets)).toHaveLength(6);
    expect(live.vpcs.flatMap((v) => v.peerings ?? [])).toHaveLength(2);
    expect(Object.keys(lock.resources)).toHaveLength(2 + 2 + 8 + 6);
    return { killedAtMutation, killedMidApply: firstResult.signal === 'SIGKILL' && !summaryAtKill, reapplies, entriesAtKill: idsAtKill.length, doneAtKill: doneIds.length, faultsAtKill };
  } finally {
    await emulator.close();
    rmSync(ws.dir, { recursive: true, force: true });
  }
}

/** One line per run, for failure messages: kill moment, whether it landed, entries, re-applies, faults. */
export function describeOutcomes(outcomes: ChaosOutcome[]): string {
  return outcomes
    .map((o) => {
      const faults = Object.entries(o.faultsAtKill).map(([k, n]) => `${k}=${n}`).join(' ');
      return `kill@mutation ${o.killedAtMutation} ${o.killedMidApply ? 'mid-apply' : 'NOT mid-apply'} done=${o.doneAtKill} entries=${o.entriesAtKill} reapplies=${o.reapplies} faults: ${faults}`;
    })
    .join('\n');
}
