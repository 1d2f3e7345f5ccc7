// Retry decisions, kept pure so they can be tested without a network.
//
// Every operation has a safety class that says what may be re-sent when an attempt fails; each
// operation's is its `safety` in the op table (src/model/operations.ts), reads are `read`:
//
// - read: GETs. Re-sent on any transient failure.
// - repeatable: re-sending gives the same result whatever the first attempt did (renames,
//   metadata, feature switches, updatePassword). Re-sent on any transient failure, 500 included.
// - checked: state transitions whose repeat is refused once the first took effect (start, stop,
//   resizes, setHA, attach, detach, deletes): a second start of a RESUMING
//   service is 409, a second delete 404 or 409. They are re-sent on any transient failure, and when
//   an earlier attempt had an unknown outcome and the repeat is refused (409/404), the client reads
//   the resource back and reports success if it shows the transition (see verify.ts). Without an
//   unknown outcome a 409/404 is the caller's error as usual.
// - create: re-sent only when the failure proves nothing was done: 429 (throttled), 503 (the API
//   rejects before processing) or a connection that never opened. Any other failure after the
//   request may have left (500, 502, 504, reset, timeout) is ambiguous and stops the retries with
//   AmbiguousCreateError, so that the apply engine can list and adopt instead of duplicating. A
//   create accepted (2xx) with an unreadable answer is ambiguous too: its new ID is unknown.
//   503 counts as "rejected before processing" (docs/api-behaviour.md: faults are answered before
//   anything is done); 502 and 504 do not, since a gateway may have forwarded the request.
import type { OperationSafety } from '../model/operations.js';

export type Safety = 'read' | OperationSafety;

export interface RetryPolicy {
  /** Attempts in total, the first included. */
  maxAttempts: number;
  /**
   * Attempts when the API cannot be reached at all (connection refused, DNS): usually a wrong URL
   * or an API that is down, so a person hears of it in seconds rather than after the full budget.
   */
  maxUnreachableAttempts: number;
  /**
   * Attempts when the API accepts the connection but does not answer within the request timeout:
   * each attempt already waited the whole timeout, so a hanging API fails in minutes, not ten
   * times the timeout.
   */
  maxTimeoutAttempts: number;
  /** Backoff before the 2nd attempt; doubles each attempt, before jitter. */
  baseDelayMs: number;
  maxDelayMs: number;
  /** A longer Retry-After than this is not waited for: the call fails instead. */
  maxRetryAfterMs: number;
}

export const DEFAULT_RETRY_POLICY: RetryPolicy = {
  maxAttempts: 10,
  maxUnreachableAttempts: 5,
  maxTimeoutAttempts: 3,
  baseDelayMs: 200,
  maxDelayMs: 8_000,
  maxRetryAfterMs: 60_000,
};

/**
 * The backoff for an emulator running at `timeScale`: its base and cap multiplied by the scale
 * (never below 1 ms, so a time scale of 0 does not retry in a tight loop). Only for an emulator:
 * a real API gets the default backoff (docs/api-behaviour.md).
 */
export function backoffAtTimeScale(timeScale: number): Pick<RetryPolicy, 'baseDelayMs' | 'maxDelayMs'> {
  const scale = (ms: number) => Math.max(1, Math.round(ms * timeScale));
  return { baseDelayMs: scale(DEFAULT_RETRY_POLICY.baseDelayMs), maxDelayMs: scale(DEFAULT_RETRY_POLICY.maxDelayMs) };
}

/** What one attempt produced, as far as retrying is concerned. */
export type AttemptOutcome =
  | { kind: 'response'; status: number; retryAfterMs?: number }
  /**
   * `sent: false` when the connection never opened (refused, DNS), so nothing reached the API.
   * `permanent` when another attempt cannot help (a TLS handshake the client refuses: a
   * certificate it does not trust, or https spoken to a plain-http server).
   */
  | { kind: 'network'; sent: boolean; permanent?: boolean }
  | { kind: 'timeout' };

