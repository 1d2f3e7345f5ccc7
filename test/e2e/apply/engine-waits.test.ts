// Waiting: batched polls, parallelism that counts requests (not waits), timeouts and interruption.
// Where a count or an order depends on when transitions end, the emulator's clock is fake or
// frozen (test/support/fake-clock-api.ts), so a loaded machine cannot change what is seen.
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { StatusPoller } from '../../../src/api/waiters.js';
import type { ApplyEvent } from '../../../src/executor/events.js';
import { act, applyOnFakeTime, planOf, PROJECT, startHarness, type Harness } from './engine-harness.js';
import { testClient } from '../../support/dialect.js';
import { InFlightCounter } from '../../support/fake-clock-api.js';
import { FakeTimers } from '../../support/fake-timers.js';
import { removeTempDirs } from '../../support/temp-dir.js';

afterAll(removeTempDirs);

let h: Harness;
afterEach(async () => h?.close());

async function createServices(n: number): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < n; i++) ids.push((await h.client.createService(PROJECT, { name: `s${i}`, cpu_millis: '500', memory_gbs: '2' })).service_id);
  // Let them reach READY (time scale 0 completes a transition at the next read).
  await h.client.listServices(PROJECT);
  await h.client.listServices(PROJECT);
  return ids;
}

const resize = (id: string, i: number) =>
  act('resizeService', `service.s${i}`, { reason: 'changed', refs: { target: { id } }, request: { cpu_millis: '1000', memory_gbs: '4' } });

function maxConcurrent(events: ApplyEvent[]): number {
  let running = 0;
  let max = 0;
  for (const e of events) {
    if (e.type === 'action-start') max = Math.max(max, ++running);
    if (e.type === 'action-done' || e.type === 'action-failed') running--;
  }
  return max;
}

