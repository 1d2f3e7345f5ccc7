// Operations in flight (SPEC section 14). Before an operation that changes a resource in place is
// sent, the state records it on the resource's entry as pending (the op, what it sets, when);
// once dbform sees it finish, the record goes and the values it set join the entry's drift record
// in the same write; once dbform sees it fail, the record goes. A record left behind (kill -9, an
// answer that never came, a wait abandoned or timed out) tells the next plan that the change is
// dbform's own and still on its way (src/planner/pending.ts), and the next apply's settle step
// checks what became of it. Creates are not recorded here: a create's ID is bound the moment it
// is known and a lost one is adopted by name (reconcile.ts), and deletes end with the entry.
import { fieldIdsOfPaths, driftScalar, holdsValues } from '../kinds/field-paths.js';
import { kindDef, OPERATIONS } from '../kinds/index.js';
import { ApiError, DbformError, nounOf, WaitTimeoutError, type Action, type Address, type DriftValue, type Kind, type PendingOp } from '../model/index.js';
import type { ActionContext, ActionOutcome } from './action-context.js';
import { isAbort } from './errors.js';

/** The pending record of an action that changes a resource in place; undefined for other ops. */
export function pendingOf(action: Action, since: Date): PendingOp | undefined {
  if (OPERATIONS[action.op]?.effect !== 'update') return undefined;
  const sets: Record<string, DriftValue> = {};
  for (const c of action.changes) if (!c.sensitive) sets[c.path] = driftScalar(c.after);
  return { op: action.op, sets, since: since.toISOString() };
}

/**
 * Whether an error leaves it open that the operation took effect, or will: no answer came (or a
 * 5xx, which may come after the work), the wait ran out of time, or the apply was interrupted.
 */
function outcomeUnknown(err: unknown): boolean {
  for (let e: unknown = err; e instanceof Error; e = e.cause) {
    if (isAbort(e) || e instanceof WaitTimeoutError) return true;
    if (e instanceof ApiError) return e.isTransport || e.afterUnknownOutcome || e.status >= 500;
  }
  return false;
}

/** What the op set, as the config's drift record has it: the fields its changes name. */
function appliedBy(ctx: ActionContext, kind: Kind, address: Address, pending: PendingOp): Record<string, unknown> | undefined {
  const record = ctx.appliedOf?.(address, ctx.bindings.peek());
  if (record === undefined) return undefined;
  const out: Record<string, unknown> = {};
  for (const id of fieldIdsOfPaths(kindDef(kind), Object.keys(pending.sets))) if (record[id] !== undefined) out[id] = record[id];
  return Object.keys(out).length > 0 ? out : undefined;
}

/**
 * Runs an action (`run`: its handler) with its operation recorded as pending around it: written
 * before anything is sent, ended once the outcome is seen. An op that changes nothing in place
 * just runs.
 */
export async function runRecorded(ctx: ActionContext, action: Action, since: Date, run: () => Promise<ActionOutcome>): Promise<ActionOutcome> {
  const pending = pendingOf(action, since);
  if (pending === undefined) return run();
  await ctx.bindings.update(action.address, { pending });
  if (ctx.signal?.aborted) {
    // Ctrl-C, or the state lost, while it was written: nothing was sent, so nothing is pending.
    await ctx.bindings.endPending(action.address);
    throw ctx.signal.reason;
  }
  let outcome: ActionOutcome;
  try {
    outcome = await run();
  } catch (err) {
    if (!outcomeUnknown(err)) await ctx.bindings.endPending(action.address);
    throw err;
  }
  await ctx.bindings.endPending(action.address, appliedBy(ctx, action.kind, action.address, pending));
  return outcome;
}

/**
 * A settling resource that carries an op an earlier apply left pending, once it has settled
 * (`live`: as the wait last saw it): if it holds the values the op set, the record ends with them
 * recorded; if it does not, the op never took effect: the record ends, and the error says the
 * next plan sends it again. Undefined `live` (a wait that does not tell) is taken as done.
 */
export async function settlePending(ctx: ActionContext, kind: Kind, address: Address, live: unknown): Promise<void> {
  const pending = ctx.bindings.get(address)?.pending;
  if (pending === undefined) return;
  const def = kindDef(kind);
  if (live !== undefined && holdsValues(def, live, pending.sets) === false) {
    await ctx.bindings.endPending(address);
    const wanted = Object.entries(pending.sets).map(([path, v]) => `${path} ${String(v)}`).join(', ');
    throw new DbformError(
      `${pending.op}, sent by an earlier apply (${pending.since}), did not take effect: the ${nounOf(kind)} settled without ${wanted}; the next plan sends it again`,
    );
  }
  await ctx.bindings.endPending(address, appliedBy(ctx, kind, address, pending));
}
