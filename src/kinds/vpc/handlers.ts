// How the executor runs a VPC's ops that need more than their row (renameVPC is sent as its row
// says): a create that adopts after a lost answer and waits, where VPCs carry a status, until the
// VPC is usable; a delete that is done when the VPC is already gone, and that waits out what is
// still being torn down in it.
import {
  idOf,
  recordCreated,
  recordDeleted,
  reportStatus,
  reportWaiting,
  requestOf,
  Resends,
  waitOptions,
  type ActionContext,
  type ActionOutcome,
  type Handler,
} from '../../executor/action-context.js';
import type { Dto, WaitRef } from '../../executor/ports.js';
import { createOrAdopt } from '../../executor/reconcile.js';
import { nounOf, type Action, type Kind, type OperationId } from '../../model/index.js';
import { childKinds, isGone, mapLive, type AnyKind } from '../index.js';
import { isVpcSettled } from './kind.js';
import { ignoreNotFound, isConflict, isNotFound } from '../../executor/errors.js';

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

/** Something of a VPC on its way out: a resource of a kind that belongs to it, the attachment of a deleted service. */
interface Leaving {
  kind: Kind;
  ref: WaitRef;
  what: string;
}

type ListCall = (projectId: string, parentId: string) => Promise<unknown[]>;

/** The live resources of a kind that belongs to VPCs, read through the client method its kind names; none once the VPC is gone. */
async function childrenOf(ctx: ActionContext, def: AnyKind, vpcId: string): Promise<Array<{ id: string }>> {
  const list = (ctx.api as unknown as Record<string, ListCall>)[def.read.list]!;
  try {
    return (await list.call(ctx.api, ctx.projectId, vpcId)).map((dto) => mapLive(def.kind, dto, vpcId));
  } catch (err) {
    if (isNotFound(err)) return [];
    throw err;
  }
}

/**
 * What still holds the VPC: `leaving` goes away by itself (the real service tears down eventually,
 * SPEC section 15); `staying` does not (a live resource of a kind whose delete must come first, a
 * service attached), so a refusal for it is the API's real answer.
 */
async function holding(ctx: ActionContext, vpcId: string): Promise<{ leaving: Leaving[]; staying: number }> {
  const leaving: Leaving[] = [];
  let staying = 0;
  for (const def of childKinds('vpc').filter((c) => c.blocksParentDelete)) {
    for (const child of await childrenOf(ctx, def, vpcId)) {
      if (!isGone(def.kind, child)) staying++;
      else leaving.push({ kind: def.kind, ref: { id: child.id, parentId: vpcId }, what: `${nounOf(def.kind)} ${child.id}` });
    }
  }
  for (const svc of await ctx.api.listServices(ctx.projectId)) {
    if ((svc.vpc_endpoint ?? svc.vpcEndpoint)?.vpc_id !== vpcId) continue;
    if (!isGone('service', mapLive('service', svc))) staying++;
    else leaving.push({ kind: 'service', ref: { id: svc.service_id }, what: `the attachment of service ${svc.service_id}` });
  }
  return { leaving, staying };
}

/**
 * Sends the delete until the VPC is gone. A refusal (409) while what belonged to it (its
 * connections, the attachments of deleted services) is still going away is a wait, said so on the
 * progress line (Terraform's provider retries "already being updated" for 5 minutes): for those to
 * be gone, or, when nothing visible explains it, a pause; either within --timeout. A refusal for
 * something live that stays is the answer.
 */
async function deleteVpc(ctx: ActionContext, action: Action): Promise<ActionOutcome> {
  const id = idOf(ctx, action, 'vpc');
  const resends = new Resends(ctx);
  for (;;) {
    try {
      await ignoreNotFound(() => ctx.api.deleteVPC(ctx.projectId, id));
      break;
    } catch (err) {
      if (!isConflict(err)) throw err;
      const { leaving, staying } = await holding(ctx, id);
      if (staying > 0) throw err;
      if (leaving.length === 0) {
        reportWaiting(ctx, action, `waiting for VPC ${id} to finish being updated`);
        if (!(await resends.pause())) throw err;
        continue;
      }
      reportWaiting(ctx, action, `waiting for ${leaving.map((l) => l.what).join(', ')} to be removed`);
      for (const l of leaving) await ctx.waits.until(l.kind, l.ref, 'gone', waitOptions(ctx, action));
    }
  }
  await recordDeleted(ctx, action, id);
  return {};
}

export const vpcHandlers: Partial<Record<OperationId, Handler>> = { createVPC: createVpc, deleteVPC: deleteVpc };