export type RetryDecision =
  | { action: 'done' }
  | { action: 'retry'; delayMs: number; ambiguous: boolean }
  | { action: 'give-up' }
  | { action: 'ambiguous' };

const RETRYABLE_STATUS = new Set([429, 500, 502, 503, 504]);

/** Whether the API certainly did nothing with the request. */
export function isRejectedBeforeProcessing(outcome: AttemptOutcome): boolean {
  if (outcome.kind === 'network') return !outcome.sent;
  if (outcome.kind === 'response') return outcome.status === 429 || outcome.status === 503;
  return false;
}

/** Whether the outcome is a transient failure worth another attempt (for some safety class). */
export function isTransient(outcome: AttemptOutcome): boolean {
  if (outcome.kind === 'response') return RETRYABLE_STATUS.has(outcome.status);
  if (outcome.kind === 'network') return outcome.permanent !== true;
  return true;
}

/**
 * What to do after attempt number `attempt` (1-based) ended with `outcome`. `random` in [0, 1)
 * drives the jitter.
 */
export function decideRetry(
  safety: Safety,
  outcome: AttemptOutcome,
  attempt: number,
  policy: RetryPolicy,
  random: () => number = Math.random,
): RetryDecision {
  if (!isTransient(outcome)) return { action: 'done' };
  const rejected = isRejectedBeforeProcessing(outcome);
  if (safety === 'create' && !rejected) return { action: 'ambiguous' };
  if (attempt >= policy.maxAttempts) return { action: 'give-up' };
  if (outcome.kind === 'network' && !outcome.sent && attempt >= policy.maxUnreachableAttempts) return { action: 'give-up' };
  if (outcome.kind === 'timeout' && attempt >= policy.maxTimeoutAttempts) return { action: 'give-up' };
  const retryAfterMs = outcome.kind === 'response' ? outcome.retryAfterMs : undefined;
  if (retryAfterMs !== undefined && retryAfterMs > policy.maxRetryAfterMs) return { action: 'give-up' };
  return { action: 'retry', delayMs: retryDelay(attempt, policy, random, retryAfterMs), ambiguous: !rejected };
}

/**
 * Exponential backoff with jitter: between half and all of min(max, base * 2^(attempt-1)). A
 * Retry-After is a floor, plus up to 10 % jitter so throttled callers do not return in lockstep.
 */
export function retryDelay(attempt: number, policy: RetryPolicy, random: () => number, retryAfterMs?: number): number {
  const ceiling = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** Math.max(0, attempt - 1));
  const backoff = ceiling / 2 + (random() * ceiling) / 2;
  if (retryAfterMs === undefined || retryAfterMs <= 0) return Math.round(backoff);
  return Math.round(retryAfterMs * (1 + random() * 0.1));
}

/**
 * Parses a Retry-After header: delay-seconds or an HTTP date. Undefined when absent or unreadable
 * (the normal backoff applies then).
 */
export function parseRetryAfter(value: string | string[] | undefined, nowMs: number = Date.now()): number | undefined {
  const text = Array.isArray(value) ? value[0] : value;
  if (text === undefined) return undefined;
  const trimmed = text.trim();
  if (/^\d+(\.\d+)?$/.test(trimmed)) return Math.round(Number(trimmed) * 1000);
  const date = Date.parse(trimmed);
  if (Number.isNaN(date)) return undefined;
  return Math.max(0, date - nowMs);
}

/**
 * Parses `Retry-After-Ms`, a delay in milliseconds: `Retry-After` counts whole seconds, too coarse
 * for the emulator at a small time scale (docs/api-behaviour.md). Several APIs send the same
 * header; where present it is the more precise of the two. Undefined when absent or unreadable.
 */
export function parseRetryAfterMs(value: string | string[] | undefined): number | undefined {
  const text = (Array.isArray(value) ? value[0] : value)?.trim();
  if (text === undefined || !/^\d+(\.\d+)?$/.test(text)) return undefined;
  return Math.round(Number(text));
}
