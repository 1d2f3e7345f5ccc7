// What the pgpass file holds about a service: its initial password after a create, the
// configured one once updatePassword set it, and nothing once dbform deleted it (SPEC section 5).
import { describeFileError } from '../lockfile/file-errors.js';
import type { Action } from '../model/index.js';
import type { ActionContext } from './action-context.js';
import { ActionInputError } from './errors.js';
import type { Dto } from './ports.js';

const LOGIN = { database: 'tsdb', user: 'tsdbadmin' } as const;

export async function saveInitialPassword(ctx: ActionContext, action: Action, svc: Dto.ServiceDto): Promise<void> {
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
export async function saveConfiguredPassword(ctx: ActionContext, action: Action, serviceId: string, password: string): Promise<void> {
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
export async function hostToForget(ctx: ActionContext, serviceId: string): Promise<string | undefined> {
  if (!ctx.pgpass || !(await ctx.pgpass.exists())) return undefined;
  try {
    return (await ctx.api.getService(ctx.projectId, serviceId)).endpoint?.host;
  } catch {
    // Gone already, or unreadable: the delete itself decides what happens; the lines stay.
    return undefined;
  }
}

export async function forgetHost(ctx: ActionContext, action: Action, host: string | undefined): Promise<void> {
  if (!ctx.pgpass || host === undefined) return;
  try {
    await ctx.pgpass.removeHost(host);
  } catch (err) {
    ctx.emit({ type: 'warning', address: action.address, message: `its lines in ${ctx.pgpass.path} could not be removed (${describeFileError(err)})` });
  }
}
