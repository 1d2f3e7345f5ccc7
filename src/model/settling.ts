// Transitional statuses (SPEC section 5): a resource in one is still changing, from an earlier
// (perhaps interrupted) apply or from outside dbform. Apply waits until none of the resources the
// config manages is in one before it reports success, and `plan` lists them as settling. Which
// statuses are transitional each kind says (its `live.settling`); a resource being deleted counts
// as gone instead.
import type { Address, Kind } from './address.js';

/** A managed resource still in transition when the plan was made. */
export interface SettlingResource {
  address: Address;
  kind: Kind;
  id: string;
  /** The ID of the resource it belongs to, for a kind with a parent (the waits read it from the parent's list). */
  parentId?: string;
  /** The transitional status seen when planning. */
  status: string;
}
