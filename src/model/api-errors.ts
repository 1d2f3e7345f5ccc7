// Errors of the API layer. Each message is meant to be read by a person who can act on it; the
// fields let code (the apply engine, the CLI) decide without parsing the message. They live in the
// model, not in src/api, so that the engine can classify a failure (a 409, a lost create, a wait
// that timed out) without importing the client: it reaches the API only through its port.
import { DbformError } from './errors.js';
import type { OperationId } from './operations.js';

export interface ApiErrorInit {
  /** HTTP status, or 0 when no HTTP answer arrived (connection refused, reset, timeout). */
  status: number;
  /** The API's upper-snake `code`, or a client-side one: CONNECTION_FAILED, TIMEOUT, INVALID_RESPONSE. */
  code: string;
  /** The API's own message (or a description of the transport failure), already scrubbed of secrets. */
  apiMessage: string;
  details?: string;
  method: string;
  /** Path below the base URL, e.g. `/projects/p/services/s/resize`. */
  path: string;
  cause?: unknown;
  /** An earlier attempt of the same call had an unknown outcome, so it may have taken effect. */
  afterUnknownOutcome?: boolean;
}

/** An API call that failed: an HTTP error answer, an unusable body, or no answer at all. */
export class ApiError extends DbformError {
  readonly status: number;
  readonly code: string;
  readonly apiMessage: string;
  readonly details: string | undefined;
  readonly method: string;
  readonly path: string;
  readonly afterUnknownOutcome: boolean;

  constructor(message: string, init: ApiErrorInit) {
    super(message, { cause: init.cause });
    this.status = init.status;
    this.code = init.code;
    this.apiMessage = init.apiMessage;
    this.details = init.details;
    this.method = init.method;
    this.path = init.path;
    this.afterUnknownOutcome = init.afterUnknownOutcome ?? false;
  }

  /** True when no HTTP answer arrived (refused, reset, timed out). */
  get isTransport(): boolean {
    return this.status === 0;
  }
}

/**
 * A create whose outcome is unknown: the request may have been processed but its answer was lost
 * (timeout, connection reset after sending, 500/502/504). It is never re-sent blindly; the apply
 * engine lists the resources and adopts the one named `requestName` (SPEC section 5).
 */
export class AmbiguousCreateError extends DbformError {
  readonly op: OperationId;
  /** The `name` sent in the request; undefined for a fork without a name (API default `<parent>-fork`). */
  readonly requestName: string | undefined;
  readonly method: string;
  readonly path: string;

  constructor(init: { op: OperationId; requestName: string | undefined; method: string; path: string; cause: unknown }) {
    const what = init.requestName === undefined ? '' : ` "${init.requestName}"`;
    const why = init.cause instanceof Error ? init.cause.message : String(init.cause);
    super(
      `${init.op}${what}: the outcome is unknown (${why}); the request was not re-sent, to avoid a duplicate. ` +
        'List the resources to find out whether it was created.',
      { cause: init.cause },
    );
    this.op = init.op;
    this.requestName = init.requestName;
    this.method = init.method;
    this.path = init.path;
  }
}

/** A wait that did not reach its condition within its time limit. */
export class WaitTimeoutError extends DbformError {
  readonly resource: string;
  readonly lastStatus: string | undefined;
  readonly timeoutMs: number;
  /** The last status is not one the API documents: the wait could not know what it meant. */
  readonly unknownStatus: boolean;

  constructor(resource: string, timeoutMs: number, lastStatus: string | undefined, lastError?: unknown, unknownStatus = false) {
    const err = lastError instanceof Error ? `; last poll error: ${lastError.message}` : '';
    super(`timed out after ${formatDuration(timeoutMs)} waiting for ${resource} (${describeLastStatus(lastStatus, unknownStatus)}${err})`);
    this.resource = resource;
    this.lastStatus = lastStatus;
    this.timeoutMs = timeoutMs;
    this.unknownStatus = unknownStatus;
  }
}

/** `last status QUEUED`, naming a status dbform does not know as such. */
export function describeLastStatus(lastStatus: string | undefined, unknown: boolean): string {
  if (lastStatus === undefined) return 'no status observed';
  return unknown ? `last status ${lastStatus}, a status dbform does not know` : `last status ${lastStatus}`;
}

/**
 * A wait that can never succeed: the resource failed (a status its kind calls failed) or
 * disappeared. `message` carries the resource's own error text when it has one.
 */
export class WaitFailedError extends DbformError {
  readonly resource: string;
  readonly status: string | undefined;

  constructor(resource: string, status: string | undefined, reason: string) {
    super(`${resource} ${reason}`);
    this.resource = resource;
    this.status = status;
  }
}

export function formatDuration(ms: number): string {
  if (ms < 1000) return `${Math.round(ms)} ms`;
  if (ms < 120_000) return `${Math.round(ms / 100) / 10} s`;
  return `${Math.round(ms / 6000) / 10} min`;
}
