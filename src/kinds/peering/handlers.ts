// How the executor runs a peering's ops: a create that adopts the peering of the same peer VPC
// after a lost answer (or a 409 that means it exists), waits out a VPC still being created, and
// waits until the peering is active; a delete that waits until it is gone.
import { idOf, recordCreated, recordDeleted, reportStatus, requestOf, targetId, waitAlongside, waitOptions, type ActionContext, type ActionOutcome, type Handler } from '../../executor/action-context.js';
import { ignoreNotFound } from '../../executor/errors.js';
import type { Dto } from '../../executor/ports.js';
import { createOrAdopt } from '../../executor/reconcile.js';
import type { Action, OperationId } from '../../model/index.js';
import { waitIfVpcCreating } from '../vpc/handlers.js';

/** Its identity is its peer VPC: the peering a lost create would have made. */
async function findPeerings(ctx: ActionContext, vpcId: string, peerVpcId: string): Promise<Array<{ id: string }>> {
  return (await ctx.api.listVPCPeerings(ctx.projectId, vpcId)).filter((p) => p.peer_vpc_id === peerVpcId).map((p) => ({ id: String(p.id) }));
}

async function createPeering(ctx: ActionContext, action: Action): Promise<ActionOutcome> {
  const vpc = idOf(ctx, action, 'vpc');
  const body = requestOf<Dto.CreatePeeringRequestDto>(action);
  const outcome = await createOrAdopt(ctx, action, {
    send: () => ctx.api.createVPCPeering(ctx.projectId, vpc, body),
    find: () => findPeerings(ctx, vpc, body.peer_vpc_id),
    describe: `peering to ${body.peer_vpc_id}`,
    conflictMayMeanExists: true,
    retryAfterConflict: () => waitIfVpcCreating(ctx, action, vpc),
  });
  const id = 'created' in outcome ? String(outcome.created.id) : outcome.adoptedId;
  if ('created' in outcome) reportStatus(ctx, action, outcome.created.status);
  // A failed peering stays bound: the next plan sees it and replaces it once the config is fixed.
  await waitAlongside(ctx, [recordCreated(ctx, action, id)], (c) => c.waits.until('peering', { id, parentId: vpc }, 'ready', waitOptions(c, action)));
  return { resourceId: id, adopted: 'adoptedId' in outcome };
}

async function deletePeering(ctx: ActionContext, action: Action): Promise<ActionOutcome> {
  const vpc = idOf(ctx, action, 'vpc');
  const id = targetId(ctx, action);
  await ignoreNotFound(() => ctx.api.deleteVPCPeering(ctx.projectId, vpc, id));
  await recordDeleted(ctx, action, id);
  await ctx.waits.until('peering', { id, parentId: vpc }, 'gone', waitOptions(ctx, action));
  return {};
}

export const peeringHandlers: Partial<Record<OperationId, Handler>> = { createVPCPeering: createPeering, deleteVPCPeering: deletePeering };
