// SIGKILL of `dbform apply` at seeded random moments of a 30-action apply, then re-apply.
import { describe, expect, it } from 'vitest';
import { DIALECT } from '../support/dialect.js';
import { chaosRun, describeOutcomes, type ChaosOutcome } from './chaos-run.js';

// The tiger project (vitest.config.ts) runs a smaller sample of the same runs: enough to catch a
// resume that the real service's answers break, without doubling the suite's heaviest files.
const SAMPLE = DIALECT === 'tiger' ? { runs: 8, spread: 6 } : { runs: 24, spread: 12 };
const SEEDS = Array.from({ length: SAMPLE.runs }, (_, i) => 1001 + i);
const outcomes: ChaosOutcome[] = [];

describe.concurrent('SIGKILL mid-apply, then re-apply (no faults)', () => {
  it.each(SEEDS)('seed %i: no duplicates, every ID in the lockfile, next plan empty', async (seed) => {
    outcomes.push(await chaosRun(seed, {}, { maxReapplies: 1 }));
  });
});

describe('the kills', () => {
  it('all landed while the apply was running, before its summary, at depths spread over the apply', () => {
    const report = describeOutcomes(outcomes);
    expect(outcomes).toHaveLength(SEEDS.length);
    expect(outcomes.filter((o) => o.killedMidApply).length, report).toBe(SEEDS.length);
    // Spread over the apply's 30 mutating requests, from its first few to its last few.
    const depths = outcomes.map((o) => o.killedAtMutation);
    expect(new Set(depths).size, report).toBeGreaterThanOrEqual(SAMPLE.spread);
    expect(Math.min(...depths), report).toBeLessThanOrEqual(5);
    expect(Math.max(...depths), report).toBeGreaterThanOrEqual(25);
  });
});
