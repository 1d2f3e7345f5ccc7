import { ApiError, DbformError, describeLastStatus, formatDuration, WaitTimeoutError, type Address } from '../model/index.js';
import type { StepOp } from './events.js';

/**
 * One action's failure: "createService service.metrics failed: 409 CONFLICT ...". `cause` keeps
 * the original error (an ApiError, a wait failure, ...); the message carries only its text.
 */
export class ActionError extends DbformError {
  readonly address: Address;
  readonly op: StepOp;
  constructor(address: Address, op: StepOp, cause: unknown) {
    super(`${op} ${address} failed: ${describeCause(cause)}`, { cause });
    this.address = address;
    this.op = op;
  }
}

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

/** A wait cut short by the step's deadline reports the whole --timeout, not what was left of it. */
export function asActionTimeout(err: unknown, timeoutMs: number): unknown {
  if (!(err instanceof WaitTimeoutError)) return err;
  return new DbformError(`timed out after ${formatDuration(timeoutMs)} waiting for ${err.resource} (${describeLastStatus(err.lastStatus, err.unknownStatus)})`, { cause: err });
}

/** Whether an error is the abort of a wait or request (the first Ctrl-C). */
export function isAbort(err: unknown): boolean {
  const name = (err as { name?: string } | null)?.name;
  return name === 'AbortError' || name === 'InterruptedError';
}

// ---- how the engine reads the client's errors: questions (is it a 404? a 409?) in one place ---

export function isNotFound(err: unknown): boolean {
  return err instanceof ApiError && err.status === 404;
}

export function isConflict(err: unknown): boolean {
  return err instanceof ApiError && err.status === 409;
}

/** A delete of something already gone has done its job. */
export async function ignoreNotFound(run: () => Promise<unknown>): Promise<void> {
  try {
    await run();
  } catch (err) {
    if (!isNotFound(err)) throw err;
  }
}
