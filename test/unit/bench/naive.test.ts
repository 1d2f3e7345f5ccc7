// The naive reference must read the same world dbform reads, and wait the way BENCHMARKS.md says
// (a GET per waiting resource per tick). Needs dist/ (bench code runs the built modules).
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { ApiClient } from '../../../src/api/client.js';
import { fetchLiveState } from '../../../src/api/live-state.js';
import { startEmulator, type EmulatorHandle } from '../../../src/emulator/index.js';
import type { LiveState } from '../../../src/model/resources.js';
import { naiveWaits, readLiveNaive } from '../../../bench/naive.js';
import { ids, worldState } from '../../../bench/world.js';
import { removeTempDirs, tempDir } from '../../support/temp-dir.js';

afterAll(removeTempDirs);

let emulator: EmulatorHandle | undefined;
afterEach(async () => {
  await emulator?.close();
  emulator = undefined;
});

async function worldEmulator(services: number, timeScale: number, now?: () => number) {
  const dir = tempDir('dbform-bench-naive-');
  const stateFile = join(dir, 'state.json');
  writeFileSync(stateFile, JSON.stringify(worldState(services)));
  emulator = await startEmulator({ port: 0, stateFile, timeScale, now });
  return { emulator, client: new ApiClient({ baseUrl: emulator.url, token: 'demo-pat' }) };
}

const sorted = (live: LiveState) => ({
  ...live,
  services: [...live.services].sort((a, b) => a.id.localeCompare(b.id)),
  vpcs: [...live.vpcs].sort((a, b) => a.id.localeCompare(b.id)),
});

describe('readLiveNaive', () => {
  it('reads the same live state as fetchLiveState, with one GET per resource', async () => {
    const { emulator, client } = await worldEmulator(12, 0);
    const batched = await fetchLiveState(client, 'proj-demo');
    emulator.resetStats();
    const naive = await readLiveNaive(client, 'proj-demo', { concurrency: 4 });
    expect(sorted(naive)).toEqual(sorted(batched));
    const stats = emulator.stats();
    // 12 services, 2 VPCs with a peering each: 2 lists + 12 GETs + 12 replica set lists + 2 + 2 + 2.
    expect(stats.requests['GET /projects/{project_id}/services/{service_id}']).toBe(12);
    expect(stats.requests['GET /projects/{project_id}/services/{service_id}/replicaSets']).toBe(12);
    expect(stats.requests['GET /projects/{project_id}/vpcs/{vpc_id}/peerings/{peering_id}']).toBe(2);
    expect(stats.total).toBe(2 + 12 + 12 + 2 + 2 + 2);
    await client.close();
  });
});

describe('naiveWaits', () => {
  it('polls the waiting service with its own GET, never the list', async () => {
    // The emulator's clock moves by hand: the resize (3 s) ends only after a first poll has seen
    // it running, however slow the machine (at a real time scale, a loaded one missed it).
    let now = Date.now();
    const { emulator, client } = await worldEmulator(2, 1, () => now);
    const id = ids.service(0);
    await client.resizeService('proj-demo', id, { cpu_millis: '4000', memory_gbs: '16' });
    emulator.resetStats();
    const waiting = naiveWaits(client, 'proj-demo', 10).serviceStatus(id, 'READY', { timeoutMs: 5000 });
    const gets = () => emulator.stats().requests['GET /projects/{project_id}/services/{service_id}'] ?? 0;
    while (gets() < 1) await new Promise((r) => setTimeout(r, 5));
    now += 3000;
    await waiting;
    const stats = emulator.stats();
    expect(stats.requests['GET /projects/{project_id}/services/{service_id}']).toBeGreaterThanOrEqual(2);
    expect(stats.requests['GET /projects/{project_id}/services']).toBeUndefined();
    expect((await client.getService('proj-demo', id)).resources[0]?.spec?.cpu_millis).toBe(4000);
    await client.close();
  });

  it('fails a wait on a replica set in error, and one that outlives its timeout', async () => {
    const { emulator, client } = await worldEmulator(1, 1);
    const waits = naiveWaits(client, 'proj-demo', 5);
    await fetch(`${emulator.origin}/__emulator/replica-sets/${ids.reporting(0)}/fail`, { method: 'POST' });
    await expect(waits.replicaSetActive(ids.service(0), ids.reporting(0), { timeoutMs: 2000 })).rejects.toThrow(/error/);
    await client.resizeService('proj-demo', ids.service(0), { cpu_millis: '4000', memory_gbs: '16' });
    await expect(waits.serviceStatus(ids.service(0), 'READY', { timeoutMs: 50 })).rejects.toThrow(/timed out/);
    await client.close();
  });
});
