// The same SIGKILL chaos under an unreliable API: 20% 500/503, 20% 429, 30% lost responses.
import { describe, expect, it } from 'vitest';
import { chaosRun, describeOutcomes, type ChaosOutcome } from './chaos-run.js';

const SEEDS = Array.from({ length: 20 }, (_, i) => 2001 + i);
const FAULTS = { faultRate: 0.2, throttleRate: 0.2, lostResponseRate: 0.3 };
const outcomes: ChaosOutcome[] = [];
// With the 429 waits and the backoff at the emulator's time scale, a faulted 30-action apply takes
// about 0.8-2 s from its first progress line: kills are drawn within its first 700 ms.

describe.concurrent('SIGKILL mid-apply under faults, then re-apply under faults', () => {
  it.each(SEEDS)('seed %i: no duplicates, every ID in the lockfile, next plan empty', async (seed) => {
    outcomes.push(await chaosRun(seed, FAULTS, { killWindowMs: 700, maxReapplies: 6 }));
  }, 120_000);
});

describe('the kills', () => {
  it('landed while the apply was running in at least 18 of the 20 runs', () => {
    expect(outcomes).toHaveLength(SEEDS.length);
    expect(outcomes.filter((o) => o.killedMidApply).length, describeOutcomes(outcomes)).toBeGreaterThanOrEqual(18);
  });
});
