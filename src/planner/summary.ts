// `summary` counts resources, not API calls (SPEC section 3).
import { isCreateOp, isDeleteOp } from '../kinds/index.js';
import { emptySummary, type Action, type Address, type Binding, type Summary } from '../model/index.js';

export type ResourceVerb = 'create' | 'update' | 'replace' | 'delete';

/** What happens to one resource, from the ops of its actions. */
export function verbOf(ops: ReadonlyArray<Action['op']>): ResourceVerb {
  const creates = ops.some(isCreateOp);
  const deletes = ops.some(isDeleteOp);
  if (creates && deletes) return 'replace';
  if (creates) return 'create';
  if (deletes) return 'delete';
  return 'update';
}

export function summarize(
  actions: readonly Action[],
  bindings: readonly Binding[],
  unchanged: number,
  unmanaged: number,
  settling: number,
): Summary {
  const summary = emptySummary();
  const ops = new Map<Address, Action['op'][]>();
  for (const a of actions) ops.set(a.address, [...(ops.get(a.address) ?? []), a.op]);
  for (const list of ops.values()) summary[verbOf(list)]++;
  const bound = new Set<Address>();
  for (const b of bindings) {
    if (b.kind === 'adopt') summary.adopt++;
    if (b.kind === 'move') summary.move++;
    if (b.kind === 'adopt' || b.kind === 'move') bound.add(b.address);
  }
  // A protect change alone rewrites only the lockfile, yet it is a change the reviewer approves.
  for (const b of bindings) if (b.kind === 'protect' && !ops.has(b.address) && !bound.has(b.address)) summary.update++;
  summary.unchanged = unchanged;
  summary.unmanaged = unmanaged;
  summary.settling = settling;
  return summary;
}
