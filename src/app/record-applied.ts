// After an apply, the state records the managed fields of each resource the apply left as
// configured (SPEC section 11), so that the next plan can tell what changed outside dbform.
import type { ApplyResult } from '../executor/result.js';
import type { Address, DesiredState, Plan } from '../model/index.js';
import { appliedRecords, sameApplied } from '../planner/index.js';
import type { WorkingState } from '../state/index.js';

/** Addresses whose outcome is not what the config says: an action that did not finish, a wait abandoned. */
function unfinished(result: ApplyResult | undefined): Set<Address> {
  const out = new Set<Address>();
  if (!result) return out;
  for (const f of result.failed) out.add(f.address);
  for (const list of [result.skipped, result.abandoned]) for (const x of list) out.add(x.action.address);
  for (const b of result.blocked) out.add(b.address);
  for (const s of result.settling) if (s.outcome !== 'settled') out.add(s.resource.address);
  return out;
}

/**
 * Writes the changed records through the run's working state (one write for all of them; none when
 * nothing changed, so an apply with no changes on a recorded state writes nothing). With --target,
 * only the targets and what the plan did are recorded: other resources were not looked at. An
 * operation an earlier apply left pending on a resource recorded here is over (SPEC section 14):
 * the resource is as the config says, so its record ends with it.
 */
export async function recordApplied(state: WorkingState, desired: DesiredState, plan: Plan, result: ApplyResult | undefined, targets: readonly Address[]): Promise<void> {
  const skip = unfinished(result);
  const acted = new Set(plan.actions.map((a) => a.address));
  const settled = (a: Address) => !skip.has(a) && (targets.length === 0 || targets.includes(a) || acted.has(a));
  const lock = state.snapshot();
  const writes: Array<Promise<void>> = [];
  for (const [address, applied] of appliedRecords(desired, lock, settled)) {
    const entry = lock.resources[address];
    if (entry?.pending !== undefined) writes.push(state.endPending(address));
    if (!sameApplied(entry?.applied, applied)) writes.push(state.update(address, { applied }));
  }
  await Promise.all(writes);
}
