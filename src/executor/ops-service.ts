// Services: create, fork, delete, and every in-place operation with its wait (SPEC section 3).
import type { Action } from '../model/index.js';
import {
  recordCreated,
  recordDeleted,
  reportStatus,
  requestOf,
  resolveRef,
  serviceId,
  vpcId,
  waitAlongside,
  waitOptions,
  type ActionContext,
  type ActionOutcome,
} from './action-context.js';
import { isConflict } from './api-errors.js';
import { ActionInputError } from './errors.js';
import { ignoreNotFound } from './ops-vpc.js';
import { createOrAdopt, findServicesNamed, type CreateOutcome } from './reconcile.js';
import { forgetHost, hostToForget, saveConfiguredPassword, saveInitialPassword } from './service-pgpass.js';
import { waitAsTableSays } from './send-operation.js';
import { sendWhenServiceSettled, waitIfServiceSettling } from './settle.js';
import type { Dto } from './ports.js';

export async function createService(ctx: ActionContext, action: Action): Promise<ActionOutcome> {
  const body = requestOf<Dto.CreateServiceRequestDto>(action);
  const outcome = await createOrAdopt(ctx, action, {
    send: () => ctx.api.createService(ctx.projectId, body),
    find: () => findServicesNamed(ctx, body.name),
    describe: `service "${body.name}"`,
  });
  return finishServiceCreate(ctx, action, outcome);
}

export async function forkService(ctx: ActionContext, action: Action): Promise<ActionOutcome> {
  const parent = resolveRef(ctx, action.refs.forkParent, 'fork parent');
  const body = requestOf<Dto.ForkServiceRequestDto>(action);
  const outcome = await createOrAdopt(ctx, action, {
    send: () => ctx.api.forkService(ctx.projectId, parent, body),
    find: async () => findServicesNamed(ctx, body.name ?? (await forkDefaultName(ctx, parent)), parent),
    describe: `fork "${body.name ?? 'of ' + parent}"`,
    retryAfterConflict: () => waitIfServiceSettling(ctx, action, parent),
  });
  return finishServiceCreate(ctx, action, outcome);
}

/** The API names an unnamed fork `<parent name>-fork`. */
async function forkDefaultName(ctx: ActionContext, parentId: string): Promise<string> {
  const parent = (await ctx.api.listServices(ctx.projectId)).find((s) => s.service_id === parentId);
  if (!parent) throw new ActionInputError(`the fork parent ${parentId} no longer exists`);
  return `${parent.name}-fork`;
}

/** The ID (lockfile) and the password (pgpass) are saved while the wait for READY runs; the action ends when all three have. */
async function finishServiceCreate(ctx: ActionContext, action: Action, outcome: CreateOutcome<Dto.ServiceDto>): Promise<ActionOutcome> {
  const id = 'created' in outcome ? String(outcome.created.service_id) : outcome.adoptedId;
  const bookkeeping = [recordCreated(ctx, action, id)];
  if ('created' in outcome) {
    reportStatus(ctx, action, outcome.created.status);
    bookkeeping.push(saveInitialPassword(ctx, action, outcome.created));
  } else {
    ctx.emit({
      type: 'warning',
      address: action.address,
      message: 'its initial password was in the lost response and is unknown; configure `password:` to set one',
    });
  }
  await waitAlongside(ctx, bookkeeping, (c) => c.waits.serviceStatus(id, 'READY', waitOptions(c, action)));
  return { resourceId: id, adopted: 'adoptedId' in outcome };
}

export async function deleteService(ctx: ActionContext, action: Action): Promise<ActionOutcome> {
  const id = serviceId(ctx, action);
  const host = await hostToForget(ctx, id);
  try {
    await ignoreNotFound(() => ctx.api.deleteService(ctx.projectId, id));
  } catch (err) {
    // A service already being deleted (an earlier, interrupted apply) is on its way: just wait.
    if (!isConflict(err) || !(await isBeingDeleted(ctx, id))) throw err;
  }
  await recordDeleted(ctx, action, id);
  await forgetHost(ctx, action, host);
  await ctx.waits.serviceGone(id, waitOptions(ctx, action));
  return {};
}

async function isBeingDeleted(ctx: ActionContext, id: string): Promise<boolean> {
  const svc = (await ctx.api.listServices(ctx.projectId)).find((s) => s.service_id === id);
  return svc === undefined || svc.status === 'DELETING' || svc.status === 'DELETED';
}

type Send = (ctx: ActionContext, id: string) => Promise<Dto.ServiceDto | undefined>;

