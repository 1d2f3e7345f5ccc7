// How the executor runs a service's ops (SPEC section 3): creates and forks that adopt after a
// lost answer, save the one-time initial password to the pgpass file while the wait for READY
// runs (a fork waits for its parent's first backup); transitions sent once the service has settled (after an interrupted apply, a 409 during
// QUEUED or CONFIGURING means "wait, then send again"), waited for as the op table says; attach and
// detach, waited for by the VPC endpoint, the pgpass line following the endpoint where they move
// it; password updates, kept in the pgpass file; deletes that forget the service's pgpass lines.
import {
  idOf,
  reportWaiting,
  Resends,
  recordCreated,
  recordDeleted,
  reportStatus,
  requestOf,
  resolveRef,
  waitAlongside,
  waitOptions,
  type ActionContext,
  type ActionOutcome,
  type Handler,
} from '../../executor/action-context.js';
import { ActionInputError, ignoreNotFound, isConflict } from '../../executor/errors.js';
import type { Dto } from '../../executor/ports.js';
import { createdNothing, createOrAdopt, type CreateOutcome } from '../../executor/reconcile.js';
import { waitAsTableSays } from '../../executor/send-operation.js';
import { describeFileError } from '../../lockfile/file-errors.js';
import { ApiError, parentAddressOf, stampOf, type Action, type OperationId, type ResourceRef } from '../../model/index.js';

// ---- sending once the service has settled ----------------------------------------------------

const SETTLES_TO_READY = new Set(['QUEUED', 'CONFIGURING', 'UPGRADING', 'RESUMING', 'UNSTABLE']);
const MAX_SENDS = 12;

interface ServiceSettleRules {
  /** The operation's goal already holds: the 409 means it was done (by an earlier run). */
  achieved?: (svc: Dto.ServiceDto) => boolean;
  /** An attach/detach still pending is invisible in the service: back off and send again. */
  retryWhenReady?: boolean;
  /** The status the operation needs (start: PAUSED); default READY. */
  needs?: 'READY' | 'PAUSED';
}

/** Sends an operation that needs the service in a settled state, waiting out transitions. */
async function sendWhenServiceSettled<T>(
  ctx: ActionContext,
  action: Action,
  serviceId: string,
  send: () => Promise<T>,
  rules: ServiceSettleRules = {},
): Promise<T | undefined> {
  const resends = new Resends(ctx);
  let resentOnce = false;
  for (let sends = 1; ; sends++) {
    try {
      return await send();
    } catch (err) {
      if (!isConflict(err) || sends >= MAX_SENDS) throw err;
      const svc = await findService(ctx, serviceId);
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
        await ctx.waits.until('service', { id: serviceId }, status === 'PAUSING' ? 'paused' : 'ready', waitOptions(ctx, action));
        // The transition may have been this very operation, sent by an attempt whose answer was
        // lost (its repeat refused): its values show only now. Sending it again would make it twice.
        const settled = await findService(ctx, serviceId);
        if (settled !== undefined && rules.achieved?.(settled)) return undefined;
        continue;
      }
      if (!rules.retryWhenReady || status !== 'READY') throw err;
      // Out of --timeout: the refusal is the answer.
      if (!(await resends.pause())) throw err;
    }
  }
}

async function findService(ctx: ActionContext, serviceId: string): Promise<Dto.ServiceDto | undefined> {
  return (await ctx.api.listServices(ctx.projectId)).find((s) => s.service_id === serviceId);
}

/** A service that is still settling refuses what needs READY: wait, and say whether to retry. */
export async function waitIfServiceSettling(ctx: ActionContext, action: Action, serviceId: string): Promise<boolean> {
  const svc = await findService(ctx, serviceId);
  if (svc === undefined || !SETTLES_TO_READY.has(String(svc.status))) return false;
  ctx.emit({ type: 'action-status', action: { id: action.id, address: action.address, op: action.op }, status: `waiting for ${svc.status} to finish` });
  await ctx.waits.until('service', { id: serviceId }, 'ready', waitOptions(ctx, action));
  return true;
}

