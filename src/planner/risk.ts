// Risk classes and blocking (SPEC section 3). Impact is decided per action, like CDK's
// per-property update/replace/destroy, and the plan is blocked when any action is.
import type { Address, OperationId, Risk } from '../model/index.js';
import { isDeleteOp, type Draft } from './drafts.js';

const OP_RISK: Partial<Record<OperationId, Risk>> = {
  deleteService: 'data-loss',
  detachServiceFromVPC: 'connectivity',
  deleteVPCPeering: 'connectivity',
  deleteVPC: 'connectivity',
  disablePooler: 'connectivity',
  disableReplicaPooler: 'connectivity',
  stopService: 'availability',
  deleteReplicaSet: 'availability',
};

const isReduction = (d: Draft) =>
  d.changes.some((c) => c.path.startsWith('ha.') && typeof c.before === 'number' && typeof c.after === 'number' && c.after < c.before);

export function riskOf(d: Draft): Risk {
  if (d.op === 'setHAReplica') return isReduction(d) ? 'availability' : 'none';
  return OP_RISK[d.op] ?? 'none';
}

/** Where a resource's protection comes from: the config, or the lockfile once the block is gone. */
export type ProtectSource = 'config' | 'lockfile';

export function blockReason(d: Draft, risk: Risk, protectedBy: Map<Address, ProtectSource>, allowDataLoss: boolean): string | undefined {
  const source = protectedBy.get(d.address);
  if (source !== undefined && isDeleteOp(d.op)) {
    const how =
      source === 'config'
        ? 'set protect: false and apply that first'
        : 'the lockfile still records protect: true; put the block back with protect: false and apply that first';
    return `protected: ${d.address} has protect: true, so it cannot be deleted or replaced (${how})`;
  }
  if (risk === 'data-loss' && !allowDataLoss) {
    return `data-loss: ${d.op} destroys ${d.address} and its data; re-run with --allow-data-loss to allow it`;
  }
  return undefined;
}
