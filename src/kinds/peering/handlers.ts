// How the executor runs a peering's ops: a create that adopts the peering of the same peer VPC
// after a lost answer (or a 409 that means it exists), waits out a VPC still being created or a
// peering to the same peer still being torn down, and waits until the peering is active or awaits
// only the peer account's acceptance (said in its outcome); a delete
// that waits until it is gone (and takes one already being torn down as deleted).
import { idOf, recordCreated, recordDeleted, reportStatus, reportWaiting, requestOf, targetId, waitAlongside, waitOptions, type ActionContext, type ActionOutcome, type Handler } from '../../executor/action-context.js';
import { ignoreNotFound, isConflict } from '../../executor/errors.js';
import type { Dto } from '../../executor/ports.js';
import { createOrAdopt } from '../../executor/reconcile.js';
import type { Action, LivePeering, OperationId } from '../../model/index.js';
import { waitIfVpcCreating } from '../vpc/handlers.js';
import { isPeeringDeleting, peeringKind } from './kind.js';

/** Its identity is its peer VPC: the peering a lost create would have made (not one being torn down). */
async function findPeerings(ctx: ActionContext, vpcId: string, peerVpcId: string): Promise<Array<{ id: string }>> {
  return (await ctx.api.listVPCPeerings(ctx.projectId, vpcId))
    .filter((p) => p.peer_vpc_id === peerVpcId && !isPeeringDeleting(p.status))
    .map((p) => ({ id: String(p.id) }));
}

/**
 * A peering to the same peer VPC still being torn down (SPEC section 15: a replace, or a delete
 * just before) holds its identity: the API refuses the create until it is gone. Wait for it, and
 * say whether to send again.
 */
async function waitIfPeerDeleting(ctx: ActionContext, action: Action, vpcId: string, peerVpcId: string): Promise<boolean> {
  const going = (await ctx.api.listVPCPeerings(ctx.projectId, vpcId)).find((p) => p.peer_vpc_id === peerVpcId && isPeeringDeleting(p.status));
  if (going === undefined) return false;
  reportWaiting(ctx, action, `waiting for the deleted peering ${going.id} to ${peerVpcId} to be removed`);
  await ctx.waits.until('peering', { id: String(going.id), parentId: vpcId }, 'gone', waitOptions(ctx, action));
  return true;
}

async function createPeering(ctx: ActionContext, action: Action): Promise<ActionOutcome> {
  const vpc = idOf(ctx, action, 'vpc');
  const body = requestOf<Dto.CreatePeeringRequestDto>(action);
  const outcome = await createOrAdopt(ctx, action, {
    send: () => ctx.api.createVPCPeering(ctx.projectId, vpc, body),
    find: () => findPeerings(ctx, vpc, body.peer_vpc_id),
    describe: `peering to ${body.peer_vpc_id}`,
    conflictMayMeanExists: true,
    retryAfterConflict: async () => (await waitIfVpcCreating(ctx, action, vpc)) || (await waitIfPeerDeleting(ctx, action, vpc, body.peer_vpc_id)),
  });
  const id = 'created' in outcome ? String(outcome.created.id) : outcome.adoptedId;
  if ('created' in outcome) reportStatus(ctx, action, outcome.created.status);
  // A failed peering stays bound: the next plan sees it and replaces it once the config is fixed.
  let live: unknown;
  await waitAlongside(ctx, [recordCreated(ctx, action, id)], async (c) => {
    live = await c.waits.until('peering', { id, parentId: vpc }, 'ready', waitOptions(c, action));
  });
  // Made, and the peer account's to accept (SPEC section 15): said, never waited for.
  const awaits = live === undefined ? undefined : peeringKind.live.awaiting(live as LivePeering);
  return { resourceId: id, adopted: 'adoptedId' in outcome, ...(awaits !== undefined ? { note: `awaiting ${awaits}` } : {}) };
}

async function deletePeering(ctx: ActionContext, action: Action): Promise<ActionOutcome> {
  const vpc = idOf(ctx, action, 'vpc');
  const id = targetId(ctx, action);
  try {
    await ignoreNotFound(() => ctx.api.deleteVPCPeering(ctx.projectId, vpc, id));
  } catch (err) {
    // Already being torn down (an earlier, interrupted run, or a colleague): just wait for it to go.
    if (!isConflict(err) || !(await isBeingDeleted(ctx, vpc, id))) throw err;
  }
  await recordDeleted(ctx, action, id);
  await ctx.waits.until('peering', { id, parentId: vpc }, 'gone', waitOptions(ctx, action));
  return {};
}

async function isBeingDeleted(ctx: ActionContext, vpcId: string, id: string): Promise<boolean> {
  const peering = (await ctx.api.listVPCPeerings(ctx.projectId, vpcId)).find((p) => String(p.id) === id);
  return peering === undefined || isPeeringDeleting(peering.status);
}

export const peeringHandlers: Partial<Record<OperationId, Handler>> = { createVPCPeering: createPeering, deleteVPCPeering: deletePeering };
