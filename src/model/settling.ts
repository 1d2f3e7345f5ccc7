// Transitional statuses (SPEC section 5): a resource in one of these is still changing, from an
// earlier (perhaps interrupted) apply or from outside dbform. Apply waits until none of the
// resources the config manages is in one before it reports success, and `plan` lists them as
// settling. Deleting statuses are not here: a resource being deleted counts as gone.
import type { Address, Kind } from './address.js';

const SERVICE = new Set(['QUEUED', 'CONFIGURING', 'UPGRADING', 'PAUSING', 'RESUMING']);
const REPLICA_SET = new Set(['creating', 'resizing']);

export const isServiceSettling = (status: string): boolean => SERVICE.has(status);
export const isReplicaSetSettling = (status: string): boolean => REPLICA_SET.has(status);
/** The peering status is a free string (cloud-api.md 3.3); the real service spells it PENDING. */
export const isPeeringSettling = (status: string | undefined): boolean => status?.toLowerCase() === 'pending';

/** A managed resource still in transition when the plan was made. */
export interface SettlingResource {
  address: Address;
  kind: Kind;
  id: string;
  /** Replica set: its service's ID; peering: its VPC's ID (the waits read it from their lists). */
  parentId?: string;
  /** The transitional status seen when planning. */
  status: string;
}
