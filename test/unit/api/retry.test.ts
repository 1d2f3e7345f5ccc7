import { describe, expect, it } from 'vitest';
import {
  backoffAtTimeScale,
  DEFAULT_RETRY_POLICY,
  decideRetry,
  isRejectedBeforeProcessing,
  parseRetryAfter,
  parseRetryAfterMs,
  retryDelay,
  type AttemptOutcome,
  type Safety,
} from '../../../src/api/retry.js';

const policy = { ...DEFAULT_RETRY_POLICY, maxAttempts: 5, baseDelayMs: 100, maxDelayMs: 1000 };
const half = () => 0.5;
const response = (status: number, retryAfterMs?: number): AttemptOutcome =>
  retryAfterMs === undefined ? { kind: 'response', status } : { kind: 'response', status, retryAfterMs };

describe('decideRetry', () => {
  const safeties: Safety[] = ['read', 'repeatable', 'checked', 'create'];

  it.each([200, 201, 202, 204, 400, 401, 404, 409, 413])('returns status %i to the caller for every safety class', (status) => {
    for (const safety of safeties) expect(decideRetry(safety, response(status), 1, policy, half)).toEqual({ action: 'done' });
  });

  it.each([429, 503])('retries %i for every safety class, creates included (nothing was done)', (status) => {
    for (const safety of safeties) {
      const d = decideRetry(safety, response(status), 1, policy, half);
      expect(d.action, safety).toBe('retry');
      expect(d.action === 'retry' && d.ambiguous).toBe(false);
    }
  });

  it.each([500, 502, 504])('retries %i on reads, repeatable and checked actions, marking the outcome unknown', (status) => {
    for (const safety of ['read', 'repeatable', 'checked'] as const) {
      expect(decideRetry(safety, response(status), 1, policy, half)).toMatchObject({ action: 'retry', ambiguous: true });
    }
  });

  it.each([500, 502, 504])('never re-sends a create after %i: the outcome is ambiguous', (status) => {
    expect(decideRetry('create', response(status), 1, policy, half)).toEqual({ action: 'ambiguous' });
  });

  it('re-sends a create whose connection never opened, but not one reset or timed out after sending', () => {
    expect(decideRetry('create', { kind: 'network', sent: false }, 1, policy, half).action).toBe('retry');
    expect(decideRetry('create', { kind: 'network', sent: true }, 1, policy, half)).toEqual({ action: 'ambiguous' });
    expect(decideRetry('create', { kind: 'timeout' }, 1, policy, half)).toEqual({ action: 'ambiguous' });
  });

  it('retries resets and timeouts on reads and checked actions', () => {
    expect(decideRetry('read', { kind: 'network', sent: true }, 1, policy, half)).toMatchObject({ action: 'retry', ambiguous: true });
    expect(decideRetry('checked', { kind: 'timeout' }, 2, policy, half)).toMatchObject({ action: 'retry', ambiguous: true });
  });

  it('gives up after maxAttempts', () => {
    expect(decideRetry('read', response(503), 4, policy, half).action).toBe('retry');
    expect(decideRetry('read', response(503), 5, policy, half)).toEqual({ action: 'give-up' });
    expect(decideRetry('create', response(429), 5, policy, half)).toEqual({ action: 'give-up' });
  });

  it('gives up sooner when the API cannot be reached at all', () => {
    const unreachable: AttemptOutcome = { kind: 'network', sent: false };
    const p = { ...policy, maxAttempts: 10, maxUnreachableAttempts: 3 };
    expect(decideRetry('read', unreachable, 2, p, half).action).toBe('retry');
    expect(decideRetry('read', unreachable, 3, p, half)).toEqual({ action: 'give-up' });
    expect(decideRetry('read', { kind: 'network', sent: true }, 3, p, half).action).toBe('retry');
  });

  it('gives up after maxTimeoutAttempts when the API accepts connections but does not answer', () => {
    const p = { ...policy, maxAttempts: 10, maxTimeoutAttempts: 3 };
    expect(decideRetry('read', { kind: 'timeout' }, 2, p, half).action).toBe('retry');
    expect(decideRetry('read', { kind: 'timeout' }, 3, p, half)).toEqual({ action: 'give-up' });
    expect(decideRetry('read', response(503), 3, p, half).action).toBe('retry');
  });

  it('never retries a permanent network failure (a refused TLS handshake), not even for a create', () => {
    const tls: AttemptOutcome = { kind: 'network', sent: false, permanent: true };
    expect(decideRetry('read', tls, 1, policy, half)).toEqual({ action: 'done' });
    expect(decideRetry('create', tls, 1, policy, half)).toEqual({ action: 'done' });
  });

  it('an ambiguous create is reported even on the last attempt (not a plain give-up)', () => {
    expect(decideRetry('create', response(500), 5, policy, half)).toEqual({ action: 'ambiguous' });
  });

  it('honours Retry-After as a floor and refuses to wait longer than maxRetryAfterMs', () => {
    const d = decideRetry('read', response(429, 1000), 1, policy, () => 0);
    expect(d).toMatchObject({ action: 'retry', delayMs: 1000 });
    const jittered = decideRetry('read', response(429, 1000), 1, policy, () => 0.99);
    expect(jittered.action === 'retry' && jittered.delayMs).toBeGreaterThanOrEqual(1000);
    expect(jittered.action === 'retry' && jittered.delayMs).toBeLessThanOrEqual(1100);
    expect(decideRetry('read', response(429, 120_000), 1, policy, half)).toEqual({ action: 'give-up' });
  });
});

