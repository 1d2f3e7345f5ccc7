// fetchLiveState reads in parallel; when one read fails for good, the others stop at once
// instead of retrying in the background (a plan against a dead API must exit promptly). The
// throttled client backs off on fake time: its next attempt comes only when the test moves the
// clock, so "it ended without waiting for the backoff" needs no stopwatch.
import { afterEach, describe, expect, it } from 'vitest';
import { FakeTimers } from '../../support/fake-timers.js';
import { ApiClient } from '../../../src/api/client.js';
import { fetchLiveState } from '../../../src/api/live-state.js';
import type { EmulatorHandle } from '../../../src/emulator/index.js';
import { clientFor, countOf, emulator, PAT, PROJECT } from './helpers.js';

const open: Array<{ close(): Promise<void> }> = [];
afterEach(async () => {
  for (const x of open.splice(0).reverse()) await x.close();
});

/** A base URL where nothing listens: an emulator started and closed again. */
async function deadUrl(): Promise<string> {
  const em = await emulator();
  await em.close();
  return em.url;
}

const VPCS = 'GET /projects/{project_id}/vpcs';

describe('fetchLiveState when one read fails', () => {
  it('stops the sibling reads (no retries after the failure) and rejects with the first error', async () => {
    // Every answer of this emulator is a 429 with Retry-After: 1 (time scale 1), so listVPCs keeps retrying.
    const throttled: EmulatorHandle = await emulator({ throttleRate: 1, timeScale: 1 });
    open.push(throttled);
    const timers = new FakeTimers();
    const slow = clientFor(throttled, { timers });
    const dead = new ApiClient({ baseUrl: await deadUrl(), token: PAT, retry: { baseDelayMs: 20, maxDelayMs: 50 } });
    open.push(slow, dead);
    const reader = {
      listServices: dead.listServices.bind(dead),
      listVPCs: slow.listVPCs.bind(slow),
      listVPCPeerings: slow.listVPCPeerings.bind(slow),
    };
    // The sibling's 1 s Retry-After is fake time that never passes unless the test moves it.
    await expect(fetchLiveState(reader, PROJECT)).rejects.toThrow(/cannot reach the API .* \(5 attempts\)/);
    expect(countOf(throttled, VPCS)).toBe(1);
    // Were the sibling still retrying, its next attempt would come once the clock passed 1 s.
    await timers.advance(60_000);
    expect(countOf(throttled, VPCS)).toBe(1);
  });

  it("still rejects with the caller's abort reason when the caller aborts", async () => {
    const throttled = await emulator({ throttleRate: 1, timeScale: 1 });
    const slow = clientFor(throttled);
    open.push(throttled, slow);
    const controller = new AbortController();
    const reading = fetchLiveState(slow, PROJECT, { signal: controller.signal });
    setTimeout(() => controller.abort(new Error('SIGINT')), 100);
    await expect(reading).rejects.toThrow('SIGINT');
  });
});

describe('closing the client', () => {
  it('stops a call that is still being retried, so nothing keeps running after a command ends', async () => {
    const throttled = await emulator({ throttleRate: 1, timeScale: 1 });
    open.push(throttled);
    const timers = new FakeTimers();
    const client = clientFor(throttled, { timers });
    const call = client.listVPCs(PROJECT);
    const outcome = call.then(
      () => 'resolved',
      (err: Error) => err.message,
    );
    // The 429 came back and its 1 s backoff is pending (on fake time: it never ends by itself).
    await timers.untilPending();
    await client.close();
    expect(await outcome).toBe('the API client was closed while a request was still being retried');
    await timers.advance(60_000);
    expect(countOf(throttled, VPCS)).toBe(1);
  });
});
