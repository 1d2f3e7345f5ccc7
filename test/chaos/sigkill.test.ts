// SIGKILL of `dbform apply` at seeded random moments of a 30-action apply, then re-apply.
import { describe, expect, it } from 'vitest';
import { chaosRun, describeOutcomes, type ChaosOutcome } from './chaos-run.js';

const SEEDS = Array.from({ length: 24 }, (_, i) => 1001 + i);
const outcomes: ChaosOutcome[] = [];

describe.concurrent('SIGKILL mid-apply, then re-apply (no faults)', () => {
  it.each(SEEDS)('seed %i: no duplicates, every ID in the lockfile, next plan empty', async (seed) => {
    outcomes.push(await chaosRun(seed, {}, { killAfterLines: 80, maxReapplies: 1 }));
  });
});

describe('the kills', () => {
  it('all landed while the apply was running, before its summary', () => {
    expect(outcomes).toHaveLength(SEEDS.length);
    expect(outcomes.filter((o) => o.killedMidApply).length, describeOutcomes(outcomes)).toBe(SEEDS.length);
    // Spread over the apply: some before any resource was recorded, some well into it.
    expect(new Set(outcomes.map((o) => o.entriesAtKill)).size, describeOutcomes(outcomes)).toBeGreaterThanOrEqual(5);
  });
});
