// The same SIGKILL chaos under an unreliable API: 20% 500/503, 20% 429, 30% lost responses, for the
// killed apply and for every re-apply.
import { describe, expect, it } from 'vitest';
import { chaosRun, describeOutcomes, type ChaosOutcome } from './chaos-run.js';

const SEEDS = Array.from({ length: 20 }, (_, i) => 2001 + i);
const FAULTS = { faultRate: 0.2, throttleRate: 0.2, lostResponseRate: 0.3 };
const outcomes: ChaosOutcome[] = [];

describe.concurrent('SIGKILL mid-apply under faults, then re-apply under faults', () => {
  it.each(SEEDS)('seed %i: no duplicates, every ID in the lockfile, next plan empty', async (seed) => {
    outcomes.push(await chaosRun(seed, FAULTS, { maxReapplies: 6 }));
  }, 120_000);
});

describe('the kills', () => {
  it('all 20 landed while the apply was running, with faults injected into it', () => {
    expect(outcomes).toHaveLength(SEEDS.length);
    const report = describeOutcomes(outcomes);
    expect(outcomes.filter((o) => o.killedMidApply).length, report).toBe(SEEDS.length);
    // Every killed apply met faults, and between them every kind: 500, 503, 429, lost responses.
    for (const o of outcomes) expect(Object.values(o.faultsAtKill).reduce((a, b) => a + b, 0), report).toBeGreaterThan(0);
    for (const kind of ['error-500', 'error-503', 'throttle', 'lost-response'] as const) {
      expect(outcomes.reduce((n, o) => n + o.faultsAtKill[kind], 0), `${kind}\n${report}`).toBeGreaterThan(0);
    }
    // At depths spread over the apply (seeded: which of its mutating requests the kill met).
    expect(new Set(outcomes.map((o) => o.killedAtMutation)).size, report).toBeGreaterThanOrEqual(10);
  });
});
