// Read replica sets: create, delete, resize and the metadata operations.
import type { Action } from '../model/index.js';
import { recordCreated, recordDeleted, reportStatus, requestOf, serviceId, targetId, waitAlongside, waitOptions, type ActionContext, type ActionOutcome } from './action-context.js';
import { ignoreNotFound } from './ops-vpc.js';
import { isConflict } from './api-errors.js';
import { createOrAdopt, findReplicaSetsNamed } from './reconcile.js';
import { findReplicaSet, sendWhenReplicaSetSettled, waitIfServiceSettling } from './settle.js';
import type { Dto } from './ports.js';

export async function createReplicaSet(ctx: ActionContext, action: Action): Promise<ActionOutcome> {
  const service = serviceId(ctx, action);
  const body = requestOf<Dto.CreateReplicaSetRequestDto>(action);
  const outcome = await createOrAdopt(ctx, action, {
    send: () => ctx.api.createReplicaSet(ctx.projectId, service, body),
    find: () => findReplicaSetsNamed(ctx, service, body.name),
    describe: `replica set "${body.name}"`,
    conflictMayMeanExists: true,
    retryAfterConflict: async () => (await waitIfServiceSettling(ctx, action, service)) || (await waitIfNameDeleting(ctx, action, service, body.name)),
  });
  const id = 'created' in outcome ? String(outcome.created.id) : outcome.adoptedId;
  if ('created' in outcome) reportStatus(ctx, action, outcome.created.status);
  await waitAlongside(ctx, [recordCreated(ctx, action, id)], (c) => c.waits.replicaSetActive(service, id, waitOptions(c, action)));
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
  await ctx.waits.replicaSetGone(serviceId, String(going.id), waitOptions(ctx, action));
  return true;
}

export async function deleteReplicaSet(ctx: ActionContext, action: Action): Promise<ActionOutcome> {
  const service = serviceId(ctx, action);
  const id = targetId(ctx, action);
  try {
    await ignoreNotFound(() => ctx.api.deleteReplicaSet(ctx.projectId, service, id));
  } catch (err) {
    // Already being deleted (an earlier, interrupted run): just wait for it to go.
    if (!isConflict(err) || (await findReplicaSet(ctx, service, id))?.status !== 'deleting') throw err;
  }
  await recordDeleted(ctx, action, id);
  await ctx.waits.replicaSetGone(service, id, waitOptions(ctx, action));
  return {};
}

export async function resizeReplicaSet(ctx: ActionContext, action: Action): Promise<ActionOutcome> {
  const service = serviceId(ctx, action);
  const id = targetId(ctx, action);
  const body = requestOf<Dto.ResizeRequestDto>(action);
  await sendWhenReplicaSetSettled(ctx, action, service, id, () => ctx.api.resizeReplicaSet(ctx.projectId, service, id, body));
  await ctx.waits.replicaSetActive(service, id, waitOptions(ctx, action));
  return {};
}
