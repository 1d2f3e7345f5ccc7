// Invariants over random valid inputs (STYLE.md): the planner never throws, the action graph is
// acyclic and in dependency order, and planning against the state an ideal apply produced gives
// no actions. The simulator runs actions in a random order the dependencies allow, so a missing
// dependency fails a state precondition.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { DesiredState, LiveState, Lockfile, Plan } from '../../../src/model/index.js';
import { desiredStateArb } from './arbitraries.js';
import { errors, liveState, lockfile, plan } from './builders.js';
import { simulateApply, SPELLINGS } from './simulator.js';

function expectOrdered(p: Plan): void {
  const seen = new Set<string>();
  for (const a of p.actions) {
    for (const d of a.dependsOn) expect(seen.has(d), `${a.id} depends on ${d}, which is not earlier`).toBe(true);
    seen.add(a.id);
  }
}

function expectConverged(desired: DesiredState, live: LiveState, lock: Lockfile): void {
  const again = plan(desired, live, lock);
  expect(errors(again)).toEqual([]);
  expect(again.actions.map((a) => `${a.address} ${a.op} ${JSON.stringify(a.changes)}`)).toEqual([]);
  expect(again.bindings).toEqual([]);
}

/** Plans with --allow-data-loss, adding --replace for services that need it, as a user would. */
function planAllowingReplace(desired: DesiredState, live: LiveState, lock: Lockfile): Plan {
  const first = plan(desired, live, lock, { allowDataLoss: true });
  const replace = first.diagnostics.filter((d) => d.code === 'replace-required').map((d) => d.address!);
  return replace.length === 0 ? first : plan(desired, live, lock, { allowDataLoss: true, replace });
}

describe('planner properties', () => {
  // Both spellings of the live state (SPEC section 12): cloud-api.md's, and the real service's
  // (TIMESCALEDB, upper-case peering statuses, VPCs with a status); the second takes 500 runs.
  it.each(Object.entries(SPELLINGS))('converges (%s spelling): plan, apply, plan again gives no changes, from scratch and from another state', (name, spelling) => {
    fc.assert(
      fc.property(desiredStateArb, desiredStateArb, fc.array(fc.nat(), { minLength: 1, maxLength: 50 }), fc.array(fc.boolean(), { maxLength: 5 }), (first, second, choices, drops) => {
        let turn = 0;
        const choose = (n: number) => choices[turn++ % choices.length]! % n;
        const ids = { next: 1 };
        const p1 = plan(first, liveState(), lockfile());
        expect(errors(p1)).toEqual([]);
        expectOrdered(p1);
        let { live, lock } = simulateApply(p1, liveState(), lockfile(), { choose, ids, spelling });
        expectConverged(first, live, lock);
        // Drift: some services deleted behind dbform's back.
        live = { ...live, services: live.services.filter((_s, i) => !drops[i]) };
        const p2 = planAllowingReplace(second, live, lock);
        expect(errors(p2)).toEqual([]);
        expectOrdered(p2);
        ({ live, lock } = simulateApply(p2, live, lock, { choose, ids, spelling }));
        expectConverged(second, live, lock);
      }),
      { seed: name === 'seed' ? 20261101 : 20261102, numRuns: name === 'seed' ? 1000 : 500 },
    );
  });

  it('never throws and yields well-formed plans for arbitrary lockfiles and options', () => {
    fc.assert(
      fc.property(
        desiredStateArb,
        fc.dictionary(fc.constantFrom('service.a', 'service.zz', 'vpc.main', 'replica_set.a.x', 'peering.main.vpc-p1', 'bogus'), fc.string({ minLength: 1, maxLength: 4 })),
        fc.subarray(['service.a', 'service.b', 'vpc.main', 'replica_set.a.x', 'nope']),
        fc.subarray(['service.a', 'vpc.edge', 'replica_set.b.y']),
        fc.boolean(),
        (desired, ids, replace, target, allowDataLoss) => {
          const lock = lockfile(ids);
          const p = plan(desired, liveState(), lock, { replace, target, allowDataLoss });
          expectOrdered(p);
          expect(p.actions.map((a) => a.id)).toEqual(p.actions.map((_a, i) => `a${i + 1}`));
          expect(p.diagnostics.some((d) => d.code === 'internal-cycle')).toBe(false);
        },
      ),
      { seed: 7, numRuns: 300 },
    );
  });
});
