// One registry from operation to handler (decK's crud registry in miniature): the executor's
// column of the op table. An op that is safe to repeat and has no handler of its own is sent as
// its row says and waited for as it says (`sendOperation`).
import { OPERATIONS } from '../kinds/index.js';
import type { Action, OperationId } from '../model/index.js';
import type { ActionContext, ActionOutcome } from './action-context.js';
import * as rs from './ops-replica-set.js';
import * as svc from './ops-service.js';
import * as vpc from './ops-vpc.js';
import { sendOperation } from './send-operation.js';

type Handler = (ctx: ActionContext, action: Action) => Promise<ActionOutcome>;

const HANDLERS: Partial<Record<OperationId, Handler>> = {
  createVPC: vpc.createVpc,
  deleteVPC: vpc.deleteVpc,
  createVPCPeering: vpc.createPeering,
  deleteVPCPeering: vpc.deletePeering,
  createService: svc.createService,
  forkService: svc.forkService,
  deleteService: svc.deleteService,
  resizeService: svc.resizeService,
  setHAReplica: svc.setHAReplica,
  startService: svc.startService,
  stopService: svc.stopService,
  attachServiceToVPC: svc.attachToVpc,
  detachServiceFromVPC: svc.detachFromVpc,
  updatePassword: svc.updatePassword,
  createReplicaSet: rs.createReplicaSet,
  deleteReplicaSet: rs.deleteReplicaSet,
  resizeReplicaSet: rs.resizeReplicaSet,
};

export function runAction(ctx: ActionContext, action: Action): Promise<ActionOutcome> {
  const handler = HANDLERS[action.op] ?? (OPERATIONS[action.op]?.safety === 'repeatable' ? sendOperation : undefined);
  if (!handler) return Promise.reject(new Error(`unknown operation ${String(action.op)}`));
  return handler(ctx, action);
}
