// The state store's failures, each with what a person needs to act on it.
import { DbformError } from '../model/index.js';

/** A compare-and-swap write lost: the state changed since it was read. Nothing was written. */
export class StateConflictError extends DbformError {}

/** A resource ID is already bound by another workspace of the project. Nothing was written. */
export class ClaimConflictError extends DbformError {
  readonly resourceId: string;
  readonly workspace: string;
  readonly address: string;
  constructor(message: string, claim: { resourceId: string; workspace: string; address: string }) {
    super(message);
    this.resourceId = claim.resourceId;
    this.workspace = claim.workspace;
    this.address = claim.address;
  }
}

/** Another run holds the state lock (the message names it). */
export class StateLockHeldError extends DbformError {}

/** The state database cannot be reached (or was lost): host, port and the reason, never a password. */
export class StateUnavailableError extends DbformError {}

/** The state database's schema is not one this dbform can use (made by a newer version, ...). */
export class StateSchemaError extends DbformError {}

/** `workspace delete` of a workspace that still binds resources. */
export class WorkspaceNotEmptyError extends DbformError {}
