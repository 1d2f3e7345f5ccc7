// How the executor runs a replica set's ops: a create that adopts the set of the same name after a
// lost answer (or a 409 that means it exists), waits out its service settling, its service's first
// backup or a set of that name still being deleted, and waits until it is active; a delete that is
// done when the set is already going; a resize sent once the set has settled. The switches are sent
// as their rows say.
import { idOf, recordCreated, recordDeleted, reportStatus, requestOf, targetId, waitAlongside, waitOptions, type ActionContext, type ActionOutcome, type Handler } from '../../executor/action-context.js';
import type { Dto } from '../../executor/ports.js';
import { createOrAdopt } from '../../executor/reconcile.js';
import type { Action, OperationId } from '../../model/index.js';
import { waitForFirstBackup, waitIfServiceSettling } from '../service/handlers.js';
import { ignoreNotFound, isConflict } from '../../executor/errors.js';

const MAX_SENDS = 12;
const RS_SETTLES_TO_ACTIVE = new Set(['creating', 'resizing']);

/**
 * Sends an operation that needs the replica set `active`, waiting out its transitions. `achieved`:
 * the operation's goal already holds, so a 409 means it was done; looked at again once a
 * transition has ended, since that transition may have been this very operation, sent by an
 * attempt whose answer was lost (its repeat refused): sending it again would make it twice.
 */
async function sendWhenReplicaSetSettled(
  ctx: ActionContext,
  action: Action,
  ids: { service: string; replicaSet: string },
  send: () => Promise<unknown>,
  achieved: (rs: Dto.ReadReplicaSetDto) => boolean,
): Promise<void> {
  for (let sends = 1; ; sends++) {
    try {
      await send();
      return;
    } catch (err) {
      if (!isConflict(err) || sends >= MAX_SENDS) throw err;
      const rs = await findReplicaSet(ctx, ids.service, ids.replicaSet);
      if (rs !== undefined && achieved(rs)) return;
      if (rs === undefined || !RS_SETTLES_TO_ACTIVE.has(String(rs.status))) throw err;
      ctx.emit({ type: 'action-status', action: { id: action.id, address: action.address, op: action.op }, status: `waiting for ${rs.status} to finish` });
      await ctx.waits.until('replica_set', { id: ids.replicaSet, parentId: ids.service }, 'ready', waitOptions(ctx, action));
      const settled = await findReplicaSet(ctx, ids.service, ids.replicaSet);
      if (settled !== undefined && achieved(settled)) return;
    }
  }
}

async function findReplicaSet(ctx: ActionContext, serviceId: string, replicaSetId: string): Promise<Dto.ReadReplicaSetDto | undefined> {
  const svc = (await ctx.api.listServices(ctx.projectId)).find((s) => s.service_id === serviceId);
  if (svc === undefined) return undefined;
  // The real API may leave the replica sets out of the list (SPEC section 12): read them then.
  const sets = Array.isArray(svc.read_replica_sets) ? svc.read_replica_sets : await ctx.api.listReplicaSets(ctx.projectId, serviceId);
  return sets.find((r) => r.id === replicaSetId);
}


/** The sets a lost create would have made: by name, not being deleted. */
async function findReplicaSetsNamed(ctx: ActionContext, serviceId: string, name: string): Promise<Array<{ id: string }>> {
  return (await ctx.api.listReplicaSets(ctx.projectId, serviceId))
    .filter((r) => r.name === name && r.status !== 'deleting')
    .map((r) => ({ id: String(r.id) }));
}

async function createReplicaSet(ctx: ActionContext, action: Action): Promise<ActionOutcome> {
  const service = idOf(ctx, action, 'service');
  const body = requestOf<Dto.CreateReplicaSetRequestDto>(action);
  const outcome = await createOrAdopt(ctx, action, {
    send: () => ctx.api.createReplicaSet(ctx.projectId, service, body),
    find: () => findReplicaSetsNamed(ctx, service, body.name),
    describe: `replica set "${body.name}"`,
    conflictMayMeanExists: true,
    retryAfterConflict: async () => (await waitIfServiceSettling(ctx, action, service)) || (await waitIfNameDeleting(ctx, action, service, body.name)),
    pauseAfterConflict: waitForFirstBackup(ctx, action, action.refs.service, service),
  });
  const id = 'created' in outcome ? String(outcome.created.id) : outcome.adoptedId;
  if ('created' in outcome) reportStatus(ctx, action, outcome.created.status);
  await waitAlongside(ctx, [recordCreated(ctx, action, id)], (c) => c.waits.until('replica_set', { id, parentId: service }, 'ready', waitOptions(c, action)));
  return { resourceId: id, adopted: 'adoptedId' in outcome };
}

/**
 * A replica set of the same name still `deleting` (deleted out of band, or by an interrupted run,
 * just before this create) holds the name: the API refuses the create with 409 until it is gone.
 * Wait for it, and say whether to send again (bounded by createOrAdopt's conflict retries).
 */
async function waitIfNameDeleting(ctx: ActionContext, action: Action, serviceId: string, name: string): Promise<boolean> {
  const same = (await ctx.api.listReplicaSets(ctx.projectId, serviceId)).filter((r) => r.name === name);
  // Gone between the refusal and this look: the name is free now.
  if (same.length === 0) return true;
  const going = same.find((r) => r.status === 'deleting');
  if (!going) return false;
  ctx.emit({ type: 'action-status', action: { id: action.id, address: action.address, op: action.op }, status: `waiting for the deleted replica set ${going.id} to go` });
  await ctx.waits.until('replica_set', { id: String(going.id), parentId: serviceId }, 'gone', waitOptions(ctx, action));
  return true;
}

async function deleteReplicaSet(ctx: ActionContext, action: Action): Promise<ActionOutcome> {
  const service = idOf(ctx, action, 'service');
  const id = targetId(ctx, action);
  try {
    await ignoreNotFound(() => ctx.api.deleteReplicaSet(ctx.projectId, service, id));
  } catch (err) {
    // Already being deleted (an earlier, interrupted run): just wait for it to go.
    if (!isConflict(err) || (await findReplicaSet(ctx, service, id))?.status !== 'deleting') throw err;
  }
  await recordDeleted(ctx, action, id);
  await ctx.waits.until('replica_set', { id, parentId: service }, 'gone', waitOptions(ctx, action));
  return {};
}

async function resizeReplicaSet(ctx: ActionContext, action: Action): Promise<ActionOutcome> {
  const service = idOf(ctx, action, 'service');
  const id = targetId(ctx, action);
  const body = requestOf<Dto.ResizeRequestDto>(action);
  const sized = (rs: Dto.ReadReplicaSetDto) => String(rs.cpu_millis) === body.cpu_millis && String(rs.memory_gbs) === body.memory_gbs;
  await sendWhenReplicaSetSettled(ctx, action, { service, replicaSet: id }, () => ctx.api.resizeReplicaSet(ctx.projectId, service, id, body), sized);
  await ctx.waits.until('replica_set', { id, parentId: service }, 'ready', waitOptions(ctx, action));
  return {};
}

export const replicaSetHandlers: Partial<Record<OperationId, Handler>> = { createReplicaSet, deleteReplicaSet, resizeReplicaSet };
