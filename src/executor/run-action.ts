// One registry from operation to handler (decK's crud registry in miniature): the executor's
// column of the op table. `sendOperation` sends an op as its row says and waits as it says.
import type { Action, OperationId } from '../model/index.js';
import type { ActionContext, ActionOutcome } from './action-context.js';
import * as rs from './ops-replica-set.js';
import * as svc from './ops-service.js';
import * as vpc from './ops-vpc.js';
import { sendOperation } from './send-operation.js';

type Handler = (ctx: ActionContext, action: Action) => Promise<ActionOutcome>;

const HANDLERS: Record<OperationId, Handler> = {
  createVPC: vpc.createVpc,
  renameVPC: sendOperation,
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
  enablePooler: sendOperation,
  disablePooler: sendOperation,
  setEnvironment: sendOperation,
  attachServiceToVPC: svc.attachToVpc,
  detachServiceFromVPC: svc.detachFromVpc,
  updatePassword: svc.updatePassword,
  createReplicaSet: rs.createReplicaSet,
  deleteReplicaSet: rs.deleteReplicaSet,
  resizeReplicaSet: rs.resizeReplicaSet,
  enableReplicaPooler: sendOperation,
  disableReplicaPooler: sendOperation,
  setReplicaEnvironment: sendOperation,
};

export function runAction(ctx: ActionContext, action: Action): Promise<ActionOutcome> {
  const handler = HANDLERS[action.op];
  if (!handler) return Promise.reject(new Error(`unknown operation ${String(action.op)}`));
  return handler(ctx, action);
}
