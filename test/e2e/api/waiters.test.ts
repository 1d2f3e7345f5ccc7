// Batched waiting against the emulator: the request log proves one list request per tick.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApiClient } from '../../../src/api/client.js';
import { StatusPoller } from '../../../src/api/waiters.js';
import type { EmulatorHandle } from '../../../src/emulator/index.js';
import { clientFor, countOf, emulator, fetchStats, PROJECT } from './helpers.js';

let em: EmulatorHandle;
let api: ApiClient;

beforeAll(async () => {
  // Create: 1 s + 4 s nominal -> 250 ms; resize: 3 s -> 150 ms.
  em = await emulator({ timeScale: 0.05 });
  api = clientFor(em);
});
afterAll(async () => {
  await api.close();
  await em.close();
});

/** The requests the waits made: service lists, and reads of one service. */
const pollReads = () => countOf(em, 'GET /projects/{project_id}/services') + countOf(em, 'GET /projects/{project_id}/services/{service_id}');

describe('waiting on many resources', () => {
  it('waiting on 50 services at once costs one list request per tick', async () => {
    const created = await Promise.all(
      Array.from({ length: 50 }, (_, i) => api.createService(PROJECT, { name: `wait-${i}`, cpu_millis: '1000', memory_gbs: '4' })),
    );
    em.resetStats();
    const poller = new StatusPoller(api, { projectId: PROJECT, pollMs: 25 });
    const started = Date.now();
    const ready = await Promise.all(created.map((s) => poller.waitForServiceStatus(s.service_id, 'READY', { timeoutMs: 10_000 })));
    const elapsed = Date.now() - started;
    expect(ready.every((s) => s?.status === 'READY')).toBe(true);

    const stats = await fetchStats(em);
    const lists = stats.requests['GET /projects/{project_id}/services'] ?? 0;
    expect(lists).toBe(poller.stats().serviceListRequests);
    expect(stats.total).toBe(lists);
    // Ticks follow the backoff of 25 ms * 1.5^n, not the number of waiters.
    expect(lists).toBeGreaterThanOrEqual(2);
    expect(lists).toBeLessThanOrEqual(Math.ceil(elapsed / 25) + 1);
    expect(lists).toBeLessThan(12);
  });

  it('50 concurrent resizes cost as many list requests as one', async () => {
    const services = (await api.listServices(PROJECT)).filter((s) => s.name.startsWith('wait-'));
    expect(services).toHaveLength(50);

    const one = services[0]!;
    em.resetStats();
    const single = new StatusPoller(api, { projectId: PROJECT, pollMs: 25 });
    await api.resizeService(PROJECT, one.service_id, { cpu_millis: '2000', memory_gbs: '8' });
    await single.waitForServiceStatus(one.service_id, 'READY');
    // A lone wait reads its service alone (a list of 50 costs more): count every read of the waits.
    const forOne = pollReads();

    const rest = services.slice(1);
    em.resetStats();
    const batch = new StatusPoller(api, { projectId: PROJECT, pollMs: 25 });
    await Promise.all(
      rest.map(async (s) => {
        await api.resizeService(PROJECT, s.service_id, { cpu_millis: '2000', memory_gbs: '8' });
        return batch.waitForServiceStatus(s.service_id, 'READY');
      }),
    );
    const forMany = pollReads();
    expect(countOf(em, 'POST /projects/{project_id}/services/{service_id}/resize')).toBe(49);
    expect(forMany).toBeLessThanOrEqual(forOne + 1);
    const live = await api.listServices(PROJECT);
    expect(live.filter((s) => s.name.startsWith('wait-') && s.resources[0]?.spec?.cpu_millis === 2000)).toHaveLength(50);
  });
});
