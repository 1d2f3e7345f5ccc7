// applyPlan: lockfile-only bindings first, then the plan's DAG, one API operation per action (by
// its kind's handler, recorded as pending in the state while in flight: pending.ts), and the
// waits for resources still settling (settle-waits.ts) before the summary.
import { CREATE_OPS, OPERATIONS } from '../kinds/index.js';
import { HANDLERS } from '../kinds/handlers.js';
import { DbformError, type Action, type Binding, type LocalProcess, type Plan } from '../model/index.js';
import { trackAccepted } from './accepted-tracker.js';
import type { ActionContext, ActionOutcome } from './action-context.js';
import { ActionError, asActionTimeout, isAbort } from './errors.js';
import { refOf, silentReporter, type ApplyEventBody, type Reporter } from './events.js';
import { walkGraph, type Slot } from './graph-walker.js';
import { runRecorded } from './pending.js';
import { PgpassWriter } from './pgpass.js';
import { pollerWaits } from './poller-waits.js';
import type { ExecutorApi, ExecutorPoller, ExecutorWaits, StateBindings } from './ports.js';
import { emptyResult, type ApplyResult } from './result.js';
import { sendOperation } from './send-operation.js';
import { scheduleSettling } from './settle-waits.js';

/**
 * From operation to handler: its kind's (src/kinds/handlers.ts), or, for an op that is safe to
 * repeat and has none of its own, the generic send, which waits as its row says.
 */
function runAction(ctx: ActionContext, action: Action): Promise<ActionOutcome> {
  const handler = HANDLERS[action.op] ?? (OPERATIONS[action.op]?.safety === 'repeatable' ? sendOperation : undefined);
  if (!handler) return Promise.reject(new Error(`unknown operation ${String(action.op)}`));
  return handler(ctx, action);
}

export interface ApplyOptions {
  api: ExecutorApi;
  /** The client's batched StatusPoller, or (for another poller) the wait conditions themselves. */
  poller?: ExecutorPoller;
  waits?: ExecutorWaits;
  /** The state's bindings (src/state/working-state.ts): what the run binds and forgets goes there. */
  bindings: StateBindings;
  reporter?: Reporter;
  /** Actions sending requests at once (an action waiting for its operation does not count); default 10. */
  parallelism?: number;
  /** Per action; default 30 minutes. */
  timeoutMs?: number;
  /** First Ctrl-C: start nothing new, abandon waits, return what happened. */
  signal?: AbortSignal;
  /** Where initial passwords of created services go (the file, and the process that rewrites it); undefined: nowhere. */
  pgpass?: { path: string; owner: LocalProcess };
  /** Where `password.from_env` variables are read. */
  env?: Record<string, string | undefined>;
  /** Sends of one create in total when earlier ones provably created nothing; default 3. */
  createAttempts?: number;
  /** DBFORM_POLL_MS: paces resends after a refusal caused by a change still in progress; default 1000. */
  pollMs?: number;
  now?: () => number;
  /** The config's drift record of an address: what an update op seen to finish records at once (pending.ts). */
  appliedOf?: ActionContext['appliedOf'];
}

export async function applyPlan(plan: Plan, options: ApplyOptions): Promise<ApplyResult> {
  const reporter = options.reporter ?? silentReporter;
  const now = options.now ?? Date.now;
  const emit = (e: ApplyEventBody) => reporter.emit({ ...e, at: now() } as Parameters<Reporter['emit']>[0]);
  const bindings = options.bindings;
  if (bindings.projectId !== plan.projectId) {
    throw new DbformError(`the plan is for project "${plan.projectId}" but the state ${bindings.location} belongs to "${bindings.projectId}"`);
  }
  const parallelism = Math.max(1, options.parallelism ?? 10);
  const result = emptyResult();
  emit({ type: 'plan-start', actions: plan.actions.length, bindings: plan.bindings.length, parallelism, ...(plan.settling.length > 0 ? { settling: plan.settling.length } : {}) });

  const blocked = plan.actions.filter((a) => a.blocked !== undefined);
  if (blocked.length > 0) {
    // Blocked plans change nothing at all (SPEC section 3), not even the lockfile.
    result.blocked = blocked;
    for (const a of plan.actions.filter((x) => x.blocked === undefined)) result.skipped.push({ action: a, reason: 'upstream-blocked' });
    emit({ type: 'summary', result });
    return result;
  }

  bindings.onWritten((entries) => emit({ type: 'lockfile-written', path: bindings.location, entries }));
  const ctx: ActionContext = {
    api: options.api,
    projectId: plan.projectId,
    waits: waitsOf(options),
    bindings,
    emit,
    timeoutMs: options.timeoutMs ?? 30 * 60_000,
    ...(options.signal ? { signal: options.signal } : {}),
    ...(options.pgpass ? { pgpass: new PgpassWriter(options.pgpass.path, options.pgpass.owner) } : {}),
    env: options.env ?? {},
    createAttempts: options.createAttempts ?? 3,
    pollMs: options.pollMs ?? 1000,
    ...(options.appliedOf ? { appliedOf: options.appliedOf } : {}),
  };

  if (!options.signal?.aborted) {
    // One write for all of them (each change lands in memory at once): a restore's retirements
    // are marked before the adoption of its fork, which moves them, and no write falls between.
    const ordered = [...plan.bindings.filter((b) => b.kind === 'retire'), ...plan.bindings.filter((b) => b.kind !== 'retire')];
    const writes = ordered.map((binding) => applyBinding(bindings, binding));
    await Promise.all(writes);
    for (const binding of ordered) {
      emit({ type: 'binding', binding });
      result.bindingsApplied++;
    }
    await bindings.flush();
  }

  // After the first Ctrl-C nothing new starts, and a call that fails is not tried again.
  if (options.signal) options.api.stopRetriesOn?.(options.signal);
  const settling = scheduleSettling(ctx, plan.settling, plan.actions, result, now);
  await walkGraph(plan.actions, {
    parallelism,
    ...(options.signal ? { signal: options.signal } : {}),
    run: (action, slot) => runOne(withSlot(ctx, slot), action, result, now),
    onSkip: (action, reason, root) => {
      result.skipped.push({ action, reason, ...(root ? { root: refOf(root) } : {}) });
      emit({ type: 'action-skipped', action: refOf(action), reason, ...(root ? { root: refOf(root) } : {}) });
    },
  });
  await settling.first;
  await settling.afterActions();
  await bindings.flush();
  // Interrupted when Ctrl-C left anything undone, even if the actions in flight then failed.
  const unsettled = result.settling.filter((s) => s.outcome !== 'settled').length;
  const undone = result.abandoned.length + result.skipped.length + result.failed.length + unsettled;
  result.interrupted = options.signal?.aborted === true && undone > 0;
  sortByPlanOrder(plan, result);
  emit({ type: 'summary', result });
  return result;
}

