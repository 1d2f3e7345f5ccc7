// The poll schedule of SPEC section 5 as amended in turn 2, and the per-tick choice between one
// list and per-resource reads (SPEC section 8), on fake time: every gap is exact.
import { describe, expect, it } from 'vitest';
import { simulateLooks } from '../../../src/api/poll-schedule.js';
// The schedule of before turn 2, which only the bench keeps.
import { simulateLooks as benchLooks } from '../../../bench/critical-path.js';
import { count, FakeWorld, pollerOf } from './fake-world.js';

const gapsOf = (times: number[], from: number) => times.map((t, i) => t - (i === 0 ? from : times[i - 1]!));
const ticksOf = (w: FakeWorld) => w.calls.filter((c) => c.what === 'services' || c.what.startsWith('service:')).map((c) => c.at);

describe('the poll schedule', () => {
  it('looks every pollMs until a fifth of the time since the wait started is more, then grows, never past 10x', async () => {
    const world = new FakeWorld();
    world.setService('s', 'UPGRADING');
    const poller = pollerOf(world, { projectId: 'p', pollMs: 10 });
    const started = world.timers.now();
    const wait = poller.waitForServiceStatus('s', 'READY', { timeoutMs: 10_000 });
    await world.timers.advance(1500);
    world.setService('s', 'READY');
    await world.timers.runUntilSettled(wait);
    const gaps = gapsOf(ticksOf(world), started);
    // 10 ms apart while elapsed / 5 <= 10 ms (the first 50 ms), then a fifth of the elapsed time.
    expect(gaps.slice(0, 5)).toEqual([10, 10, 10, 10, 10]);
    expect(gaps[5]).toBe(10);
    expect(gaps[6]).toBeCloseTo(12, 2);
    expect(gaps[7]).toBeCloseTo(14.4, 2);
    expect(Math.min(...gaps)).toBeGreaterThanOrEqual(10);
    expect(Math.max(...gaps)).toBe(100);
    // Seen within one interval of the change (at 1,500 ms), and within a fifth of the elapsed time.
    expect(ticksOf(world).at(-1)! - started).toBeLessThanOrEqual(1600);
  });

  it('starts from pollMs again when the observed status changes', async () => {
    const world = new FakeWorld();
    world.setService('s', 'QUEUED');
    const poller = pollerOf(world, { projectId: 'p', pollMs: 10 });
    const started = world.timers.now();
    const wait = poller.waitForServiceStatus('s', 'READY', { timeoutMs: 10_000 });
    await world.timers.advance(300);
    const before = ticksOf(world).length;
    expect(gapsOf(ticksOf(world), started).at(-1)).toBeGreaterThan(40);
    world.setService('s', 'CONFIGURING');
    await world.timers.advance(150);
    // The tick that saw CONFIGURING, then ticks pollMs apart again.
    const after = gapsOf(ticksOf(world), started).slice(before + 1, before + 4);
    expect(after).toEqual([10, 10, 10]);
    world.setService('s', 'READY');
    await world.timers.runUntilSettled(wait);
  });

  it('never ticks twice within pollMs, however the waits are staggered, and shares the ticks it makes', async () => {
    const world = new FakeWorld();
    const poller = pollerOf(world, { projectId: 'p', pollMs: 100 });
    const waits: Array<Promise<unknown>> = [];
    for (let i = 0; i < 12; i++) {
      world.setService(`s${i}`, 'UPGRADING');
      waits.push(poller.waitForServiceStatus(`s${i}`, 'READY', { immediate: i % 3 === 0 }));
      await world.timers.advance(37);
    }
    await world.timers.advance(1000);
    for (let i = 0; i < 12; i++) world.setService(`s${i}`, 'READY');
    await world.timers.runUntilSettled(Promise.all(waits));
    const ticks = ticksOf(world);
    expect(Math.min(...gapsOf(ticks, -Infinity).slice(1))).toBeGreaterThanOrEqual(100);
    // About 1.4 s of waiting at >= 100 ms a tick: no tick per wait.
    expect(ticks.length).toBeLessThanOrEqual(16);
  });

  it('the before-turn-2 schedule ends a 3 s wait at the third look (4.75 s); the default at 3 s with one more request', () => {
    expect(benchLooks('backoff', 1000, 3000)).toEqual({ looks: 3, seenAt: 4750 });
    expect(simulateLooks(1000, 3000)).toEqual({ looks: 3, seenAt: 3000 });
    expect(simulateLooks(1000, 5000)).toEqual({ looks: 5, seenAt: 5000 });
    // Long operations: the interval reaches its cap of 10 s after 50 s.
    const tenMinutes = simulateLooks(1000, 600_000);
    expect(tenMinutes.seenAt - 600_000).toBeLessThan(10_000);
    expect(tenMinutes.looks).toBeLessThan(benchLooks('backoff', 1000, 600_000).looks * 1.3);
  });
});

