// Batched waiting against the emulator: the request log proves one list request per tick. On fake
// time (test/support/fake-clock-api.ts): the emulator's transitions and the poller's ticks follow
// one clock that the test moves, so the counts are the schedule's own, however loaded the machine.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApiClient } from '../../../src/api/client.js';
import { StatusPoller } from '../../../src/api/waiters.js';
import type { EmulatorHandle } from '../../../src/emulator/index.js';
import { driveUntilSettled, InFlightCounter } from '../../support/fake-clock-api.js';
import { FakeTimers } from '../../support/fake-timers.js';
import { clientFor, countOf, emulator, fetchStats, PROJECT } from './helpers.js';

const timers = new FakeTimers();
let em: EmulatorHandle;
let api: ApiClient;

// Nominal durations at time scale 0.05: create 1 s + 4 s -> 250 ms; resize 3 s -> 150 ms.
const SCALE = 0.05;
const POLL_MS = 25;

beforeAll(async () => {
  em = await emulator({ timeScale: SCALE, now: () => timers.now() });
  api = clientFor(em);
});
afterAll(async () => {
  await api.close();
  await em.close();
});

/** The requests the waits made: service lists, and reads of one service. */
const pollReads = () => countOf(em, 'GET /projects/{project_id}/services') + countOf(em, 'GET /projects/{project_id}/services/{service_id}');

function pollerOnFakeTime() {
  const calls = new InFlightCounter();
  const poller = new StatusPoller(calls.wrap(api), { projectId: PROJECT, pollMs: POLL_MS, timers });
  return { poller, wait: <T>(p: Promise<T>) => driveUntilSettled(timers, p, calls.busy) };
}

describe('waiting on many resources', () => {
  it('waiting on 50 services at once costs one list request per tick: as many as one wait alone looks', async () => {
    const create = (name: string) => api.createService(PROJECT, { name, cpu_millis: '1000', memory_gbs: '4' });
    // One wait alone, over the same timeline (QUEUED, CONFIGURING, READY): its looks are the yardstick.
    const lone = await create('alone');
    em.resetStats();
    const single = pollerOnFakeTime();
    await single.wait(single.poller.waitForServiceStatus(lone.service_id, 'READY', { timeoutMs: 10_000 }));
    const looksAlone = pollReads();
    expect(looksAlone).toBeGreaterThanOrEqual(3);
    await api.deleteService(PROJECT, lone.service_id);

    const created = await Promise.all(Array.from({ length: 50 }, (_, i) => create(`wait-${i}`)));
    em.resetStats();
    const { poller, wait } = pollerOnFakeTime();
    const ready = await wait(Promise.all(created.map((s) => poller.waitForServiceStatus(s.service_id, 'READY', { timeoutMs: 10_000 }))));
    expect(ready.every((s) => s?.status === 'READY')).toBe(true);

    const stats = await fetchStats(em);
    const lists = stats.requests['GET /projects/{project_id}/services'] ?? 0;
    expect(lists).toBe(poller.stats().serviceListRequests);
    expect(stats.total).toBe(lists);
    // The 50 waits started together and follow one schedule: they cost the looks of one wait.
    expect(lists).toBe(looksAlone);
    single.poller.close();
    poller.close();
  });

  it('50 concurrent resizes cost as many requests as one', async () => {
    const services = (await api.listServices(PROJECT)).filter((s) => s.name.startsWith('wait-'));
    expect(services).toHaveLength(50);

    const [one, ...rest] = services;
    em.resetStats();
    const single = pollerOnFakeTime();
    await api.resizeService(PROJECT, one!.service_id, { cpu_millis: '2000', memory_gbs: '8' });
    await single.wait(single.poller.waitForServiceStatus(one!.service_id, 'READY'));
    // A lone wait reads its service alone (a list of 50 costs more): count every read of the waits.
    const forOne = pollReads();
    expect(forOne).toBeGreaterThanOrEqual(3);

    em.resetStats();
    const batch = pollerOnFakeTime();
    await Promise.all(rest.map((s) => api.resizeService(PROJECT, s.service_id, { cpu_millis: '2000', memory_gbs: '8' })));
    await batch.wait(Promise.all(rest.map((s) => batch.poller.waitForServiceStatus(s.service_id, 'READY'))));
    expect(countOf(em, 'POST /projects/{project_id}/services/{service_id}/resize')).toBe(49);
    expect(pollReads()).toBe(forOne);
    const live = await api.listServices(PROJECT);
    expect(live.filter((s) => s.name.startsWith('wait-') && s.resources[0]?.spec?.cpu_millis === 2000)).toHaveLength(50);
    single.poller.close();
    batch.poller.close();
  });
});