function waitsOf(options: ApplyOptions): ExecutorWaits {
  if (options.waits) return options.waits;
  if (options.poller) return pollerWaits(options.poller);
  throw new DbformError('applyPlan needs a poller (or waits) to wait for asynchronous operations');
}

async function runOne(shared: ActionContext, action: Action, result: ApplyResult, now: () => number): Promise<void> {
  const started = now();
  let accepted = false;
  const boundBefore = shared.bindings.idOf(action.address);
  const ctx: ActionContext = { ...shared, api: trackAccepted(shared.api, () => (accepted = true)), deadline: Date.now() + shared.timeoutMs };
  ctx.emit({ type: 'action-start', action: refOf(action) });
  try {
    const outcome = await runRecorded(ctx, action, new Date(now()), () => runAction(ctx, action));
    result.done.push({ action, ...outcome });
    ctx.emit({ type: 'action-done', action: refOf(action), elapsedMs: now() - started, ...outcome });
  } catch (err) {
    if (ctx.signal?.aborted && (isAbort(err) || err === ctx.signal.reason)) {
      // A create adopted after a lost response also took effect: its ID is newly bound.
      const boundNow = ctx.bindings.idOf(action.address);
      const created = CREATE_OPS.has(action.op) && boundNow !== undefined && boundNow !== boundBefore;
      if (accepted || created) {
        // The cloud carries the operation on; only its wait was abandoned. The next apply picks it up.
        const id = created ? { resourceId: boundNow } : {};
        result.abandoned.push({ action, ...id });
        ctx.emit({ type: 'action-abandoned', action: refOf(action), elapsedMs: now() - started, ...id });
      } else {
        result.skipped.push({ action, reason: 'interrupted', started: true });
        ctx.emit({ type: 'action-skipped', action: refOf(action), reason: 'interrupted', started: true });
      }
      return;
    }
    const error = err instanceof ActionError ? err : new ActionError(action.address, action.op, asActionTimeout(err, ctx.timeoutMs));
    result.failed.push(error);
    ctx.emit({ type: 'action-failed', action: refOf(action), elapsedMs: now() - started, message: error.message });
    throw error;
  }
}

/** Changes the state in memory at once (no await before the change); the promise is its write. */
function applyBinding(bindings: StateBindings, binding: Binding): Promise<unknown> {
  switch (binding.kind) {
    case 'adopt':
      return binding.id ? bindings.bind(binding.address, binding.id, binding.protect === undefined ? {} : { protect: binding.protect }) : Promise.resolve();
    case 'move': {
      const moved = binding.from ? bindings.move(binding.from, binding.address) : Promise.resolve();
      return Promise.all([moved, binding.protect !== undefined ? bindings.update(binding.address, { protect: binding.protect }) : undefined]);
    }
    case 'protect':
      return bindings.update(binding.address, { protect: binding.protect ?? false });
    case 'forget':
      return bindings.remove(binding.address);
    case 'retire':
      return markRetiring(bindings, binding);
  }
}

/**
 * A restore's retirement (SPEC section 17) is only marked here: the entry stays where it is, so
 * the address is never bound to nothing, until the fork's binding moves it (bindRetiring).
 */
function markRetiring(bindings: StateBindings, binding: Binding): Promise<void> {
  if (binding.from === undefined || bindings.idOf(binding.from) !== binding.id || binding.targetTime === undefined) return Promise.resolve();
  return bindings.update(binding.from, { restoring: { retireAs: binding.address, targetTime: binding.targetTime } });
}

function sortByPlanOrder(plan: Plan, result: ApplyResult): void {
  const index = new Map(plan.actions.map((a, i) => [a.id, i]));
  const at = (id: string) => index.get(id) ?? 0;
  result.done.sort((a, b) => at(a.action.id) - at(b.action.id));
  result.abandoned.sort((a, b) => at(a.action.id) - at(b.action.id));
  result.skipped.sort((a, b) => at(a.action.id) - at(b.action.id));
  const failedIndex = (e: ActionError) => plan.actions.findIndex((a) => a.address === e.address && a.op === e.op);
  result.failed.sort((a, b) => failedIndex(a) - failedIndex(b));
}

/**
 * An action's context while the graph walk runs it: every wait (and every pause between resends)
 * gives up the action's slot among the --parallelism in flight, and takes one back after it
 * (SPEC section 5: waits do not count).
 */
function withSlot(ctx: ActionContext, slot: Slot): ActionContext {
  const inner = ctx.waits;
  const waits: ExecutorWaits = { until: (...args) => slot.idle(() => inner.until(...args)) };
  return { ...ctx, waits, idle: (work) => slot.idle(work) };
}
