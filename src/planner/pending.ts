// In flight is not drift (SPEC section 14): an operation an earlier apply sent and did not see
// finish is recorded in the state (a lockfile entry's `pending`). While the resource is still in a
// transitional status, sending the same operation again would only be refused (or, once the
// resource settles, repeat a change already made): the plan lists the resource as settling with
// the op (settling.ts) and sends nothing. Once it has settled, the plan is made as usual: without
// the values, the op is planned again; with them, there is nothing to send. Pure.
import { KINDS } from '../kinds/index.js';
import type { Address, DriftValue, FieldChange, PendingOp } from '../model/index.js';
import type { LiveResource, PlanContext } from './context.js';
import type { Draft } from './drafts.js';
import { driftScalar } from '../kinds/field-paths.js';

/** Whether a draft's changes set exactly what the pending op set (the same send). */
function sameSend(changes: readonly FieldChange[], sets: Readonly<Record<string, DriftValue>>): boolean {
  const shown = changes.filter((c) => !c.sensitive);
  return shown.length === Object.keys(sets).length && shown.every((c) => c.path in sets && sets[c.path] === driftScalar(c.after));
}

/** The pending op of each desired resource still settling, by address. */
function pendingWhileSettling(ctx: PlanContext): Map<Address, PendingOp> {
  const out = new Map<Address, PendingOp>();
  for (const def of KINDS) {
    if (!def.live.settling) continue;
    for (const m of ctx.matching.matches[def.kind]) {
      const pending = m.entry?.pending;
      if (pending && m.live && def.live.settling(m.live as LiveResource)) out.set(m.address, pending);
    }
  }
  return out;
}

/** The drafts without those that would send a pending op again to a resource still settling. */
export function withoutResends(ctx: PlanContext, drafts: Draft[]): Draft[] {
  // No first scan of the lockfile for a pending op: listing an object of 30,000 keys costs more than this walk of the matches.
  const pending = pendingWhileSettling(ctx);
  if (pending.size === 0) return drafts;
  return drafts.filter((d) => {
    const p = pending.get(d.address);
    return p === undefined || p.op !== d.op || !sameSend(d.changes, p.sets);
  });
}
