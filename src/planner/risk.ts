// Risk classes and blocking (SPEC section 3). Impact is decided per action, like CDK's
// per-property update/replace/destroy, and the plan is blocked when any action is.
import { isDeleteOp, operationRisk } from '../kinds/index.js';
import type { Address, Risk } from '../model/index.js';
import type { Draft } from './drafts.js';

export function riskOf(d: Draft): Risk {
  return operationRisk(d.op, d.changes);
}

/** Where a resource's protection comes from: the config, or the lockfile once the block is gone. */
export type ProtectSource = 'config' | 'lockfile';

export function blockReason(d: Draft, risk: Risk, protectedBy: Map<Address, ProtectSource>, allowDataLoss: boolean): string | undefined {
  const source = protectedBy.get(d.address);
  if (source !== undefined && isDeleteOp(d.op)) {
    const how =
      source === 'config'
        ? 'set protect: false and apply that first'
        : 'the state still records protect: true; put the block back with protect: false and apply that first';
    return `protected: ${d.address} has protect: true, so it cannot be deleted or replaced (${how})`;
  }
  if (risk === 'data-loss' && !allowDataLoss) {
    return `data-loss: ${d.op} destroys ${d.address} and its data; re-run with --allow-data-loss to allow it`;
  }
  return undefined;
}