describe('retryDelay', () => {
  it('grows exponentially with jitter between half and all of the ceiling, capped at maxDelayMs', () => {
    expect(retryDelay(1, policy, () => 0)).toBe(50);
    expect(retryDelay(1, policy, () => 0.999)).toBe(100);
    expect(retryDelay(2, policy, () => 0)).toBe(100);
    expect(retryDelay(3, policy, () => 0)).toBe(200);
    expect(retryDelay(10, policy, () => 0.999)).toBe(1000);
    expect(retryDelay(10, policy, () => 0)).toBe(500);
  });

  it('different random draws give different delays (jitter spreads callers)', () => {
    const delays = new Set([0.1, 0.3, 0.5, 0.7, 0.9].map((r) => retryDelay(4, policy, () => r)));
    expect(delays.size).toBe(5);
  });

  it('a zero Retry-After falls back to the backoff', () => {
    expect(retryDelay(3, policy, () => 0, 0)).toBe(200);
  });
});

describe('parseRetryAfter', () => {
  it('reads delay-seconds', () => {
    expect(parseRetryAfter('1')).toBe(1000);
    expect(parseRetryAfter(' 2 ')).toBe(2000);
    expect(parseRetryAfter(['3'])).toBe(3000);
  });

  it('reads an HTTP date relative to now', () => {
    const now = Date.parse('2026-01-01T00:00:00Z');
    expect(parseRetryAfter('Thu, 01 Jan 2026 00:00:05 GMT', now)).toBe(5000);
    expect(parseRetryAfter('Wed, 31 Dec 2025 23:59:00 GMT', now)).toBe(0);
  });

  it('ignores absent or unreadable values', () => {
    expect(parseRetryAfter(undefined)).toBeUndefined();
    expect(parseRetryAfter('soon')).toBeUndefined();
  });
});

describe('isRejectedBeforeProcessing', () => {
  it('is true only for 429, 503 and connections that never opened', () => {
    expect(isRejectedBeforeProcessing(response(429))).toBe(true);
    expect(isRejectedBeforeProcessing(response(503))).toBe(true);
    expect(isRejectedBeforeProcessing(response(500))).toBe(false);
    expect(isRejectedBeforeProcessing({ kind: 'network', sent: false })).toBe(true);
    expect(isRejectedBeforeProcessing({ kind: 'network', sent: true })).toBe(false);
    expect(isRejectedBeforeProcessing({ kind: 'timeout' })).toBe(false);
  });
});

describe('parseRetryAfterMs', () => {
  it('reads milliseconds, the precise twin of Retry-After', () => {
    expect(parseRetryAfterMs('10')).toBe(10);
    expect(parseRetryAfterMs([' 2500 '])).toBe(2500);
    expect(parseRetryAfterMs('7.6')).toBe(8);
    expect(parseRetryAfterMs('0')).toBe(0);
  });

  it('ignores absent or unreadable values (Retry-After applies then)', () => {
    expect(parseRetryAfterMs(undefined)).toBeUndefined();
    expect(parseRetryAfterMs('-5')).toBeUndefined();
    expect(parseRetryAfterMs('soon')).toBeUndefined();
  });
});

describe('backoffAtTimeScale', () => {
  it('multiplies the base and the cap by the time scale, never below 1 ms', () => {
    expect(backoffAtTimeScale(1)).toEqual({ baseDelayMs: 200, maxDelayMs: 8000 });
    expect(backoffAtTimeScale(0.03)).toEqual({ baseDelayMs: 6, maxDelayMs: 240 });
    expect(backoffAtTimeScale(0)).toEqual({ baseDelayMs: 1, maxDelayMs: 1 });
  });
});