/** Async service operations: send (waiting out transitions), show the status, wait as the op table says. */
async function transition(ctx: ActionContext, action: Action, send: Send, achieved: (s: Dto.ServiceDto) => boolean): Promise<ActionOutcome> {
  const id = serviceId(ctx, action);
  // Every transition but a start needs the service READY; a start needs it PAUSED.
  const needs = action.op === 'startService' ? 'PAUSED' : 'READY';
  const svc = await sendWhenServiceSettled(ctx, action, id, () => send(ctx, id), { achieved, needs });
  reportStatus(ctx, action, svc?.status);
  await waitAsTableSays(ctx, action, { service_id: id });
  return {};
}

const sizeIs = (body: Dto.ResizeRequestDto) => (s: Dto.ServiceDto) => {
  const spec = s.resources?.[0]?.spec;
  return String(spec?.cpu_millis) === body.cpu_millis && String(spec?.memory_gbs) === body.memory_gbs;
};
const haIs = (body: Dto.SetHaRequestDto) => (s: Dto.ServiceDto) =>
  (body.replica_count === undefined || (s.ha_replicas?.replica_count ?? 0) === body.replica_count) &&
  (body.sync_replica_count === undefined || (s.ha_replicas?.sync_replica_count ?? 0) === body.sync_replica_count);

export function resizeService(ctx: ActionContext, a: Action): Promise<ActionOutcome> {
  const body = requestOf<Dto.ResizeRequestDto>(a);
  return transition(ctx, a, (c, id) => c.api.resizeService(c.projectId, id, body), sizeIs(body));
}
export function setHAReplica(ctx: ActionContext, a: Action): Promise<ActionOutcome> {
  const body = requestOf<Dto.SetHaRequestDto>(a);
  return transition(ctx, a, (c, id) => c.api.setHAReplica(c.projectId, id, body), haIs(body));
}
export const startService = (ctx: ActionContext, a: Action) =>
  transition(ctx, a, (c, id) => c.api.startService(c.projectId, id), (s) => s.status === 'READY' || s.status === 'RESUMING');
export const stopService = (ctx: ActionContext, a: Action) =>
  transition(ctx, a, (c, id) => c.api.stopService(c.projectId, id), (s) => s.status === 'PAUSED' || s.status === 'PAUSING');

const attachedTo = (s: Dto.ServiceDto): string | undefined => (s.vpc_endpoint ?? s.vpcEndpoint)?.vpc_id;

export async function attachToVpc(ctx: ActionContext, action: Action): Promise<ActionOutcome> {
  const id = serviceId(ctx, action);
  const vpc = vpcId(ctx, action);
  const body = { ...requestOf<Dto.VpcAttachmentRequestDto>(action), vpc_id: vpc };
  await sendWhenServiceSettled(ctx, action, id, () => ctx.api.attachServiceToVPC(ctx.projectId, id, body), {
    achieved: (s) => attachedTo(s) === vpc,
    retryWhenReady: true,
  });
  await ctx.waits.serviceVpc(id, vpc, null, waitOptions(ctx, action));
  return {};
}

export async function detachFromVpc(ctx: ActionContext, action: Action): Promise<ActionOutcome> {
  const id = serviceId(ctx, action);
  const vpc = vpcId(ctx, action);
  const body = { ...requestOf<Dto.VpcAttachmentRequestDto>(action), vpc_id: vpc };
  // While a detach is pending the endpoint is still shown: a 409 then means "send again later".
  await sendWhenServiceSettled(ctx, action, id, () => ctx.api.detachServiceFromVPC(ctx.projectId, id, body), {
    achieved: (s) => attachedTo(s) !== vpc,
    retryWhenReady: true,
  });
  await ctx.waits.serviceVpc(id, null, vpc, waitOptions(ctx, action));
  return {};
}

/** The password comes from the environment at apply time and goes only to the API. */
export async function updatePassword(ctx: ActionContext, action: Action): Promise<ActionOutcome> {
  const spec = action.password;
  if (!spec) throw new ActionInputError('the plan does not say which environment variable holds the password');
  const password = ctx.env[spec.fromEnv];
  if (password === undefined || password === '') {
    throw new ActionInputError(`environment variable ${spec.fromEnv} (password.from_env of ${action.address}) is not set or empty`);
  }
  const id = serviceId(ctx, action);
  await ctx.api.updatePassword(ctx.projectId, id, { password });
  await ctx.bindings.update(action.address, { passwordVersion: spec.version });
  await saveConfiguredPassword(ctx, action, id, password);
  return {};
}
