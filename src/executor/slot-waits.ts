// An action's context while the graph walk runs it: every wait (and every pause between resends)
// gives up the action's slot among the --parallelism in flight, and takes one back after it
// (SPEC section 5: waits do not count).
import type { ActionContext } from './action-context.js';
import type { Slot } from './graph-walker.js';
import type { ExecutorWaits } from './ports.js';

/** Every wait of the port, so that a new one cannot be left holding its slot. */
const WAITS: Record<keyof ExecutorWaits, true> = {
  serviceStatus: true,
  serviceSettled: true,
  serviceGone: true,
  serviceVpc: true,
  replicaSetActive: true,
  replicaSetSettled: true,
  replicaSetGone: true,
  peeringSettled: true,
  peeringGone: true,
  vpcSettled: true,
};

export function withSlot(ctx: ActionContext, slot: Slot): ActionContext {
  const inner = ctx.waits as unknown as Record<keyof ExecutorWaits, (...args: unknown[]) => Promise<void>>;
  const waits = {} as Record<keyof ExecutorWaits, (...args: unknown[]) => Promise<void>>;
  for (const name of Object.keys(WAITS) as Array<keyof ExecutorWaits>) {
    waits[name] = (...args) => slot.idle(() => inner[name].apply(ctx.waits, args));
  }
  return { ...ctx, waits: waits as unknown as ExecutorWaits, idle: (work) => slot.idle(work) };
}
