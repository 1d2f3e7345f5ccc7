// The generic handler and the waits of the op table. An operation that creates nothing and needs
// no read-back (renames, metadata, feature switches) is sent as its table row says, with the IDs
// its route names taken from the action's refs, then waited for as the row says.
import { type Action, type RouteIds } from '../model/index.js';
import { serviceId, targetId, vpcId, waitOptions, type ActionContext, type ActionOutcome } from './action-context.js';
import { ActionInputError } from './errors.js';
import { OPERATIONS, operationParams } from '../kinds/index.js';

const ROUTE_ID: Record<string, (ctx: ActionContext, action: Action) => string> = {
  project_id: (ctx) => ctx.projectId,
  service_id: serviceId,
  vpc_id: vpcId,
  replica_set_id: targetId,
  peering_id: targetId,
};

/** Each placeholder of the action's route, resolved: the project, then the resources its refs name. */
export function routeIds(ctx: ActionContext, action: Action): RouteIds {
  const ids: Record<string, string> = {};
  for (const name of operationParams(action.op)) {
    const resolve = ROUTE_ID[name];
    if (!resolve) throw new ActionInputError(`${action.op}: no way to resolve {${name}} of its route`);
    ids[name] = resolve(ctx, action);
  }
  return ids;
}

export async function sendOperation(ctx: ActionContext, action: Action): Promise<ActionOutcome> {
  const ids = routeIds(ctx, action);
  await ctx.api.sendOperation(action.op, ids, action.request);
  await waitAsTableSays(ctx, action, ids);
  return {};
}

/**
 * The wait of the action's row, on the resources `ids` names. An attach or detach waits for a
 * VPC that only its handler knows (the one attached to, or left), so it has no generic form.
 */
export async function waitAsTableSays(ctx: ActionContext, action: Action, ids: RouteIds): Promise<void> {
  const o = waitOptions(ctx, action);
  const wait = OPERATIONS[action.op].wait;
  const id = (name: string) => ids[name] ?? targetId(ctx, action);
  switch (`${action.kind}:${wait}`) {
    case 'service:ready':
      return ctx.waits.serviceStatus(id('service_id'), 'READY', o);
    case 'service:paused':
      return ctx.waits.serviceStatus(id('service_id'), 'PAUSED', o);
    case 'service:gone':
      return ctx.waits.serviceGone(id('service_id'), o);
    case 'replica_set:ready':
      return ctx.waits.replicaSetActive(id('service_id'), id('replica_set_id'), o);
    case 'replica_set:gone':
      return ctx.waits.replicaSetGone(id('service_id'), id('replica_set_id'), o);
    case 'peering:ready':
      return ctx.waits.peeringSettled(id('vpc_id'), id('peering_id'), o);
    case 'peering:gone':
      return ctx.waits.peeringGone(id('vpc_id'), id('peering_id'), o);
    case 'vpc:ready':
      return ctx.waits.vpcSettled(id('vpc_id'), o);
    case 'service:attachment':
      throw new ActionInputError(`${action.op} waits for a VPC attachment, which only its own handler knows`);
    default:
      return;
  }
}
