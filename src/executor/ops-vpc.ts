// VPCs and peerings: createVPC, deleteVPC, createVPCPeering, deleteVPCPeering (renameVPC is sent
// as its op table row says: send-operation.ts).
import { isVpcSettled } from '../kinds/vpc/kind.js';
import type { Action } from '../model/index.js';
import { recordCreated, recordDeleted, reportStatus, requestOf, targetId, vpcId, waitAlongside, waitOptions, type ActionContext, type ActionOutcome } from './action-context.js';
import { createOrAdopt, findPeerings, findVpcsNamed } from './reconcile.js';
import { isNotFound } from './api-errors.js';
import type { Dto } from './ports.js';

export async function createVpc(ctx: ActionContext, action: Action): Promise<ActionOutcome> {
  const body = requestOf<Dto.CreateVpcRequestDto>(action);
  const outcome = await createOrAdopt(ctx, action, {
    send: () => ctx.api.createVPC(ctx.projectId, body),
    find: () => findVpcsNamed(ctx, body.name),
    describe: `VPC "${body.name}"`,
  });
  const id = 'created' in outcome ? String(outcome.created.id) : outcome.adoptedId;
  await recordCreated(ctx, action, id);
  // Where VPCs carry a status (the real service), nothing may be attached to or peered with one
  // still being created (SPEC section 12). One without a status is usable at once: no extra read.
  const status = 'created' in outcome ? outcome.created.status : outcome.adoptedStatus;
  if (status !== undefined) reportStatus(ctx, action, status);
  if (!isVpcSettled(status)) await ctx.waits.vpcSettled(id, waitOptions(ctx, action));
  return { resourceId: id, adopted: 'adoptedId' in outcome };
}

/** A peering refused (409) because its VPC is still being created waits for the VPC, then is sent again. */
async function waitIfVpcCreating(ctx: ActionContext, action: Action, vpcId: string): Promise<boolean> {
  const vpc = (await ctx.api.listVPCs(ctx.projectId)).find((v) => String(v.id) === vpcId);
  if (vpc === undefined || isVpcSettled(vpc.status)) return false;
  reportStatus(ctx, action, `waiting for VPC ${vpcId} (${vpc.status})`);
  await ctx.waits.vpcSettled(vpcId, waitOptions(ctx, action));
  return true;
}

export async function deleteVpc(ctx: ActionContext, action: Action): Promise<ActionOutcome> {
  const id = vpcId(ctx, action);
  await ignoreNotFound(() => ctx.api.deleteVPC(ctx.projectId, id));
  await recordDeleted(ctx, action, id);
  return {};
}

export async function createPeering(ctx: ActionContext, action: Action): Promise<ActionOutcome> {
  const vpc = vpcId(ctx, action);
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
  await waitAlongside(ctx, [recordCreated(ctx, action, id)], (c) => c.waits.peeringSettled(vpc, id, waitOptions(c, action)));
  return { resourceId: id, adopted: 'adoptedId' in outcome };
}

export async function deletePeering(ctx: ActionContext, action: Action): Promise<ActionOutcome> {
  const vpc = vpcId(ctx, action);
  const id = targetId(ctx, action);
  await ignoreNotFound(() => ctx.api.deleteVPCPeering(ctx.projectId, vpc, id));
  await recordDeleted(ctx, action, id);
  await ctx.waits.peeringGone(vpc, id, waitOptions(ctx, action));
  return {};
}

/** A delete of something already gone has done its job. */
export async function ignoreNotFound(run: () => Promise<unknown>): Promise<void> {
  try {
    await run();
  } catch (err) {
    if (!isNotFound(err)) throw err;
  }
}
