// Everything one action needs while it runs, and the small helpers all kinds share.
import type { Action, ResourceRef } from '../model/index.js';
import { ActionInputError } from './errors.js';
import type { ApplyEventBody } from './events.js';
import type { PgpassWriter } from './pgpass.js';
import type { ExecutorApi, ExecutorWaits, StateBindings, WaitOptions } from './ports.js';

export interface ActionContext {
  api: ExecutorApi;
  projectId: string;
  waits: ExecutorWaits;
  /** The state's bindings, written as resources are created and deleted. */
  bindings: StateBindings;
  emit(event: ApplyEventBody): void;
  timeoutMs: number;
  signal?: AbortSignal;
  /** Undefined: initial passwords are not written anywhere (the CLI always gives one). */
  pgpass?: PgpassWriter;
  env: Record<string, string | undefined>;
  /** Sends of one create in total, when earlier sends are known not to have created anything. */
  createAttempts: number;
  /** The first poll interval (DBFORM_POLL_MS); also paces resends after a 409 on a pending change. */
  pollMs: number;
  /** When this action's `--timeout` runs out (epoch ms); every wait of the action shares it. */
  deadline?: number;
  /**
   * Runs `work` without holding the action's place among the `--parallelism` in flight (a pause
   * between resends); `waits` already do. Absent outside the graph walk.
   */
  idle?<T>(work: () => Promise<T>): Promise<T>;
  /** A create's bookkeeping is done before its first wait starts (before turn 2; for the bench). */
  bookkeepingFirst?: boolean;
}

export interface ActionOutcome {
  resourceId?: string;
  adopted?: boolean;
}

/**
 * The ID behind a reference: its own ID, else the ID the lockfile binds to its address (which
 * includes resources created earlier in this apply).
 */
export function resolveRef(ctx: ActionContext, ref: ResourceRef | undefined, role: string): string {
  if (ref?.id) return ref.id;
  if (ref?.address) {
    const id = ctx.bindings.idOf(ref.address);
    if (id) return id;
    throw new ActionInputError(`no ID is known for ${ref.address} (the ${role} of this action); it was neither in the lockfile nor created by this apply`);
  }
  throw new ActionInputError(`the plan gives no ${role} for this action`);
}

/** The resource an action acts on; for a service op, the service. */
export function targetId(ctx: ActionContext, action: Action): string {
  return resolveRef(ctx, action.refs.target ?? (action.kind === 'service' ? action.refs.service : undefined), 'target');
}

/** The owning service of a replica set action, or the service of a service action. */
export function serviceId(ctx: ActionContext, action: Action): string {
  if (action.kind === 'service') return resolveRef(ctx, action.refs.target ?? action.refs.service, 'service');
  return resolveRef(ctx, action.refs.service, 'service');
}

export function vpcId(ctx: ActionContext, action: Action): string {
  if (action.kind === 'vpc') return resolveRef(ctx, action.refs.target ?? action.refs.vpc, 'VPC');
  return resolveRef(ctx, action.refs.vpc, 'VPC');
}

export function waitOptions(ctx: ActionContext, action: Action): WaitOptions {
  return {
    timeoutMs: ctx.deadline === undefined ? ctx.timeoutMs : Math.max(1, ctx.deadline - Date.now()),
    ...(ctx.signal ? { signal: ctx.signal } : {}),
    onStatus: (status) => ctx.emit({ type: 'action-status', action: { id: action.id, address: action.address, op: action.op }, status }),
    onStall: ({ waitingFor, status, forMs, known }) =>
      ctx.emit({
        type: 'action-waiting',
        action: { id: action.id, address: action.address, op: action.op },
        waitingFor,
        ...(status === undefined ? {} : { status }),
        forMs,
        knownStatus: known,
      }),
  };
}

export function reportStatus(ctx: ActionContext, action: Action, status: unknown): void {
  if (typeof status === 'string' && status !== '') {
    ctx.emit({ type: 'action-status', action: { id: action.id, address: action.address, op: action.op }, status });
  }
}

/** The request body the planner wrote, as a typed wire body. */
export function requestOf<T>(action: Action): T {
  return { ...(action.request ?? {}) } as T;
}

/**
 * Writes the lockfile entry of a resource this action created or adopted. The ID is in the
 * in-memory lockfile at once (where a Ctrl-C's final flush finds it); the promise is its write.
 */
export function recordCreated(ctx: ActionContext, action: Action, id: string): Promise<void> {
  return ctx.bindings.bind(action.address, id, action.protect === undefined ? {} : { protect: action.protect });
}

/**
 * Runs a create's first wait while its bookkeeping (the lockfile write, the pgpass rewrite) is
 * still on disk's way, so neither delays the first poll. The action ends only once both are done;
 * a bookkeeping failure ends the wait at once and is the action's error (an ID or a password that
 * was not saved matters more than the wait).
 */
export async function waitAlongside(ctx: ActionContext, bookkeeping: Array<Promise<void>>, wait: (ctx: ActionContext) => Promise<void>): Promise<void> {
  if (ctx.bookkeepingFirst) {
    await Promise.all(bookkeeping);
    return wait(ctx);
  }
  const stop = new AbortController();
  const signal = ctx.signal ? AbortSignal.any([ctx.signal, stop.signal]) : stop.signal;
  let failure: { error: unknown } | undefined;
  const kept = Promise.all(bookkeeping).then(
    () => undefined,
    (error: unknown) => {
      failure = { error };
      stop.abort(error);
    },
  );
  try {
    await wait({ ...ctx, signal });
  } catch (err) {
    await kept;
    throw failure ? failure.error : err;
  }
  await kept;
  if (failure) throw failure.error;
}

/** Removes the lockfile entry of a deleted resource, unless it already names a newer one. */
export async function recordDeleted(ctx: ActionContext, action: Action, id: string): Promise<void> {
  if (ctx.bindings.idOf(action.address) === id) await ctx.bindings.remove(action.address);
}
