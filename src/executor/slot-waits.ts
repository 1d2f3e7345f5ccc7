// An action's context while the graph walk runs it: every wait (and every pause between resends)
// gives up the action's slot among the --parallelism in flight, and takes one back after it
// (SPEC section 5: waits do not count).
import type { ActionContext } from './action-context.js';
import type { Slot } from './graph-walker.js';
import type { ExecutorWaits } from './ports.js';

export function withSlot(ctx: ActionContext, slot: Slot): ActionContext {
  const inner = ctx.waits;
  const waits: ExecutorWaits = { until: (...args) => slot.idle(() => inner.until(...args)) };
  return { ...ctx, waits, idle: (work) => slot.idle(work) };
}
