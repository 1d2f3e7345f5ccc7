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
  /** The resource a resource of a child kind belongs to (its parent's address). */
  owner?: Address;
  /** A resource that must exist first: the draft waits for its create. */
  needs?: Address;
  /** `kind:id` (liveKey) of a live resource whose delete must wait for this draft (a detach, a child's delete). */
  frees?: string;
  /**
   * A delete or a rename: the name it frees within its owner (or, for a kind without one, among
   * that kind's resources), for a create of that name to wait for.
   */
  freesName?: string;
  /** A resource created from another one (a fork): that one must be ready, and stays up, until it is done. */
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
