// One chaos run: a 30-action apply killed with SIGKILL at a seeded random moment in it, then
// re-applied until it succeeds; what is left must have no duplicate, every live ID in the
// lockfile, and an empty next plan.
import { readFileSync } from 'node:fs';
import { expect } from 'vitest';
import { startEmulator } from '../../src/emulator/index.js';
import type { Fault } from '../../src/emulator/faults.js';
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
  /** The kill came this many progress lines into the apply, plus `killedAfterMs`. */
  killedAfterLines: number;
  killedAfterMs: number;
  /** True when SIGKILL ended the first apply before it printed its summary: it landed mid-apply. */
  killedMidApply: boolean;
  reapplies: number;
  /** Lockfile entries the killed apply had written: how far it got. */
  entriesAtKill: number;
  /** Faults the emulator had injected when the first apply was killed (its planning included). */
  faultsAtKill: Record<Fault, number>;
}

const SUMMARY = /^Apply (complete|finished with errors|interrupted|blocked)/m;

function countEntries(lockfile: string): number {
  try {
    return Object.keys((JSON.parse(readFileSync(lockfile, 'utf8')) as { resources: object }).resources).length;
  } catch {
    return 0;
  }
}

export async function chaosRun(seed: number, faults: ChaosFaults, options: { killAfterLines: number; maxReapplies: number }): Promise<ChaosOutcome> {
  const emulator = await startEmulator({ timeScale: 0.03, faultSeed: seed, ...faults });
  try {
    const ws = workspace(thirtyActionConfig(), emulator.url);
    // The moment is counted in progress lines after "apply started" (a 30-action apply prints
    // about 100 before its summary), plus a few milliseconds, so every kill lands in the apply
    // itself, however fast or slow the machine, rather than in start-up, planning or after it.
    const random = seededRandom(seed);
    const killedAfterLines = 1 + Math.floor(random() * options.killAfterLines);
    const killedAfterMs = Math.floor(random() * 20);
    const first = spawnCli(ws, ['apply', '--auto-approve']);
    let timer: NodeJS.Timeout | undefined;
    let seen = '';
    let summaryAtKill = true;
    let faultsAtKill = emulator.faultsInjected();
    first.child.stdout!.on('data', (d) => {
      seen += d;
      const start = seen.indexOf(' apply started: ');
      if (timer !== undefined || start < 0) return;
      if (seen.slice(start).split('\n').length - 2 < killedAfterLines) return;
      timer = setTimeout(() => {
        summaryAtKill = SUMMARY.test(seen);
        faultsAtKill = emulator.faultsInjected();
        first.child.kill('SIGKILL');
      }, killedAfterMs);
    });
    const firstResult = await first.done;
    clearTimeout(timer);
    const entriesAtKill = countEntries(ws.lockfile);

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
    return { killedAfterLines, killedAfterMs, killedMidApply: firstResult.signal === 'SIGKILL' && !summaryAtKill, reapplies, entriesAtKill, faultsAtKill };
  } finally {
    await emulator.close();
  }
}

/** One line per run, for failure messages: kill moment, whether it landed, entries, re-applies, faults. */
export function describeOutcomes(outcomes: ChaosOutcome[]): string {
  return outcomes
    .map((o) => {
      const faults = Object.entries(o.faultsAtKill).map(([k, n]) => `${k}=${n}`).join(' ');
      return `kill@line ${o.killedAfterLines}+${o.killedAfterMs}ms ${o.killedMidApply ? 'mid-apply' : 'NOT mid-apply'} entries=${o.entriesAtKill} reapplies=${o.reapplies} faults: ${faults}`;
    })
    .join('\n');
}
