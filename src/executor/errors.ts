import { ApiError } from '../api/errors.js';
import { DbformError, type Address, type OperationId } from '../model/index.js';

/**
 * One action's failure: "createService service.metrics failed: 409 CONFLICT ...". `cause` keeps
 * the original error (an ApiError, a wait failure, ...); the message carries only its text.
 */
export class ActionError extends DbformError {
  readonly address: Address;
  readonly op: OperationId;
  constructor(address: Address, op: OperationId, cause: unknown) {
    super(`${op} ${address} failed: ${describeCause(cause)}`, { cause });
    this.address = address;
    this.op = op;
  }
}

/** Another apply holds the lockfile's apply lock. */
export class ApplyLockHeldError extends DbformError {}

/** A failure whose message is already written for a person (missing env var, unknown ID, ...). */
export class ActionInputError extends DbformError {}

/** Text of an error as a person should read it: the API's own message when there is one. */
export function describeCause(cause: unknown): string {
  if (cause instanceof ApiError && cause.status > 0 && cause.status !== 401) {
    const details = cause.details ? ` (${cause.details})` : '';
    return `${cause.status} ${cause.code}: ${cause.apiMessage}${details}`;
  }
  if (cause instanceof Error) return cause.message;
  return String(cause);
}
