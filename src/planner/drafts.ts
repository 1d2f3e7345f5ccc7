// Actions under construction. A draft becomes an Action once the whole plan is known: ids are
// assigned in plan order and dependency keys become action ids (see ordering.ts).
import type { Action, ActionReason, Address, FieldChange, Kind, OperationId } from '../model/index.js';

/**
 * Every resource gets each operation at most once per plan, so a draft is identified by
 * `address#op`, and sorting a resource's drafts by the op table's rank gives the chain in which
 * they run (SPEC section 3: one at a time, in plan order).
 */
export interface Draft {
  key: string;
  address: Address;
  kind: Kind;
  op: OperationId;
  reason: ActionReason;
  changes: FieldChange[];
  refs: Action['refs'];
  request?: Record<string, unknown>;
  password?: Action['password'];
  protect?: boolean;
  // Ordering facts (not part of the Action):
  /** Replica set: its service; peering: its VPC. */
  owner?: Address;
  /** attachServiceToVPC: the VPC that must exist first. */
  needsVpc?: Address;
  /** detach, deleteService, deleteVPCPeering: the live VPC ID this action frees for deletion. */
  freesVpcId?: string;
  /** deleteReplicaSet: the name it frees within its service (names are unique there). */
  freesName?: string;
  /** forkService: the parent service that must be READY. */
  forkParent?: Address;
}

export type DraftInit = Omit<Draft, 'key' | 'changes' | 'refs'> & Partial<Pick<Draft, 'changes' | 'refs'>>;

export function draft(init: DraftInit): Draft {
  return { changes: [], refs: {}, ...init, key: `${init.address}#${init.op}` };
}

export { fieldChange as change, SENSITIVE, sensitiveChange } from '../model/index.js';

/** Reason for the create of a resource that is not live: drift when the lockfile had its ID. */
export function createReason(hadLockEntry: boolean): ActionReason {
  return hadLockEntry ? 'drift' : 'missing';
}
