// Refusals (409) caused by a transition the plan did not see: a replica set deleted out of band
// still `deleting` when the next apply creates it again (its name is held until it is gone), and
// a transition that ends between the refusal and the engine's look. Found by the convergence
// test run at a small time scale (drift right before an apply). The emulator's clock is moved by
// hand (test/support/emulator-clock.ts): a transition is still on when the apply meets it and ends
// exactly where the test says, however slow the machine.
import { afterEach, describe, expect, it } from 'vitest';
import { act, planOf, PROJECT, startHarness, type Harness } from './engine-harness.js';
import { EmulatorClock } from '../../support/emulator-clock.js';

let h: Harness;
let clock: EmulatorClock;
afterEach(async () => h?.close());

/** A harness whose emulator clock stands; `until` moves it 100 ms per look. */
async function startStopped(): Promise<void> {
  clock = new EmulatorClock();
  clock.freeze();
  h = await startHarness({ timeScale: 0.1, now: clock.now });
}

/** The service READY, then an active replica set `r` of it deleted: `deleting` until the clock moves. */
async function serviceWithDeletingReplicaSet(): Promise<{ service: string; old: string }> {
  const svc = await h.client.createService(PROJECT, { name: 'db', cpu_millis: '500', memory_gbs: '2' });
  const service = svc.service_id;
  await until(async () => (await h.client.getService(PROJECT, service)).status === 'READY');
  const old = await h.client.createReplicaSet(PROJECT, service, { name: 'r', cpu_millis: 500, memory_gbs: 2, nodes: 1 });
  await until(async () => (await h.client.listReplicaSets(PROJECT, service))[0]?.status === 'active');
  await h.client.deleteReplicaSet(PROJECT, service, old.id);
  return { service, old: old.id };
}

/** Ends every transition in progress, and lets the clock run again for what the apply starts next. */
function endTransitionsAndRun(): void {
  clock.advance(10_000);
  clock.thaw();
}

describe('creating a replica set whose name a deleting one still holds', () => {
  it('waits for the deleting one to go, then creates it, and records the new ID', async () => {
    await startStopped();
    const { service, old } = await serviceWithDeletingReplicaSet();
    expect((await h.client.listReplicaSets(PROJECT, service)).map((r) => r.status)).toEqual(['deleting']);

    const create = act('createReplicaSet', 'replica_set.db.r', { refs: { service: { address: 'service.db' } }, request: { name: 'r', cpu_millis: 500, memory_gbs: 2, nodes: 1 } });
    const running = h.apply(planOf([create]), { lock: { version: 1, projectId: PROJECT, resources: { 'service.db': { id: service } } } });
    const waiting = `waiting for the deleted replica set ${old} to go`;
    // It is refused (the name is held) and says it waits: only then does the deleting end.
    for (const end = Date.now() + 20_000; !h.events.some((e) => e.type === 'action-status' && e.status === waiting); await new Promise((r) => setTimeout(r, 5))) {
      if (Date.now() > end) throw new Error(`the engine never showed "${waiting}"; it showed ${JSON.stringify(h.events.filter((e) => e.type === 'action-status'))}`);
    }
    endTransitionsAndRun();
    const result = await running;
    expect(result.failed.map((f) => f.message)).toEqual([]);
    const live = await h.client.listReplicaSets(PROJECT, service);
    expect(live.map((r) => [r.name, r.status])).toEqual([['r', 'active']]);
    expect(live[0]!.id).not.toBe(old);
    expect(h.readLock().resources['replica_set.db.r']).toEqual({ id: live[0]!.id });
  });
});

/** Moves the emulator's clock 100 ms per look until the condition holds. */
async function until(condition: () => Promise<boolean>): Promise<void> {
  for (let i = 0; i < 200; i++) {
    if (await condition()) return;
    clock.advance(100);
  }
  throw new Error('the emulator did not reach the expected state in 20 s of its time');
}

describe('creating a replica set whose deleting namesake goes between the refusal and the look', () => {
  it('sends the create again instead of failing on the refusal', async () => {
    await startStopped();
    const { service } = await serviceWithDeletingReplicaSet();
    // The second look (after the adopt check) comes late: deleting has ended by then.
    const api = Object.create(h.client) as typeof h.client;
    let looks = 0;
    api.listReplicaSets = async (p, s) => {
      if (++looks === 2) endTransitionsAndRun();
      return h.client.listReplicaSets(p, s);
    };
    const create = act('createReplicaSet', 'replica_set.db.r', { refs: { service: { address: 'service.db' } }, request: { name: 'r', cpu_millis: 500, memory_gbs: 2, nodes: 1 } });
    const result = await h.apply(planOf([create]), { api, lock: { version: 1, projectId: PROJECT, resources: { 'service.db': { id: service } } } });
    expect(result.failed.map((f) => f.message)).toEqual([]);
    expect(looks).toBeGreaterThanOrEqual(2);
    const live = await h.client.listReplicaSets(PROJECT, service);
    expect(live.map((r) => r.name)).toEqual(['r']);
    expect(h.readLock().resources['replica_set.db.r']).toEqual({ id: live[0]!.id });
  });
});

describe('an operation refused during a transition that ends before the engine looks', () => {
  it('is sent again once the service shows the status it needs (stop refused while RESUMING, seen READY)', async () => {
    await startStopped(); // RESUMING lasts 200 ms of the emulator's clock, which stands
    const svc = await h.client.createService(PROJECT, { name: 'db', cpu_millis: '500', memory_gbs: '2' });
    const id = svc.service_id;
    await until(async () => (await h.client.getService(PROJECT, id)).status === 'READY');
    await h.client.stopService(PROJECT, id);
    await until(async () => (await h.client.getService(PROJECT, id)).status === 'PAUSED');
    await h.client.startService(PROJECT, id); // out of band, just before the apply
    // The engine's look after the refusal comes late (a slow network): the resume has ended by then.
    const api = Object.create(h.client) as typeof h.client;
    let delayed = false;
    api.listServices = async (p) => {
      if (!delayed) {
        delayed = true;
        endTransitionsAndRun();
      }
      return h.client.listServices(p);
    };
    const stop = act('stopService', 'service.db', { reason: 'changed', refs: { target: { address: 'service.db' } } });
    const result = await h.apply(planOf([stop]), { api, lock: { version: 1, projectId: PROJECT, resources: { 'service.db': { id } } } });
    expect(result.failed.map((f) => f.message)).toEqual([]);
    expect(delayed).toBe(true);
    expect((await h.client.getService(PROJECT, id)).status).toBe('PAUSED');
  });
});
