// A throttled request waits the emulator's Retry-After, which follows the time scale: 1 s at
// time scale 1 (SPEC section 6), 10 ms at 0.01. The client's backoff runs on fake time here, so
// "not before 1000 ms" is checked exactly instead of by waiting a real second.
import { afterEach, describe, expect, it } from 'vitest';
import type { ApiClient } from '../../../src/api/client.js';
import type { EmulatorHandle } from '../../../src/emulator/index.js';
import { FakeTimers } from '../../support/fake-timers.js';
import { clientFor, countOf, emulator } from './helpers.js';

const open: Array<{ close(): Promise<void> }> = [];
afterEach(async () => {
  for (const x of open.splice(0).reverse()) await x.close();
});

/** An emulator that throttles only the first request, and a client on fake time that logs. */
async function throttledOnce(timeScale: number): Promise<{ em: EmulatorHandle; api: ApiClient; timers: FakeTimers; lines: string[] }> {
  const em = await emulator({ timeScale, throttleRate: 1 });
  const timers = new FakeTimers();
  const lines: string[] = [];
  const api = clientFor(em, {
    timers,
    logger: (line) => {
      lines.push(line);
      if (lines.length === 1) em.setFaults({ throttleRate: 0 });
    },
  });
  open.push(em, api);
  return { em, api, timers, lines };
}

describe('the 429 of the emulator', () => {
  it('says Retry-After: 1 at time scale 1, and Retry-After-Ms: 1000', async () => {
    const em = await emulator({ timeScale: 1, throttleRate: 1 });
    open.push(em);
    const res = await fetch(`${em.url}/projects`, { headers: { authorization: 'Bearer demo-pat' } });
    expect(res.status).toBe(429);
    expect(res.headers.get('retry-after')).toBe('1');
    expect(res.headers.get('retry-after-ms')).toBe('1000');
    expect(((await res.json()) as { message: string }).message).toBe('too many requests; retry after 1 second');
  });

  it('scales with the time scale; Retry-After stays whole seconds, rounded up', async () => {
    const cases: Array<[number, string, string]> = [
      [0.01, '1', '10'],
      [2.5, '3', '2500'],
      [0, '0', '0'],
    ];
    for (const [timeScale, seconds, ms] of cases) {
      const em = await emulator({ timeScale, throttleRate: 1 });
      open.push(em);
      const res = await fetch(`${em.url}/projects`);
      expect([timeScale, res.headers.get('retry-after'), res.headers.get('retry-after-ms')]).toEqual([timeScale, seconds, ms]);
      await res.arrayBuffer();
    }
  });
});

describe('a throttled request', () => {
  it('at time scale 1 is sent again after 1 s, not before', async () => {
    const { em, api, timers, lines } = await throttledOnce(1);
    const started = timers.now();
    const call = api.listProjects();
    await timers.untilPending();
    expect(countOf(em, 'GET /projects')).toBe(1);
    const [delay] = timers.pending();
    // Retry-After is a floor, plus up to 10 % jitter.
    expect(delay).toBeGreaterThanOrEqual(1000);
    expect(delay).toBeLessThanOrEqual(1100);
    await timers.advance(delay! - 1);
    expect(countOf(em, 'GET /projects')).toBe(1);
    await timers.advance(1);
    expect(await call).toHaveLength(1);
    expect(countOf(em, 'GET /projects')).toBe(2);
    expect(lines[0]).toMatch(/-> 429 RATE_LIMITED .*retrying in (\d+) ms/);
    expect(Number(/retrying in (\d+) ms/.exec(lines[0]!)![1])).toBeGreaterThanOrEqual(1000);
    expect(timers.now() - started).toBeGreaterThanOrEqual(1000);
    expect(timers.now() - started).toBeLessThan(2500);
  });

  it('at time scale 0.01 is sent again after about 10 ms, not 1 s', async () => {
    const { em, api, timers, lines } = await throttledOnce(0.01);
    const call = api.listProjects();
    await timers.untilPending();
    const [delay] = timers.pending();
    expect(delay).toBeGreaterThanOrEqual(10);
    expect(delay).toBeLessThanOrEqual(11);
    await timers.advance(delay!);
    expect(await call).toHaveLength(1);
    expect(countOf(em, 'GET /projects')).toBe(2);
    expect(lines[0]).toMatch(/-> 429 RATE_LIMITED .* retrying in 1[01] ms$/);
  });

  it('at time scale 0.01 in real time too: no real second is waited', async () => {
    const em = await emulator({ timeScale: 0.01, throttleRate: 1 });
    const lines: string[] = [];
    const api = clientFor(em, { logger: (line) => lines.push(line) });
    open.push(em, api);
    em.setFaults({ throttleRate: 1 });
    const call = api.listProjects().catch((err: Error) => err.message);
    // Every attempt is throttled: 10 attempts, 9 waits of 10-11 ms each.
    expect(await call).toMatch(/429/);
    const waits = lines.map((l) => /retrying in (\d+) ms/.exec(l)?.[1]).filter((x) => x !== undefined).map(Number);
    expect(waits).toHaveLength(9);
    for (const w of waits) expect(w).toBeLessThanOrEqual(11);
  });
});
