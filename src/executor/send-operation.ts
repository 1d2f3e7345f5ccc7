// The generic handler and the waits of the op table. An operation that creates nothing and needs
// no read-back (renames, metadata, feature switches) is sent as its table row says, with the IDs
// its route names taken from the action's refs, then waited for as the row says.
import { kindDef, OPERATIONS, operationParams } from '../kinds/index.js';
import type { Action, Kind, RouteIds } from '../model/index.js';
import { idOf, targetId, waitOptions, type ActionContext, type ActionOutcome } from './action-context.js';
import { ActionInputError } from './errors.js';

/**
 * The ID of a route placeholder: the project, or `{<kind>_id}`: the resource the action acts on
 * when that is its kind, else the one of that kind its refs name (a child's parent).
 */
function routeId(ctx: ActionContext, action: Action, name: string): string {
  if (name === 'project_id') return ctx.projectId;
  const kind = name.endsWith('_id') ? (name.slice(0, -'_id'.length) as Kind) : undefined;
  if (kind === undefined || kindDef(kind) === undefined) throw new ActionInputError(`${action.op}: no way to resolve {${name}} of its route`);
  return kind === action.kind ? targetId(ctx, action) : idOf(ctx, action, kind);
}

/** Each placeholder of the action's route, resolved: the project, then the resources its refs name. */
export function routeIds(ctx: ActionContext, action: Action): RouteIds {
  const ids: Record<string, string> = {};
  for (const name of operationParams(action.op)) ids[name] = routeId(ctx, action, name);
  return ids;
}

export async function sendOperation(ctx: ActionContext, action: Action): Promise<ActionOutcome> {
  const ids = routeIds(ctx, action);
  await ctx.api.sendOperation(action.op, ids, action.request);
  await waitAsTableSays(ctx, action, ids);
  return {};
}

/**
 * The wait of the action's row, on the resource `ids` names (and its parent, for a kind whose
 * lists are its parent's). An attach or detach waits for a VPC that only its handler knows (the
 * one attached to, or left), so it has no generic form.
 */
export async function waitAsTableSays(ctx: ActionContext, action: Action, ids: RouteIds): Promise<void> {
  const wait = OPERATIONS[action.op].wait;
  if (wait === 'none') return;
  if (wait === 'attachment') throw new ActionInputError(`${action.op} waits for an attachment, which only its own handler knows`);
  const parent = kindDef(action.kind).parent;
  const id = ids[`${action.kind}_id`] ?? targetId(ctx, action);
  const parentId = parent === undefined ? undefined : (ids[`${parent}_id`] ?? targetId(ctx, action));
  await ctx.waits.until(action.kind, { id, ...(parentId !== undefined ? { parentId } : {}) }, wait, waitOptions(ctx, action));
}
