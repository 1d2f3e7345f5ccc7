// Everything one action needs while it runs, and the small helpers every kind's handlers share
// (src/kinds/<kind>/handlers.ts): the executor's kit, with reconcile.ts, api-errors.ts, errors.ts.
import { setTimeout as sleep } from 'node:timers/promises';
import { nounOf, type Action, type Address, type Kind, type Lockfile, type ResourceRef } from '../model/index.js';
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
  /**
   * The drift record (SPEC section 11) the config gives an address, with `lock` as it is now;
   * undefined when it has none. An operation seen to finish records its fields from it at once
   * (pending.ts). Absent: nothing is recorded until the apply ends.
   */
  appliedOf?(address: Address, lock: Readonly<Lockfile>): Record<string, unknown> | undefined;
}

export interface ActionOutcome {
  resourceId?: string;
  adopted?: boolean;
  /** What a person should know of a done action beyond its ID: `awaiting acceptance by account N`. */
  note?: string;
}

/** Runs one action of the plan: sends its op, waits as it needs, records what it made. */
export type Handler = (ctx: ActionContext, action: Action) => Promise<ActionOutcome>;

/**
 * The ID behind a reference: its own ID, else the ID the lockfile binds to its address (which
 * includes resources created earlier in this apply).
 */
export function resolveRef(ctx: ActionContext, ref: ResourceRef | undefined, role: string): string {
  if (ref?.id) return ref.id;
  if (ref?.address) {
    const id = ctx.bindings.idOf(ref.address);
    if (id) return id;
    throw new ActionInputError(`no ID is known for ${ref.address} (the ${role} of this action); it was neither in the state nor created by this apply`);
  }
  throw new ActionInputError(`the plan gives no ${role} for this action`);
}

/** The action's reference under a kind's name (the parent of a child's action, the VPC of an attach). */
const refUnder = (action: Action, kind: Kind): ResourceRef | undefined => (action.refs as Record<string, ResourceRef | undefined>)[kind];

/** The resource an action acts on. */
export function targetId(ctx: ActionContext, action: Action): string {
  return resolveRef(ctx, action.refs.target ?? refUnder(action, action.kind), 'target');
}

/**
 * The ID of the resource of `kind` an action names: the one it acts on, for an action on that
 * kind; else the one its refs name under that kind (the parent of a child's action, the VPC of an
 * attach).
 */
export function idOf(ctx: ActionContext, action: Action, kind: Kind): string {
  const own = kind === action.kind ? action.refs.target : undefined;
  return resolveRef(ctx, own ?? refUnder(action, kind), nounOf(kind));
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
export async function waitAlongside(ctx: ActionContext, bookkeeping: Array<Promise<void>>, wait: (ctx: ActionContext) => Promise<unknown>): Promise<void> {
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

/**
 * The pauses of an action that sends again what the API refused for now (a change while an attach
 * is pending, a VPC still being torn down, a fork of a parent without a backup yet): the first poll interval, then 1.5 x longer each time, at most 10 x; taken off the
 * --parallelism slots. `pause` says false instead of pausing once the pause would end past the
 * action's --timeout: the refusal is then the API's answer.
 */
export class Resends {
  private delayMs: number;
  private readonly deadline: number;

  constructor(private readonly ctx: ActionContext) {
    this.delayMs = ctx.pollMs;
    this.deadline = ctx.deadline ?? Date.now() + ctx.timeoutMs;
  }

  async pause(): Promise<boolean> {
    if (Date.now() + this.delayMs > this.deadline) return false;
    const wait = () => sleep(this.delayMs, undefined, this.ctx.signal ? { signal: this.ctx.signal } : {});
    await (this.ctx.idle ? this.ctx.idle(wait) : wait());
    this.delayMs = Math.min(this.delayMs * 1.5, this.ctx.pollMs * 10);
    return true;
  }
}

/** Says on the action's progress line what it does meanwhile (`waiting for ...`). */
export function reportWaiting(ctx: ActionContext, action: Action, what: string): void {
  ctx.emit({ type: 'action-status', action: { id: action.id, address: action.address, op: action.op }, status: what });
}