describe('what a tick reads', () => {
  const world10 = (services: number) => {
    const world = new FakeWorld();
    world.readsOne = true;
    for (let i = 0; i < services; i++) world.setService(`s${i}`, 'READY');
    return world;
  };

  it('reads the one service waited for, not the whole project, and learns the project size from a list', async () => {
    const world = world10(1000);
    world.setService('s0', 'UPGRADING');
    const poller = pollerOf(world, { projectId: 'p', pollMs: 10 });
    const wait = poller.waitForServiceStatus('s0', 'READY');
    await world.timers.advance(35);
    world.setService('s0', 'READY');
    await world.timers.runUntilSettled(wait);
    expect(count(world, 'services')).toBe(0);
    expect(count(world, 'service:s0')).toBe(4);
    expect(poller.stats()).toMatchObject({ serviceListRequests: 0, serviceReads: 4 });
  });

  it('many waits in a small project cost one list a tick; once the size is known, few waits read per resource', async () => {
    const world = world10(30);
    const poller = pollerOf(world, { projectId: 'p', pollMs: 10 });
    for (let i = 0; i < 20; i++) world.setService(`s${i}`, 'UPGRADING');
    const many = Array.from({ length: 20 }, (_, i) => poller.waitForServiceStatus(`s${i}`, 'READY'));
    await world.timers.advance(25);
    for (let i = 0; i < 20; i++) world.setService(`s${i}`, 'READY');
    await world.timers.runUntilSettled(Promise.all(many));
    expect(count(world, 'services')).toBe(3);
    expect(world.calls.filter((c) => c.what.startsWith('service:'))).toEqual([]);
    // 30 services known: 3 waits cost 9 units per resource against 32 for the list; 11 waits do not.
    world.calls.length = 0;
    for (let i = 0; i < 11; i++) world.setService(`s${i}`, 'UPGRADING');
    const three = [0, 1, 2].map((i) => poller.waitForServiceStatus(`s${i}`, 'READY'));
    await world.timers.advance(10);
    expect(world.calls.map((c) => c.what).sort()).toEqual(['service:s0', 'service:s1', 'service:s2']);
    const eight = [3, 4, 5, 6, 7, 8, 9, 10].map((i) => poller.waitForServiceStatus(`s${i}`, 'READY'));
    await world.timers.advance(10);
    expect(world.calls.slice(3).map((c) => c.what)).toEqual(['services']);
    for (let i = 0; i < 11; i++) world.setService(`s${i}`, 'READY');
    await world.timers.runUntilSettled(Promise.all([...three, ...eight]));
  });

  it('reads a replica set through its own service\'s list, and a 404 there means it is gone', async () => {
    const world = world10(100);
    const rs = (status: string) => [{ id: 'r1', name: 'r', cpu_millis: 500, memory_gbs: 2, nodes: 1, status }];
    world.setService('s5', 'READY', rs('creating'));
    const poller = pollerOf(world, { projectId: 'p', pollMs: 10 });
    const active = poller.waitForReplicaSet('s5', 'r1', (r) => r?.status === 'active');
    await world.timers.advance(15);
    world.setService('s5', 'READY', rs('active'));
    await expect(world.timers.runUntilSettled(active)).resolves.toMatchObject({ id: 'r1', status: 'active' });
    expect(world.calls.map((c) => c.what)).toEqual(['replicaSets:s5', 'replicaSets:s5']);
    const gone = poller.waitForReplicaSet('s5', 'r1', () => false);
    world.services.delete('s5');
    await expect(world.timers.runUntilSettled(gone)).rejects.toThrow('replica set r1 of service s5 is gone (deleted while waiting for it)');
  });
});
