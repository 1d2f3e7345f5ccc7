// The engine waits for the plan's settling resources (SPEC section 5) over real HTTP: before it
// reports success every one is out of its transitional status; the wait is bounded by --timeout,
// abandoned at Ctrl-C, reported with the usual events, and a resource with actions is waited for
// once its actions are over.
import { afterEach, describe, expect, it } from 'vitest';
import { isSuccess } from '../../../src/executor/result.js';
import type { SettlingResource } from '../../../src/model/index.js';
import { act, applyOnFakeTime, planOf, PROJECT, startHarness, type Harness } from './engine-harness.js';
import { FakeTimers } from '../../support/fake-timers.js';
import { EmulatorClock } from '../../support/emulator-clock.js';

let h: Harness;
afterEach(async () => h?.close());

const service = (id: string, status = 'QUEUED', address = 'service.db'): SettlingResource => ({ address, kind: 'service', id, status });
const statusOf = async (id: string) => (await h.client.listServices(PROJECT)).find((s) => s.service_id === id)?.status;

describe('settling resources', () => {
  it('a service still QUEUED: apply waits until READY, reporting its statuses, and succeeds', async () => {
    // On fake time: each status is seen, however slow the machine (QUEUED lasts 100 ms here).
    const timers = new FakeTimers();
    h = await startHarness({ timeScale: 0.1, now: () => timers.now() });
    const id = (await h.client.createService(PROJECT, { name: 'db' })).service_id;
    const result = await applyOnFakeTime(h, timers, planOf([], [], [service(id)]), { pollMs: 10 });
    expect(isSuccess(result)).toBe(true);
    expect(result.settling).toEqual([{ resource: service(id), outcome: 'settled', status: 'READY' }]);
    expect(await statusOf(id)).toBe('READY');
    const mine = h.events.filter((e) => 'action' in e && e.action.id === 's1');
    expect(mine[0]).toMatchObject({ type: 'action-start', action: { id: 's1', address: 'service.db', op: 'settle' } });
    const statuses = mine.flatMap((e) => (e.type === 'action-status' ? [e.status] : []));
    expect(statuses[0]).toBe('QUEUED');
    expect(statuses).toContain('CONFIGURING');
    expect(statuses.at(-1)).toBe('READY');
    expect(mine.at(-1)?.type).toBe('action-done');
  });

  it('a replica set still creating is waited for until active', async () => {
    const clock = new EmulatorClock();
    h = await startHarness({ timeScale: 0.05, now: clock.now });
    const id = (await h.client.createService(PROJECT, { name: 'db' })).service_id;
    clock.advance(400); // the service's 5 s create at time scale 0.05: READY
    const rs = await h.client.createReplicaSet(PROJECT, id, { name: 'r', cpu_millis: 1000, memory_gbs: 4, nodes: 1 });
    const settling: SettlingResource = { address: 'replica_set.db.r', kind: 'replica_set', id: rs.id, parentId: id, status: 'creating' };
    const result = await h.apply(planOf([], [], [settling]));
    expect(result.settling).toEqual([{ resource: settling, outcome: 'settled', status: 'active' }]);
    const live = (await h.client.listServices(PROJECT)).find((s) => s.service_id === id)?.read_replica_sets?.[0];
    expect(live?.status).toBe('active');
  });

  it('is bounded by --timeout: a failure of its own, named settle, with the last status', async () => {
    // The emulator's clock stands: the service stays QUEUED however slow the machine.
    const clock = new EmulatorClock();
    clock.freeze();
    h = await startHarness({ timeScale: 1, now: clock.now });
    const id = (await h.client.createService(PROJECT, { name: 'db' })).service_id;
    const result = await h.apply(planOf([], [], [service(id)]), { timeoutMs: 300 });
    expect(isSuccess(result)).toBe(false);
    expect(result.settling).toEqual([]);
    expect(result.failed.map((f) => [f.address, f.op])).toEqual([['service.db', 'settle']]);
    expect(result.failed[0]!.message).toMatch(/^settle service\.db failed: timed out after 300 ms waiting for service \w+ \(last status QUEUED\)/);
  });

  it('fails with the resource\'s own story when it goes away while waited for', async () => {
    h = await startHarness({ timeScale: 0.2 });
    const id = (await h.client.createService(PROJECT, { name: 'db' })).service_id;
    await h.client.deleteService(PROJECT, id);
    const result = await h.apply(planOf([], [], [service(id)]));
    expect(result.failed.map((f) => f.op)).toEqual(['settle']);
    expect(result.failed[0]!.message).toMatch(/^settle service\.db failed: .*service \w+ is (gone|being deleted)/);
  });

  it('Ctrl-C abandons the wait: the apply is interrupted, not a success', async () => {
    // The emulator's clock stands: the service stays QUEUED, so only the abort can end the wait.
    const clock = new EmulatorClock();
    clock.freeze();
    h = await startHarness({ timeScale: 1, now: clock.now });
    const id = (await h.client.createService(PROJECT, { name: 'db' })).service_id;
    const controller = new AbortController();
    const running = h.apply(planOf([], [], [service(id)]), { signal: controller.signal });
    while (!h.events.some((e) => e.type === 'action-status')) await new Promise((r) => setTimeout(r, 5));
    controller.abort();
    const result = await running;
    expect(result.interrupted).toBe(true);
    expect(isSuccess(result)).toBe(false);
    expect(result.settling).toEqual([{ resource: service(id), outcome: 'abandoned', status: 'QUEUED' }]);
    expect(h.events.some((e) => e.type === 'action-abandoned' && e.action.op === 'settle')).toBe(true);
  });

  it('a settling service with actions keeps them; an action that does not wait (enablePooler) is followed by the settle wait', async () => {
    h = await startHarness({ timeScale: 0.1 });
    const id = (await h.client.createService(PROJECT, { name: 'db' })).service_id;
    const pooler = act('enablePooler', 'service.db', { reason: 'changed', refs: { target: { id } } });
    const result = await h.apply(planOf([pooler], [], [service(id)]));
    expect(isSuccess(result)).toBe(true);
    expect(result.done.map((d) => d.action.op)).toEqual(['enablePooler']);
    expect(result.settling.map((s) => [s.outcome, s.status])).toEqual([['settled', 'READY']]);
    // The settle step starts only after the resource's last action.
    const order = h.events.flatMap((e) => (e.type === 'action-done' || e.type === 'action-start' ? [`${e.type} ${e.action.op}`] : []));
    expect(order).toEqual(['action-start enablePooler', 'action-done enablePooler', 'action-start settle', 'action-done settle']);
    expect(await statusOf(id)).toBe('READY');
  });

  it('a settling resource whose action failed is not waited for; the failure is the news', async () => {
    h = await startHarness({ timeScale: 0.1 });
    const id = (await h.client.createService(PROJECT, { name: 'db' })).service_id;
    const bad = act('setEnvironment', 'service.db', { reason: 'changed', refs: { target: { id } }, request: { environment: 'STAGING' } });
    const result = await h.apply(planOf([bad], [], [service(id)]));
    expect(result.failed.map((f) => f.op)).toEqual(['setEnvironment']);
    expect(result.settling).toEqual([{ resource: service(id), outcome: 'not-started', status: 'QUEUED' }]);
    expect(h.events.some((e) => e.type === 'action-start' && e.action.op === 'settle')).toBe(false);
  });
});
