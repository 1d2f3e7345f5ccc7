// How the executor runs a VPC's ops that need more than their row (renameVPC is sent as its row
// says): a create that adopts after a lost answer and waits, where VPCs carry a status, until the
// VPC is usable; a delete that is done when the VPC is already gone.
import { idOf, recordCreated, recordDeleted, reportStatus, requestOf, waitOptions, type ActionContext, type ActionOutcome, type Handler } from '../../executor/action-context.js';
import type { Dto } from '../../executor/ports.js';
import { createOrAdopt } from '../../executor/reconcile.js';
import type { Action, OperationId } from '../../model/index.js';
import { isVpcSettled } from './kind.js';
import { ignoreNotFound } from '../../executor/errors.js';

async function findVpcsNamed(ctx: ActionContext, name: string): Promise<Array<{ id: string; status?: string }>> {
  return (await ctx.api.listVPCs(ctx.projectId))
    .filter((v) => v.name === name)
    .map((v) => (typeof v.status === 'string' ? { id: String(v.id), status: v.status } : { id: String(v.id) }));
}

async function createVpc(ctx: ActionContext, action: Action): Promise<ActionOutcome> {
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
  if (!isVpcSettled(status)) await ctx.waits.until('vpc', { id }, 'ready', waitOptions(ctx, action));
  return { resourceId: id, adopted: 'adoptedId' in outcome };
}

/** A create refused (409) because its VPC is still being created waits for the VPC, then is sent again. */
export async function waitIfVpcCreating(ctx: ActionContext, action: Action, vpcId: string): Promise<boolean> {
  const vpc = (await ctx.api.listVPCs(ctx.projectId)).find((v) => String(v.id) === vpcId);
  if (vpc === undefined || isVpcSettled(vpc.status)) return false;
  reportStatus(ctx, action, `waiting for VPC ${vpcId} (${vpc.status})`);
  await ctx.waits.until('vpc', { id: vpcId }, 'ready', waitOptions(ctx, action));
  return true;
}

async function deleteVpc(ctx: ActionContext, action: Action): Promise<ActionOutcome> {
  const id = idOf(ctx, action, 'vpc');
  await ignoreNotFound(() => ctx.api.deleteVPC(ctx.projectId, id));
  await recordDeleted(ctx, action, id);
  return {};
}

export const vpcHandlers: Partial<Record<OperationId, Handler>> = { createVPC: createVpc, deleteVPC: deleteVpc };