// The real service's words when a service has no backup yet: Terraform's provider retries a read
// replica create for 10 minutes on them (SPEC section 15).
const NO_BACKUP_YET = /backups? or snapshots? available/i;

/**
 * A fork of `parent`, or a replica set on it, refused because the parent has no backup yet (a
 * service READY only lately): said on the progress line, then sent again after a pause, within
 * --timeout. The pauses grow as Resends' do, across the refusals of one action.
 */
export function waitForFirstBackup(ctx: ActionContext, action: Action, parent: ResourceRef | undefined, parentId: string): (err: unknown) => Promise<boolean> {
  const resends = new Resends(ctx);
  const name = parent?.address ?? `service ${parentId}`;
  return async (err) => {
    if (!(err instanceof ApiError) || !NO_BACKUP_YET.test(err.apiMessage)) return false;
    reportWaiting(ctx, action, `waiting for the first backup of ${name}`);
    return resends.pause();
  };
}

// ---- what the pgpass file holds about a service (SPEC section 5) -----------------------------

const LOGIN = { database: 'tsdb', user: 'tsdbadmin' } as const;

async function saveInitialPassword(ctx: ActionContext, action: Action, svc: Dto.ServiceDto): Promise<void> {
  const password = svc.initial_password;
  if (!password || !ctx.pgpass) return;
  const host = svc.endpoint?.host;
  const port = svc.endpoint?.port;
  if (!host || !port) {
    ctx.emit({ type: 'warning', address: action.address, message: 'the create response has no endpoint; its initial password was not saved' });
    return;
  }
  try {
    await ctx.pgpass.save({ host, port, ...LOGIN, password });
  } catch (err) {
    // The service exists (its ID is in the lockfile); only its one-time password is lost.
    throw new ActionInputError(
      `the service was created (ID ${String(svc.service_id)}) but its initial password could not be saved to ${ctx.pgpass.path} ` +
        `(${describeFileError(err)}), and the API never shows it again. To set a password, configure ` +
        `\`password: { from_env: VARIABLE, version: 1 }\` for ${action.address} and run apply again, which sets it with updatePassword`,
      { cause: err },
    );
  }
}

/**
 * After updatePassword: the line of the service's endpoint now holds the password that works (the
 * initial one no longer does). A file that cannot be written is a warning: the password is set
 * and its variable still holds it.
 */
async function saveConfiguredPassword(ctx: ActionContext, action: Action, serviceId: string, password: string): Promise<void> {
  const pgpass = ctx.pgpass;
  if (!pgpass) return;
  const warn = (why: string) => ctx.emit({ type: 'warning', address: action.address, message: `the password was set, but ${pgpass.path} was not updated: ${why}` });
  let endpoint: Dto.EndpointDto | undefined;
  try {
    endpoint = (await ctx.api.getService(ctx.projectId, serviceId)).endpoint;
  } catch (err) {
    return warn(`its endpoint could not be read (${err instanceof Error ? err.message : String(err)})`);
  }
  if (!endpoint?.host || !endpoint.port) return warn('the service shows no endpoint');
  try {
    await pgpass.save({ host: endpoint.host, port: endpoint.port, ...LOGIN, password });
  } catch (err) {
    warn(`${describeFileError(err)}; its line for ${endpoint.host} holds an old password`);
  }
}

/**
 * Before a delete: the host whose lines go once the delete is accepted. Undefined when there is
 * no pgpass file (nothing to remove) or the service is already gone.
 */
async function hostToForget(ctx: ActionContext, serviceId: string): Promise<string | undefined> {
  if (!ctx.pgpass || !(await ctx.pgpass.exists())) return undefined;
  try {
    return (await ctx.api.getService(ctx.projectId, serviceId)).endpoint?.host;
  } catch {
    // Gone already, or unreadable: the delete itself decides what happens; the lines stay.
    return undefined;
  }
}

