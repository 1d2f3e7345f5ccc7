// After an interrupted apply, the next one can meet resources still in transition: a service
// still CONFIGURING or UPGRADING, a replica set still `creating`, an attach still pending. The
// API refuses operations on them with 409. These helpers turn such a 409 into "wait until it
// settles, then send again" (or "already done"), so that re-running apply converges; any other
// 409 is the API's real answer and fails the action.
import { setTimeout as sleep } from 'node:timers/promises';
import type { Action } from '../model/index.js';
import { waitOptions, type ActionContext } from './action-context.js';
import { isConflict } from './api-errors.js';
import type { Dto } from './ports.js';

const SETTLES_TO_READY = new Set(['QUEUED', 'CONFIGURING', 'UPGRADING', 'RESUMING', 'UNSTABLE']);
const MAX_SENDS = 12;

export interface ServiceSettleRules {
  /** The operation's goal already holds: the 409 means it was done (by an earlier run). */
  achieved?: (svc: Dto.ServiceDto) => boolean;
  /** An attach/detach still pending is invisible in the service: back off and send again. */
  retryWhenReady?: boolean;
  /** The status the operation needs (start: PAUSED); default READY. */
  needs?: 'READY' | 'PAUSED';
}

/** Sends an operation that needs the service in a settled state, waiting out transitions. */
export async function sendWhenServiceSettled<T>(
  ctx: ActionContext,
  action: Action,
  serviceId: string,
  send: () => Promise<T>,
  rules: ServiceSettleRules = {},
): Promise<T | undefined> {
  let delayMs = ctx.pollMs;
  let resentOnce = false;
  for (let sends = 1; ; sends++) {
    try {
      return await send();
    } catch (err) {
      if (!isConflict(err) || sends >= MAX_SENDS) throw err;
      const svc = (await ctx.api.listServices(ctx.projectId)).find((s) => s.service_id === serviceId);
      if (svc === undefined) throw err;
      if (rules.achieved?.(svc)) return undefined;
      const status = String(svc.status);
      // Refused during a transition that ended before this look (a start seen RESUMING, now
      // READY): send once more; a second refusal in the needed status is the API's real answer.
      if (status === (rules.needs ?? 'READY') && !rules.retryWhenReady && !resentOnce) {
        resentOnce = true;
        continue;
      }
      if (SETTLES_TO_READY.has(status) || status === 'PAUSING') {
        ctx.emit({ type: 'action-status', action: { id: action.id, address: action.address, op: action.op }, status: `waiting for ${status} to finish` });
        await ctx.waits.serviceStatus(serviceId, status === 'PAUSING' ? 'PAUSED' : 'READY', waitOptions(ctx, action));
        continue;
      }
      if (!rules.retryWhenReady || status !== 'READY') throw err;
      // Out of --timeout: the refusal is the answer.
      if (ctx.deadline !== undefined && Date.now() + delayMs > ctx.deadline) throw err;
      const pause = () => sleep(delayMs, undefined, ctx.signal ? { signal: ctx.signal } : {});
      await (ctx.idle ? ctx.idle(pause) : pause());
      delayMs = Math.min(delayMs * 1.5, ctx.pollMs * 10);
    }
  }
}

const RS_SETTLES_TO_ACTIVE = new Set(['creating', 'resizing']);

/** The same for operations that need a replica set `active`. */
export async function sendWhenReplicaSetSettled<T>(ctx: ActionContext, action: Action, serviceId: string, replicaSetId: string, send: () => Promise<T>): Promise<T> {
  for (let sends = 1; ; sends++) {
    try {
      return await send();
    } catch (err) {
      if (!isConflict(err) || sends >= MAX_SENDS) throw err;
      const rs = await findReplicaSet(ctx, serviceId, replicaSetId);
      if (rs === undefined || !RS_SETTLES_TO_ACTIVE.has(String(rs.status))) throw err;
      ctx.emit({ type: 'action-status', action: { id: action.id, address: action.address, op: action.op }, status: `waiting for ${rs.status} to finish` });
      await ctx.waits.replicaSetActive(serviceId, replicaSetId, waitOptions(ctx, action));
    }
  }
}

export async function findReplicaSet(ctx: ActionContext, serviceId: string, replicaSetId: string): Promise<Dto.ReadReplicaSetDto | undefined> {
  const svc = (await ctx.api.listServices(ctx.projectId)).find((s) => s.service_id === serviceId);
  if (svc === undefined) return undefined;
  // The real API may leave the replica sets out of the list (SPEC section 12): read them then.
  const sets = Array.isArray(svc.read_replica_sets) ? svc.read_replica_sets : await ctx.api.listReplicaSets(ctx.projectId, serviceId);
  return sets.find((r) => r.id === replicaSetId);
}

/** A service that is still settling refuses what needs READY: wait, and say whether to retry. */
export async function waitIfServiceSettling(ctx: ActionContext, action: Action, serviceId: string): Promise<boolean> {
  const svc = (await ctx.api.listServices(ctx.projectId)).find((s) => s.service_id === serviceId);
  if (svc === undefined || !SETTLES_TO_READY.has(String(svc.status))) return false;
  ctx.emit({ type: 'action-status', action: { id: action.id, address: action.address, op: action.op }, status: `waiting for ${svc.status} to finish` });
  await ctx.waits.serviceStatus(serviceId, 'READY', waitOptions(ctx, action));
  return true;
}

