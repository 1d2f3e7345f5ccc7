// Waiting for the plan's settling resources (SPEC section 5): after an interrupted apply, a
// resource may still be in a transitional status (a service QUEUED or CONFIGURING; what each kind
// calls transitional, and settled, its folder says). The plan has nothing to send for them, but apply must not report success until they have settled.
// Each wait is a step of its own (`s1`, `s2`, ... with op `settle`), reported with the usual
// progress events and bounded by --timeout. A resource that also has actions is waited for after
// its last action, which usually leaves it settled already; one without actions from the start.
// One that carries an op an earlier apply left pending (SPEC section 14) is then checked: the op
// took effect (its values are recorded) or it did not (the step fails; the next plan sends it).
import { kindDef } from '../kinds/index.js';
import type { Action, SettlingResource } from '../model/index.js';
import type { ActionContext } from './action-context.js';
import { ActionError, asActionTimeout, isAbort } from './errors.js';
import type { ActionRef } from './events.js';
import type { ExecutorWaits, WaitOptions } from './ports.js';
import { settlePending } from './pending.js';
import type { ApplyResult } from './result.js';

interface Step {
  resource: SettlingResource;
  ref: ActionRef;
}

/** Until the resource is in no transitional status (its kind's `settled` goal); a kind without one has nothing to wait for. */
function waitFor(waits: ExecutorWaits, s: SettlingResource, o: WaitOptions): Promise<unknown> {
  if (kindDef(s.kind).waits.goals.settled === undefined) return Promise.resolve(undefined);
  return waits.until(s.kind, { id: s.id, ...(s.parentId !== undefined ? { parentId: s.parentId } : {}) }, 'settled', o);
}

/** Never rejects: the outcome goes to `result` and to the reporter. */
async function settleOne(ctx: ActionContext, step: Step, result: ApplyResult, now: () => number): Promise<void> {
  const { resource, ref } = step;
  const started = now();
  let last = resource.status;
  ctx.emit({ type: 'action-start', action: ref });
  ctx.emit({ type: 'action-status', action: ref, status: last });
  const onStatus = (status: string) => {
    last = status;
    ctx.emit({ type: 'action-status', action: ref, status });
  };
  try {
    const live = await waitFor(ctx.waits, resource, { timeoutMs: ctx.timeoutMs, ...(ctx.signal ? { signal: ctx.signal } : {}), onStatus });
    // What became of an op an earlier apply left in flight on it (SPEC section 14).
    await settlePending(ctx, resource.kind, resource.address, live);
    result.settling.push({ resource, outcome: 'settled', status: last });
    ctx.emit({ type: 'action-done', action: ref, elapsedMs: now() - started });
  } catch (err) {
    if (ctx.signal?.aborted && (isAbort(err) || err === ctx.signal.reason)) {
      result.settling.push({ resource, outcome: 'abandoned', status: last });
      ctx.emit({ type: 'action-abandoned', action: ref, elapsedMs: now() - started });
      return;
    }
    const error = new ActionError(resource.address, 'settle', asActionTimeout(err, ctx.timeoutMs));
    result.failed.push(error);
    ctx.emit({ type: 'action-failed', action: ref, elapsedMs: now() - started, message: error.message });
  }
}

export interface SettleSchedule {
  /** Waits for settling resources without actions; they run alongside the plan's actions. */
  first: Promise<void>;
  /** Waits for settling resources with actions, once those actions are over. */
  afterActions(): Promise<void>;
}

export function scheduleSettling(ctx: ActionContext, settling: readonly SettlingResource[], actions: readonly Action[], result: ApplyResult, now: () => number): SettleSchedule {
  const steps: Step[] = settling.map((resource, i) => ({ resource, ref: { id: `s${i + 1}`, address: resource.address, op: 'settle' } }));
  const acted = new Set(actions.map((a) => a.address));
  const first = Promise.all(steps.filter((s) => !acted.has(s.resource.address)).map((s) => settleOne(ctx, s, result, now))).then(() => undefined);
  const afterActions = async () => {
    const done = new Set(result.done.map((d) => d.action));
    const later = steps.filter((s) => acted.has(s.resource.address));
    const ready = later.filter((s) => !ctx.signal?.aborted && actions.every((a) => a.address !== s.resource.address || done.has(a)));
    for (const s of later.filter((x) => !ready.includes(x))) {
      // Its own actions failed or were cut short: the failure (or the interrupt) is the news.
      result.settling.push({ resource: s.resource, outcome: 'not-started', status: s.resource.status });
      ctx.emit({ type: 'action-skipped', action: s.ref, reason: ctx.signal?.aborted ? 'interrupted' : 'upstream-failed' });
    }
    await Promise.all(ready.map((s) => settleOne(ctx, s, result, now)));
  };
  return { first, afterActions };
}