describe('waiting for asynchronous operations', () => {
  it('costs one services list per tick however many actions wait: 20 waits read as one does', async () => {
    // Reads by list alone (a tick with many waits reads the list anyway; one wait reads its service: below).
    const timers = new FakeTimers();
    h = await startHarness({ timeScale: 0.2, now: () => timers.now() });
    const ids = await createServices(21);
    await timers.advance(1000); // 5 s of create at time scale 0.2: all READY
    h.emulator.resetStats();
    await applyOnFakeTime(h, timers, planOf([resize(ids[0]!, 0)]), { parallelism: 50, pollMs: 150, listsOnly: true });
    const one = h.emulator.stats().requests['GET /projects/{project_id}/services'] ?? 0;
    h.emulator.resetStats();
    h.events.length = 0;
    const result = await applyOnFakeTime(h, timers, planOf(ids.slice(1).map((id, i) => resize(id, i + 1))), { parallelism: 50, pollMs: 150, listsOnly: true });
    expect(result.failed).toEqual([]);
    expect(result.done).toHaveLength(20);
    const twenty = h.emulator.stats().requests['GET /projects/{project_id}/services'] ?? 0;
    expect(h.emulator.stats().requests['POST /projects/{project_id}/services/{service_id}/resize']).toBe(20);
    // No resize can end before the clock moves, and it moves only once all 20 are waiting.
    expect(maxConcurrent(h.events)).toBe(20);
    expect(one).toBeGreaterThan(2);
    expect(twenty).toBe(one);
  });

  it('one wait in a larger project reads its own service each tick, never the project list', async () => {
    const timers = new FakeTimers();
    h = await startHarness({ timeScale: 0.1, now: () => timers.now() });
    const ids = await createServices(30);
    await timers.advance(500);
    h.emulator.resetStats();
    const result = await applyOnFakeTime(h, timers, planOf([resize(ids[7]!, 7)]), { pollMs: 60 });
    expect(result.failed).toEqual([]);
    const requests = h.emulator.stats().requests;
    expect(requests['GET /projects/{project_id}/services']).toBeUndefined();
    // 300 ms at one look per 60 ms, then a fifth of the time since the status changed.
    expect(requests['GET /projects/{project_id}/services/{service_id}']).toBeGreaterThanOrEqual(4);
  });

  it('--parallelism bounds the requests in flight, not the waits: nine resizes at 3 all wait at once', async () => {
    const timers = new FakeTimers();
    h = await startHarness({ timeScale: 0.1, now: () => timers.now() });
    const ids = await createServices(9);
    await timers.advance(500);
    // The port as the engine sees it, counting the calls in flight (the client itself is real).
    const engineCalls = new InFlightCounter();
    const result = await applyOnFakeTime(h, timers, planOf(ids.map(resize)), { parallelism: 3, pollMs: 20, engineCalls });
    const maxInFlight = engineCalls.max;
    expect(result.failed).toEqual([]);
    expect(result.done).toHaveLength(9);
    // No resize can end before the clock moves: all nine waited at once.
    expect(maxConcurrent(h.events)).toBe(9);
    expect(maxInFlight).toBeLessThanOrEqual(3);
    expect(maxInFlight).toBeGreaterThan(0);
  });

  it('fails an action whose wait exceeds --timeout, with the last status seen', async () => {
    // The emulator's clock stands still: the service stays QUEUED however slow the machine.
    const frozen = Date.now();
    h = await startHarness({ timeScale: 1, now: () => frozen });
    const svc = act('createService', 'service.slow', { request: { name: 'slow' } });
    const result = await h.apply(planOf([svc]), { timeoutMs: 300 });
    expect(result.failed[0]?.message).toMatch(/^createService service\.slow failed: timed out after 300 ms waiting for service \w+ \(last status QUEUED\)/);
    // The ID is recorded even though the wait failed: the next apply must not create it again.
    expect(h.readLock().resources['service.slow']?.id).toMatch(/^[a-z0-9]{10}$/);
  });

  it('a status it does not know: keeps waiting, says once what it waits for, then fails naming the status', async () => {
    h = await startHarness({ timeScale: 0 });
    const [id] = await createServices(1);
    // A real service may answer with a status no document lists: seen here through the API port.
    const client = h.client;
    const odd = {
      listServices: async (p: string) => (await client.listServices(p)).map((s) => (s.service_id === id ? { ...s, status: 'MAINTENANCE' } : s)),
      listVPCs: (p: string) => client.listVPCs(p),
      listVPCPeerings: (p: string, v: string) => client.listVPCPeerings(p, v),
      listReplicaSets: (p: string, s: string) => client.listReplicaSets(p, s),
    };
    const poller = new StatusPoller(odd, { projectId: PROJECT, pollMs: 10, stallNoticeMs: 150 });
    const result = await h.apply(planOf([resize(id!, 0)]), { poller, timeoutMs: 600 });
    poller.close();
    expect(result.failed[0]?.message).toMatch(new RegExp(`^resizeService service\\.s0 failed: timed out after 600 ms waiting for service ${id} \\(last status MAINTENANCE, a status dbform does not know\\)$`));
    const waiting = h.events.filter((e) => e.type === 'action-waiting');
    expect(waiting).toEqual([
      expect.objectContaining({ type: 'action-waiting', action: expect.objectContaining({ address: 'service.s0', op: 'resizeService' }), waitingFor: `service ${id} to be READY`, status: 'MAINTENANCE', knownStatus: false }),
    ]);
    expect((waiting[0] as { forMs: number }).forMs).toBeGreaterThanOrEqual(149);
  });

  it('on abort starts nothing new, abandons waits, keeps every created ID and marks the apply interrupted', async () => {
    // The emulator's clock stands still, so the create never ends: only the abort can end the apply.
    const frozen = Date.now();
    h = await startHarness({ timeScale: 1, now: () => frozen });
    const svc = act('createService', 'service.a', { request: { name: 'a' } });
    const rs = act('createReplicaSet', 'replica_set.a.r', { dependsOn: [svc.id], refs: { service: { address: 'service.a' } }, request: { name: 'r', cpu_millis: 1000, memory_gbs: 4, nodes: 1 } });
    const controller = new AbortController();
    const running = h.apply(planOf([svc, rs]), { signal: controller.signal });
    while (!h.events.some((e) => e.type === 'action-status')) await new Promise((r) => setTimeout(r, 5));
    controller.abort(new Error('SIGINT'));
    const result = await running;
    expect(result.interrupted).toBe(true);
    const id = (await h.client.listServices(PROJECT))[0]!.service_id;
    // The create was sent and accepted: not "skipped", but sent with its wait abandoned.
    expect(result.abandoned).toEqual([{ action: svc, resourceId: id }]);
    expect(result.done).toEqual([]);
    expect(result.skipped.map((s) => [s.action.address, s.reason, s.started])).toEqual([['replica_set.a.r', 'interrupted', undefined]]);
    expect(h.readLock().resources['service.a']?.id).toBe(id);
    expect(h.events.filter((e) => e.type === 'action-abandoned')).toEqual([expect.objectContaining({ action: { id: svc.id, address: 'service.a', op: 'createService' }, resourceId: id })]);
    expect(h.events.at(-1)?.type).toBe('summary');
  });

  it('an action interrupted while the API still refuses it (409, waiting for a transition) changed nothing', async () => {
    // The emulator's clock stands still: the service stays QUEUED, so the resize is refused until the abort.
    const frozen = Date.now();
    h = await startHarness({ timeScale: 1, now: () => frozen });
    const id = (await h.client.createService(PROJECT, { name: 'busy', cpu_millis: '500', memory_gbs: '2' })).service_id;
    const controller = new AbortController();
    // QUEUED: the resize is refused and waits for READY before sending again.
    const running = h.apply(planOf([resize(id, 0)]), { signal: controller.signal });
    while (!h.events.some((e) => e.type === 'action-status' && e.status.startsWith('waiting for'))) await new Promise((r) => setTimeout(r, 5));
    controller.abort(new Error('SIGINT'));
    const result = await running;
    expect(result.interrupted).toBe(true);
    expect(result.abandoned).toEqual([]);
    expect(result.skipped.map((s) => [s.action.address, s.reason, s.started])).toEqual([['service.s0', 'interrupted', true]]);
    expect(h.emulator.stats().requests['POST /projects/{project_id}/services/{service_id}/resize']).toBe(1);
  });

  it('an attach shows what it waits for: the status stays READY until the VPC endpoint appears', async () => {
    // The emulator's clock moves by hand, each step once the engine has shown what it waits for:
    // at a real time scale a loaded machine let the attach finish before the first poll saw it.
    let now = Date.now();
    h = await startHarness({ timeScale: 1, now: () => now });
    const vpc = await h.client.createVPC(PROJECT, { name: 'main', cidr: '10.0.0.0/16', region_code: 'us-east-1' });
    const svc = await h.client.createService(PROJECT, { name: 'db', region_code: 'us-east-1' });
    const ref = { address: 'service.db', id: svc.service_id };
    const attach = act('attachServiceToVPC', 'service.db', { reason: 'changed', refs: { target: ref, vpc: { id: vpc.id } }, request: { vpc_id: vpc.id } });
    const statusesSoFar = () => h.events.flatMap((e) => (e.type === 'action-status' ? [e.status] : []));
    const until = async (status: (s: string) => boolean) => {
      for (const end = Date.now() + 10_000; !statusesSoFar().some(status); await new Promise((r) => setTimeout(r, 5))) {
        if (Date.now() > end) throw new Error(`the engine did not show the status awaited; it showed ${JSON.stringify(statusesSoFar())}`);
      }
    };
    const running = h.apply(planOf([attach]));
    await until((s) => s.startsWith('waiting for'));
    now += 5000; // QUEUED 1 s, CONFIGURING 4 s: READY
    await until((s) => s.startsWith('READY, attaching'));
    now += 2000; // the attachment's 2 s
    const result = await running;
    expect(result.failed).toEqual([]);
    const statuses = statusesSoFar();
    // Before the attach is sent the service settles (QUEUED ... READY); after it, READY is qualified.
    expect(statuses.slice(statuses.indexOf('READY'))).toEqual(['READY', `READY, attaching to VPC ${vpc.id}`]);
  });

  it('an abort stops a call from retrying: it fails with what it got, at once, and the apply is interrupted', async () => {
    h = await startHarness({ timeScale: 0 });
    const id = (await h.client.createService(PROJECT, { name: 'flaky', cpu_millis: '500', memory_gbs: '2' })).service_id;
    await h.client.listServices(PROJECT); // time scale 0: READY at the next read
    h.emulator.setFaults({ faultRate: 1 });
    // The engine's client backs off on fake time: a retry is sent only when the test moves the clock.
    const timers = new FakeTimers();
    const api = testClient(h.emulator.url, { retry: { baseDelayMs: 5, maxDelayMs: 50 }, timers });
    const resizes = () => h.emulator.stats().requests['POST /projects/{project_id}/services/{service_id}/resize'] ?? 0;
    try {
      const controller = new AbortController();
      const running = h.apply(planOf([resize(id, 0)]), { signal: controller.signal, api });
      await timers.untilPending();
      await timers.advance(timers.pending()[0]!);
      await timers.untilPending();
      expect(resizes()).toBe(2);
      // A backoff is pending: the apply can only end now if the abort cuts it short.
      controller.abort(new Error('SIGINT'));
      const result = await running;
      expect(result.interrupted).toBe(true);
      expect(result.failed.map((f) => f.address)).toEqual(['service.s0']);
      expect(result.failed[0]!.message).toMatch(/^resizeService service.s0 failed: (500|503) /);
      // Nothing is left to retry, however far the clock moves.
      expect(timers.pending()).toEqual([]);
      await timers.advance(60_000);
      expect(resizes()).toBe(2);
    } finally {
      await api.close();
    }
  });
});
