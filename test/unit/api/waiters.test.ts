// The poller's scheduling, driven by an in-memory list source (no HTTP involved: the HTTP side is
// covered against the emulator in test/e2e/api), on fake time: every tick and gap is exact, and a
// loaded machine cannot stretch it.
import { describe, expect, it } from 'vitest';
import { ApiError, WaitFailedError, WaitTimeoutError } from '../../../src/api/errors.js';
import { pollMsFromEnv, StatusPoller } from '../../../src/api/waiters.js';
import { count, FakeWorld, pollerOf } from './fake-world.js';

describe('StatusPoller', () => {
  it('serves 50 waiting services with one list request per tick', async () => {
    const world = new FakeWorld();
    for (let i = 0; i < 50; i++) world.setService(`s${i}`, 'UPGRADING');
    const poller = pollerOf(world, { projectId: 'p', pollMs: 20 });
    const waits = Array.from({ length: 50 }, (_, i) => poller.waitForServiceStatus(`s${i}`, 'READY'));
    await world.timers.advance(75);
    for (let i = 0; i < 50; i++) world.setService(`s${i}`, 'READY');
    const results = await world.timers.runUntilSettled(Promise.all(waits));
    expect(results.every((s) => s?.status === 'READY')).toBe(true);
    const ticks = count(world, 'services');
    expect(ticks).toBeGreaterThanOrEqual(2);
    expect(ticks).toBeLessThanOrEqual(4);
    expect(poller.stats().serviceListRequests).toBe(ticks);
  });

  it('a waiter joining while a tick is in flight is served by the next tick', async () => {
    const world = new FakeWorld();
    world.setService('a', 'UPGRADING');
    world.setService('b', 'READY');
    const poller = pollerOf(world, { projectId: 'p', pollMs: 10 });
    let release!: () => void;
    world.gate = new Promise<void>((r) => (release = r));
    const waitA = poller.waitForServiceStatus('a', 'READY', { immediate: true });
    await world.timers.advance(20);
    expect(count(world, 'services')).toBe(1);
    // b joins mid-tick with a condition that the in-flight (older) list would already satisfy.
    const seenByB: Array<{ status: string; requests: number }> = [];
    const waitB = poller.waitForServiceStatus('b', 'READY', { immediate: true, onStatus: (s) => seenByB.push({ status: s, requests: count(world, 'services') }) });
    world.gate = undefined;
    release();
    await world.timers.runUntilSettled(waitB);
    expect(seenByB).toEqual([{ status: 'READY', requests: 2 }]);
    world.setService('a', 'READY');
    await world.timers.runUntilSettled(waitA);
  });

  it('reports each status change once, then resolves', async () => {
    const world = new FakeWorld();
    world.setService('s', 'QUEUED');
    const poller = pollerOf(world, { projectId: 'p', pollMs: 5 });
    const seen: string[] = [];
    const wait = poller.waitForServiceStatus('s', 'READY', { onStatus: (s) => seen.push(s) });
    await world.timers.advance(30);
    world.setService('s', 'CONFIGURING');
    await world.timers.advance(60);
    world.setService('s', 'READY');
    await world.timers.runUntilSettled(wait);
    expect(seen).toEqual(['QUEUED', 'CONFIGURING', 'READY']);
  });

  it('fails a wait for READY when the service disappears or is being deleted', async () => {
    const world = new FakeWorld();
    world.setService('s', 'UPGRADING');
    world.setService('t', 'UPGRADING');
    const poller = pollerOf(world, { projectId: 'p', pollMs: 5 });
    const waitS = poller.waitForServiceStatus('s', 'READY');
    const waitT = poller.waitForServiceStatus('t', 'READY');
    world.services.delete('s');
    world.setService('t', 'DELETING');
    await world.timers.runUntilSettled(Promise.allSettled([waitS, waitT]));
    await expect(waitS).rejects.toThrow(WaitFailedError);
    await expect(waitS).rejects.toThrow(/service s is gone/);
    await expect(waitT).rejects.toThrow(/service t is being deleted/);
  });

  it('waits for a service to be gone through DELETING', async () => {
    const world = new FakeWorld();
    world.setService('s', 'DELETING');
    const poller = pollerOf(world, { projectId: 'p', pollMs: 5 });
    const wait = poller.waitForServiceGone('s');
    await world.timers.advance(20);
    world.services.delete('s');
    await expect(world.timers.runUntilSettled(wait)).resolves.toBeUndefined();
  });

  it('replica sets are served by the services list; error is terminal', async () => {
    const world = new FakeWorld();
    const rs = (status: string) => [{ id: 'r1', name: 'r', cpu_millis: 1000, memory_gbs: 4, nodes: 1, status }];
    world.setService('s', 'READY', rs('creating'));
    const poller = pollerOf(world, { projectId: 'p', pollMs: 5 });
    const ok = poller.waitForReplicaSet('s', 'r1', (r) => r?.status === 'active');
    await world.timers.advance(20);
    world.setService('s', 'READY', rs('active'));
    expect((await world.timers.runUntilSettled(ok))?.status).toBe('active');
    world.setService('s', 'READY', rs('error'));
    await expect(world.timers.runUntilSettled(poller.waitForReplicaSet('s', 'r1', (r) => r?.status === 'active'))).rejects.toThrow(/replica set r1 of service s is in error state/);
  });

  it('a failed peering fails its wait with the peering error_message', async () => {
    const world = new FakeWorld();
    world.peerings.set('x', { id: 'x', peer_account_id: 'bad', peer_region_code: 'us-east-1', peer_vpc_id: 'vpc-1', status: 'failed', error_message: 'peer_account_id must be 12 digits' });
    const poller = pollerOf(world, { projectId: 'p', pollMs: 5 });
    await expect(world.timers.runUntilSettled(poller.waitForPeering('123', 'x', (p) => p?.status === 'active'))).rejects.toThrow(
      'peering x of VPC 123 failed: peer_account_id must be 12 digits',
    );
  });

  it('times out with the last status seen, and honours an abort signal', async () => {
    const world = new FakeWorld();
    world.setService('s', 'UPGRADING');
    const poller = pollerOf(world, { projectId: 'p', pollMs: 5 });
    const err = await world.timers.runUntilSettled(poller.waitForServiceStatus('s', 'READY', { timeoutMs: 40 })).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(WaitTimeoutError);
    expect((err as Error).message).toMatch(/waiting for service s \(last status UPGRADING\)/);
    const ac = new AbortController();
    const wait = poller.waitForServiceStatus('s', 'READY', { signal: ac.signal });
    ac.abort(new Error('stop now'));
    await expect(wait).rejects.toThrow('stop now');
  });

  it('waits that join after the first poll went out share its later polls: ten staggered waits cost what one does', async () => {
    const run = async (joinDelays: number[]) => {
      const world = new FakeWorld();
      const poller = pollerOf(world, { projectId: 'p', pollMs: 60 });
      const sleep = (ms: number) => world.timers.advance(ms);
      const waits: Array<Promise<unknown>> = [];
      const started = world.timers.now();
      for (const [i, delay] of joinDelays.entries()) {
        await sleep(Math.max(0, started + delay - world.timers.now()));
        world.setService(`s${i}`, 'UPGRADING');
        waits.push(poller.waitForServiceStatus(`s${i}`, 'READY'));
      }
      await sleep(Math.max(0, started + 700 - world.timers.now()));
      for (const i of joinDelays.keys()) world.setService(`s${i}`, 'READY');
      await world.timers.runUntilSettled(Promise.all(waits));
      poller.close();
      return world.calls.length;
    };
    const one = await run([0]);
    // The first poll goes out at 60 ms; these answer one by one after it, as parallel resizes do.
    const ten = await run([0, 65, 70, 75, 80, 85, 90, 95, 100, 105]);
    expect(one).toBeGreaterThanOrEqual(3);
    expect(ten).toBeLessThanOrEqual(one);
  });

  it('a wait whose signal is already aborted rejects at once and leaves no timer behind', async () => {
    const world = new FakeWorld();
    world.setService('s', 'UPGRADING');
    // On Node's timers: what is checked is that no real timer is left behind.
    const poller = new StatusPoller(world.client(), { projectId: 'p', pollMs: 5 });
    const timers = () => process.getActiveResourcesInfo().filter((r) => r === 'Timeout').length;
    const before = timers();
    const ac = new AbortController();
    ac.abort(new Error('interrupted'));
    const wait = poller.waitForServiceStatus('s', 'READY', { signal: ac.signal, timeoutMs: 30 * 60_000 });
    expect(timers()).toBe(before);
    await expect(wait).rejects.toThrow('interrupted');
    expect(world.calls).toEqual([]);
  });

  it('keeps polling through a transient list failure, fails at once on a fatal one', async () => {
    const world = new FakeWorld();
    world.setService('s', 'UPGRADING');
    const poller = pollerOf(world, { projectId: 'p', pollMs: 5 });
    world.failNext = new ApiError('boom', { status: 503, code: 'SERVICE_UNAVAILABLE', apiMessage: 'x', method: 'GET', path: '/x' });
    const wait = poller.waitForServiceStatus('s', 'READY');
    await world.timers.advance(30);
    world.setService('s', 'READY');
    await expect(world.timers.runUntilSettled(wait)).resolves.toMatchObject({ status: 'READY' });
    world.setService('s', 'UPGRADING');
    world.failNext = new ApiError('token rejected', { status: 401, code: 'UNAUTHORIZED', apiMessage: 'x', method: 'GET', path: '/x' });
    await expect(world.timers.runUntilSettled(poller.waitForServiceStatus('s', 'READY'))).rejects.toThrow('token rejected');
  });

  it('where the list does not embed replica sets, reads them for the services waited on, and only those', async () => {
    const world = new FakeWorld();
    world.embeds = false;
    const rs = (status: string) => [{ id: 'r1', name: 'r', cpu_millis: 500, memory_gbs: 2, nodes: 1, status }];
    world.setService('a', 'READY', rs('creating'));
    world.setService('b', 'READY', rs('creating'));
    world.setService('c', 'UPGRADING');
    const poller = pollerOf(world, { projectId: 'p', pollMs: 5 });
    const waitRs = poller.waitForReplicaSet('a', 'r1', (r) => r?.status === 'active');
    const waitSvc = poller.waitForServiceStatus('c', 'READY');
    await world.timers.advance(30);
    world.setService('a', 'READY', rs('active'));
    world.setService('c', 'READY');
    await expect(world.timers.runUntilSettled(waitRs)).resolves.toMatchObject({ id: 'r1', status: 'active' });
    await world.timers.runUntilSettled(waitSvc);
    expect(count(world, 'replicaSets:a')).toBeGreaterThanOrEqual(1);
    // One replica set list per tick while the wait lasts: as many as services lists until then.
    expect(count(world, 'replicaSets:a')).toBe(world.calls.filter((c) => c.what === 'services' && c.at <= world.calls.filter((x) => x.what === 'replicaSets:a').at(-1)!.at).length);
    expect(count(world, 'replicaSets:b') + count(world, 'replicaSets:c')).toBe(0);
    expect(world.notes).toEqual(['the services list does not embed read_replica_sets; reading GET .../replicaSets for each managed service instead (one request each)']);
    // Once nothing waits on a replica set, a tick reads the services list alone.
    const before = count(world, 'replicaSets:a');
    world.setService('c', 'UPGRADING');
    const later = poller.waitForServiceStatus('c', 'READY');
    await world.timers.advance(20);
    world.setService('c', 'READY');
    await world.timers.runUntilSettled(later);
    expect(count(world, 'replicaSets:a')).toBe(before);
  });

  it('tells once when a status stays unchanged, names a status it does not know at the timeout, and waits out a VPC still CREATING', async () => {
    const world = new FakeWorld();
    world.setService('s', 'MAINTENANCE');
    const poller = pollerOf(world, { projectId: 'p', pollMs: 5, stallNoticeMs: 40 });
    const stalls: Array<[string | undefined, boolean]> = [];
    const err = await world.timers.runUntilSettled(
      poller
        .waitForServiceStatus('s', 'READY', { timeoutMs: 200, onStall: (status, forMs, known) => {
          expect(forMs).toBe(40);
          stalls.push([status, known]);
        } })
        .catch((e: unknown) => e),
    );
    expect(stalls).toEqual([['MAINTENANCE', false]]);
    expect(err).toBeInstanceOf(WaitTimeoutError);
    expect((err as Error).message).toBe('timed out after 200 ms waiting for service s (last status MAINTENANCE, a status dbform does not know)');
    world.setService('s', 'UPGRADING');
    const known = await world.timers.runUntilSettled(poller.waitForServiceStatus('s', 'READY', { timeoutMs: 60 }).catch((e: unknown) => e));
    expect((known as Error).message).toBe('timed out after 60 ms waiting for service s (last status UPGRADING)');

    world.vpcs.set('1', { id: '1', name: 'v', cidr: '10.0.0.0/16', region_code: 'az-eastus2', status: 'CREATING' });
    const seen: string[] = [];
    const vpcWait = poller.waitForVpc('1', (v) => v?.status === 'CREATED', { onStatus: (status) => seen.push(status) });
    await world.timers.advance(30);
    world.vpcs.set('1', { ...world.vpcs.get('1')!, status: 'CREATED' });
    await expect(world.timers.runUntilSettled(vpcWait)).resolves.toMatchObject({ id: '1', status: 'CREATED' });
    expect(seen).toEqual(['CREATING', 'CREATED']);
    world.vpcs.clear();
    await expect(world.timers.runUntilSettled(poller.waitForVpc('1', () => false))).rejects.toThrow('VPC 1 is gone (deleted while waiting for it)');
  });

  it('ends a peering wait on any spelling of a failed status, with the error message', async () => {
    const world = new FakeWorld();
    world.peerings.set('x', { id: 'x', peer_account_id: 'a', peer_region_code: 'us-east-1', peer_vpc_id: 'v', status: 'INVALID', error_message: 'peer account not found' });
    const poller = pollerOf(world, { projectId: 'p', pollMs: 5 });
    await expect(world.timers.runUntilSettled(poller.waitForPeering('1', 'x', (p) => p?.status === 'ACTIVE'))).rejects.toThrow('peering x of VPC 1 failed: peer account not found');
  });

  it('reads DBFORM_POLL_MS and rejects nonsense', () => {
    expect(pollMsFromEnv({})).toBe(1000);
    expect(pollMsFromEnv({ DBFORM_POLL_MS: '50' })).toBe(50);
    expect(() => pollMsFromEnv({ DBFORM_POLL_MS: 'fast' })).toThrow(/DBFORM_POLL_MS/);
  });
});
