// One attempt of a request as the transport sees it: what came back (an answer, a timeout, a
// network failure), how that reads as a retry outcome (retry.ts), its debug summary, and the
// error a person reads when it was the last attempt.
import type { OperationId } from '../model/operations.js';
import { credentialNoun, type ApiCredentials } from './credentials.js';
import { AmbiguousCreateError, ApiError } from './errors.js';
import type { RequestSpec } from './http.js';
import type { JsonArrayReader } from './json-array.js';
import { describeHttpError, readErrorBody, scrub } from './messages.js';
import { parseRetryAfter, parseRetryAfterMs, type AttemptOutcome } from './retry.js';

/** Network errors raised before the request was written: nothing was sent. */
export const NOT_SENT_CODES = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH', 'EADDRNOTAVAIL', 'UND_ERR_CONNECT_TIMEOUT']);

/** What a message about a failed attempt names: the API's URL, the time limit, the kind of credential. */
export interface AttemptContext {
  where: string;
  timeoutMs: number;
  credentials: ApiCredentials;
}

export interface HttpResult {
  status: number;
  /** The body; '' when it was parsed as it arrived (`parsed`). */
  text: string;
  parsed?: JsonArrayReader;
  retryAfter: string | string[] | undefined;
  retryAfterMs: string | string[] | undefined;
}
export type AttemptResult = HttpResult | { failure: 'timeout'; error: unknown } | { failure: 'network'; error: unknown; sent: boolean; tls?: boolean };

const TLS_CODE = /^(ERR_SSL_|ERR_TLS_|EPROTO$)|CERT|SELF_SIGNED|UNABLE_TO_(GET|VERIFY)/;

/** Whether the connection failed in its TLS handshake (certificate, protocol): no retry can fix that. */
export function isTlsFailure(err: unknown): boolean {
  return TLS_CODE.test(errorCode(err));
}

/**
 * An error message on one line, without OpenSSL's internal location
 * (`error:0A00010B:SSL routines:...:../deps/openssl/...:354:`).
 */
function oneLine(text: string): string {
  return text
    .replace(/\s*\n\s*/g, ' ')
    .replace(/[0-9A-F]{8,}:error:[0-9A-F]+:(SSL routines:)?[^ ]*:([^:]+):\S*/g, '$2')
    .trim();
}

/** The error of a create whose outcome is unknown (see retry.ts). */
export function ambiguousCreate(spec: RequestSpec, cause: unknown): AmbiguousCreateError {
  return new AmbiguousCreateError({ op: spec.op as OperationId, requestName: spec.requestName, method: spec.method, path: spec.path, cause });
}

export function toOutcome(result: AttemptResult): AttemptOutcome {
  if ('status' in result) {
    const retryAfterMs = parseRetryAfterMs(result.retryAfterMs) ?? parseRetryAfter(result.retryAfter);
    return retryAfterMs === undefined ? { kind: 'response', status: result.status } : { kind: 'response', status: result.status, retryAfterMs };
  }
  if (result.failure === 'timeout') return { kind: 'timeout' };
  return result.tls ? { kind: 'network', sent: false, permanent: true } : { kind: 'network', sent: result.sent };
}

export function summarize(result: AttemptResult, secrets: string[]): string {
  if ('status' in result) {
    if (result.status < 400) return String(result.status);
    return `${result.status} ${readErrorBody(result.text, result.status).code}`;
  }
  if (result.failure === 'timeout') return 'timeout';
  return scrub(`${errorCode(result.error) || 'network error'}${result.sent ? '' : ' (not sent)'}`, secrets);
}

export function errorCode(err: unknown): string {
  const e = err as { code?: unknown; cause?: { code?: unknown } } | null;
  if (typeof e?.code === 'string') return e.code;
  if (typeof e?.cause?.code === 'string') return e.cause.code;
  return '';
}

function errorMessage(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

/**
 * The error of a call whose last attempt failed: the API's own answer, or what went wrong on the
 * way, with the secrets of the request scrubbed.
 */
export function attemptError(spec: RequestSpec, result: AttemptResult, attempts: number, secrets: string[], afterUnknownOutcome: boolean, ctx: AttemptContext): ApiError {
  const base = { method: spec.method, path: spec.path, afterUnknownOutcome };
  if ('status' in result) {
    const error = readErrorBody(result.text, result.status);
    const clean = { code: error.code, message: scrub(error.message, secrets), details: error.details && scrub(error.details, secrets) };
    const message = describeHttpError({ op: spec.op, path: spec.path, status: result.status, error: clean, attempts, credential: credentialNoun(ctx.credentials) });
    return new ApiError(message, { ...base, status: result.status, code: clean.code, apiMessage: clean.message, details: clean.details });
  }
  const where = ctx.where;
  const tries = attempts > 1 ? ` (${attempts} attempts)` : '';
  if (result.failure === 'timeout') {
    const message = `${spec.op}: no answer from the API at ${where} within ${ctx.timeoutMs} ms${tries}`;
    return new ApiError(message, { ...base, status: 0, code: 'TIMEOUT', apiMessage: 'timed out', cause: result.error });
  }
  const code = errorCode(result.error) || 'NETWORK_ERROR';
  const detail = scrub(oneLine(errorMessage(result.error)), secrets);
  if (result.tls) {
    const message = `cannot open a secure (TLS) connection to the API at ${where} (${code}: ${detail}); check that the URL's scheme is right (https or http) and that the server's certificate is trusted (NODE_EXTRA_CA_CERTS names extra CA certificates)`;
    return new ApiError(message, { ...base, status: 0, code, apiMessage: detail, cause: result.error });
  }
  const message = result.sent
    ? `${spec.op}: the connection to the API at ${where} failed (${code}: ${detail})${tries}`
    : `cannot reach the API at ${where} (${code}: ${detail})${tries}; is the URL right and the API running?`;
  return new ApiError(message, { ...base, status: 0, code, apiMessage: detail, cause: result.error });
}