/**
 * The endpoint a service answers on now, where a pgpass file may hold its line (an attach or
 * detach may move it: SPEC section 15); undefined when there is no file or no endpoint to read.
 */
async function endpointForPgpass(ctx: ActionContext, serviceId: string): Promise<Dto.EndpointDto | undefined> {
  if (!ctx.pgpass || !(await ctx.pgpass.exists())) return undefined;
  try {
    return (await ctx.api.getService(ctx.projectId, serviceId)).endpoint;
  } catch {
    return undefined;
  }
}

/**
 * After an attach or detach: where the service's endpoint moved (the real service gives an
 * attached service a private host), its pgpass line moves with it, so that the line names the host
 * `dbform output` gives and libpq connects to. Where it did not move, nothing changes.
 */
async function followEndpoint(ctx: ActionContext, action: Action, serviceId: string, before: Dto.EndpointDto | undefined): Promise<void> {
  const pgpass = ctx.pgpass;
  if (!pgpass || !before?.host) return;
  const after = await endpointForPgpass(ctx, serviceId);
  if (!after?.host || !after.port || (after.host === before.host && after.port === before.port)) return;
  try {
    await pgpass.moveHost(before.host, { host: after.host, port: after.port });
  } catch (err) {
    ctx.emit({ type: 'warning', address: action.address, message: `its endpoint moved to ${after.host}, but its line in ${pgpass.path} still names ${before.host}: ${describeFileError(err)}` });
  }
}

async function forgetHost(ctx: ActionContext, action: Action, host: string | undefined): Promise<void> {
  if (!ctx.pgpass || host === undefined) return;
  try {
    await ctx.pgpass.removeHost(host);
  } catch (err) {
    ctx.emit({ type: 'warning', address: action.address, message: `its lines in ${ctx.pgpass.path} could not be removed (${describeFileError(err)})` });
  }
}

// ---- the ops -----------------------------------------------------------------------------------

/** The services a lost create (or fork of `forkedFrom`) would have made: by name, not being deleted. */
const GONE_SERVICE = new Set(['DELETING', 'DELETED']);

async function findServicesNamed(ctx: ActionContext, name: string, forkedFrom?: string): Promise<Array<{ id: string; dto: Dto.ServiceDto }>> {
  const services = await ctx.api.listServices(ctx.projectId);
  return services
    .filter((s) => s.name === name && !GONE_SERVICE.has(String(s.status)))
    // A fork is never its own parent: a restore's fork shares its parent's name where the API does not rename.
    .filter((s) => forkedFrom === undefined || (s.service_id !== forkedFrom && (s.forked_from?.service_id === undefined || s.forked_from.service_id === forkedFrom)))
    .map((s) => ({ id: String(s.service_id), dto: s }));
}

async function createService(ctx: ActionContext, action: Action): Promise<ActionOutcome> {
  const body = requestOf<Dto.CreateServiceRequestDto>(action);
  const outcome = await createOrAdopt(ctx, action, {
    send: () => ctx.api.createService(ctx.projectId, body),
    find: () => findServicesNamed(ctx, body.name),
    describe: `service "${body.name}"`,
  });
  return finishServiceCreate(ctx, action, outcome);
}

async function forkService(ctx: ActionContext, action: Action): Promise<ActionOutcome> {
  const parent = resolveRef(ctx, action.refs.forkParent, 'fork parent');
  const body = requestOf<Dto.ForkServiceRequestDto>(action);
  let outcome: CreateOutcome<Dto.ServiceDto>;
  try {
    outcome = await createOrAdopt(ctx, action, {
      send: () => ctx.api.forkService(ctx.projectId, parent, body),
      // Never a service this state binds: a restore's fork shares its name with the retired ones.
      find: async () => unbound(ctx, await findServicesNamed(ctx, body.name ?? (await forkDefaultName(ctx, parent)), parent)),
      describe: `fork "${body.name ?? 'of ' + parent}"`,
      retryAfterConflict: () => waitIfServiceSettling(ctx, action, parent),
      pauseAfterConflict: waitForFirstBackup(ctx, action, action.refs.forkParent, parent),
    });
  } catch (err) {
    if (createdNothing(err)) await abandonRestore(ctx, action, parent, body.name);
    throw err;
  }
  return finishServiceCreate(ctx, action, outcome);
}

function unbound<T extends { id: string }>(ctx: ActionContext, found: T[]): T[] {
  const bound = new Set(Object.values(ctx.bindings.peek().resources).map((e) => e.id));
  return found.filter((f) => !bound.has(f.id));
}

/**
 * The API refused a restore's fork (a time beyond its retention, say): nothing was made, so the
 * restore is no longer under way (SPEC section 17). Its marks go, the address stays bound to the
 * original, and the next plan is an ordinary one instead of the same refused fork again.
 */
async function abandonRestore(ctx: ActionContext, action: Action, originalId: string, name: string | undefined): Promise<void> {
  const resources = ctx.bindings.peek().resources;
  const entry = resources[action.address];
  if (!entry?.restoring) return;
  const { retireAs, targetTime } = entry.restoring;
  const marked = Object.keys(resources).filter((a) => a === action.address || (parentAddressOf(a) === action.address && resources[a]!.restoring));
  await Promise.all(marked.map((a) => ctx.bindings.update(a, { restoring: undefined })));
  const renamedBack = name === undefined ? undefined : await undoRename(ctx, originalId, stampOf(retireAs), name);
  ctx.emit({
    type: 'warning',
    address: action.address,
    message: `the restore to ${targetTime} was not made: the API refused its fork, so ${action.address} stays bound to ${entry.id}${renamedBack ?? ''} and no restore is under way`,
  });
}

/** Where the restore renamed the original first, its name back (what the config calls it): ", renamed back to ...". */
async function undoRename(ctx: ActionContext, originalId: string, stamp: string | undefined, name: string): Promise<string | undefined> {
  try {
    const original = (await ctx.api.listServices(ctx.projectId)).find((s) => s.service_id === originalId);
    if (stamp === undefined || !original?.name?.endsWith(`-before-${stamp}`)) return undefined;
    await ctx.api.sendOperation('renameService', { project_id: ctx.projectId, service_id: originalId }, { name });
    return `, renamed back to "${name}"`;
  } catch (err) {
    return ` (still named for the restore: renaming it back failed, ${err instanceof Error ? err.message : String(err)}; the next plan renames it)`;
  }
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
  await waitAlongside(ctx, bookkeeping, (c) => c.waits.until('service', { id }, 'ready', waitOptions(c, action)));
  return { resourceId: id, adopted: 'adoptedId' in outcome };
}

async function deleteService(ctx: ActionContext, action: Action): Promise<ActionOutcome> {
  const id = idOf(ctx, action, 'service');
  const host = await hostToForget(ctx, id);
  try {
    await ignoreNotFound(() => ctx.api.deleteService(ctx.projectId, id));
  } catch (err) {
    // A service already being deleted (an earlier, interrupted apply) is on its way: just wait.
    if (!isConflict(err) || !(await isBeingDeleted(ctx, id))) throw err;
  }
  await recordDeleted(ctx, action, id);
  await forgetHost(ctx, action, host);
  await ctx.waits.until('service', { id }, 'gone', waitOptions(ctx, action));
  return {};
}

async function isBeingDeleted(ctx: ActionContext, id: string): Promise<boolean> {
  const svc = (await ctx.api.listServices(ctx.projectId)).find((s) => s.service_id === id);
  return svc === undefined || svc.status === 'DELETING' || svc.status === 'DELETED';
}

type Send = (ctx: ActionContext, id: string) => Promise<Dto.ServiceDto | undefined>;

/** Async service operations: send (waiting out transitions), show the status, wait as the op table says. */
async function transition(ctx: ActionContext, action: Action, send: Send, achieved: (s: Dto.ServiceDto) => boolean): Promise<ActionOutcome> {
  const id = idOf(ctx, action, 'service');
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

function resizeService(ctx: ActionContext, a: Action): Promise<ActionOutcome> {
  const body = requestOf<Dto.ResizeRequestDto>(a);
  return transition(ctx, a, (c, id) => c.api.resizeService(c.projectId, id, body), sizeIs(body));
}
function setHAReplica(ctx: ActionContext, a: Action): Promise<ActionOutcome> {
  const body = requestOf<Dto.SetHaRequestDto>(a);
  return transition(ctx, a, (c, id) => c.api.setHAReplica(c.projectId, id, body), haIs(body));
}
const startService = (ctx: ActionContext, a: Action) =>
  transition(ctx, a, (c, id) => c.api.startService(c.projectId, id), (s) => s.status === 'READY' || s.status === 'RESUMING');
const stopService = (ctx: ActionContext, a: Action) =>
  transition(ctx, a, (c, id) => c.api.stopService(c.projectId, id), (s) => s.status === 'PAUSED' || s.status === 'PAUSING');

const attachedTo = (s: Dto.ServiceDto): string | undefined => (s.vpc_endpoint ?? s.vpcEndpoint)?.vpc_id;

async function attachToVpc(ctx: ActionContext, action: Action): Promise<ActionOutcome> {
  const id = idOf(ctx, action, 'service');
  const vpc = idOf(ctx, action, 'vpc');
  const body = { ...requestOf<Dto.VpcAttachmentRequestDto>(action), vpc_id: vpc };
  const before = await endpointForPgpass(ctx, id);
  await sendWhenServiceSettled(ctx, action, id, () => ctx.api.attachServiceToVPC(ctx.projectId, id, body), {
    achieved: (s) => attachedTo(s) === vpc,
    retryWhenReady: true,
  });
  await ctx.waits.until('service', { id }, 'attachment', waitOptions(ctx, action), { vpcId: vpc, fromVpcId: null });
  await followEndpoint(ctx, action, id, before);
  return {};
}

async function detachFromVpc(ctx: ActionContext, action: Action): Promise<ActionOutcome> {
  const id = idOf(ctx, action, 'service');
  const vpc = idOf(ctx, action, 'vpc');
  const body = { ...requestOf<Dto.VpcAttachmentRequestDto>(action), vpc_id: vpc };
  const before = await endpointForPgpass(ctx, id);
  // While a detach is pending the endpoint is still shown: a 409 then means "send again later".
  await sendWhenServiceSettled(ctx, action, id, () => ctx.api.detachServiceFromVPC(ctx.projectId, id, body), {
    achieved: (s) => attachedTo(s) !== vpc,
    retryWhenReady: true,
  });
  await ctx.waits.until('service', { id }, 'attachment', waitOptions(ctx, action), { vpcId: null, fromVpcId: vpc });
  await followEndpoint(ctx, action, id, before);
  return {};
}

/** The password comes from the environment at apply time and goes only to the API. */
async function updatePassword(ctx: ActionContext, action: Action): Promise<ActionOutcome> {
  const spec = action.password;
  if (!spec) throw new ActionInputError('the plan does not say which environment variable holds the password');
  const password = ctx.env[spec.fromEnv];
  if (password === undefined || password === '') {
    throw new ActionInputError(`environment variable ${spec.fromEnv} (password.from_env of ${action.address}) is not set or empty`);
  }
  const id = idOf(ctx, action, 'service');
  await ctx.api.updatePassword(ctx.projectId, id, { password });
  await ctx.bindings.update(action.address, { passwordVersion: spec.version });
  await saveConfiguredPassword(ctx, action, id, password);
  return {};
}

export const serviceHandlers: Partial<Record<OperationId, Handler>> = {
  createService,
  forkService,
  deleteService,
  resizeService,
  setHAReplica,
  startService,
  stopService,
  attachServiceToVPC: attachToVpc,
  detachServiceFromVPC: detachFromVpc,
  updatePassword,
};
