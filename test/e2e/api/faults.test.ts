// The client under the emulator's injected faults: throttling, 500/503, lost responses, timeouts.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { ApiClient } from '../../../src/api/client.js';
import { AmbiguousCreateError, ApiError } from '../../../src/api/errors.js';
import { fetchLiveState } from '../../../src/api/live-state.js';
import { StatusPoller } from '../../../src/api/waiters.js';
import type { EmulatorHandle } from '../../../src/emulator/index.js';
import { EmulatorClock } from '../../support/emulator-clock.js';
import { clientFor, countOf, emulator, PROJECT } from './helpers.js';

let em: EmulatorHandle;
const noFaults = { faultRate: 0, throttleRate: 0, lostResponseRate: 0, latencyMs: 0 };

beforeAll(async () => {
  em = await emulator({ timeScale: 0, faultSeed: 7 });
});
afterAll(async () => em.close());
beforeEach(() => em.setFaults(noFaults));

/** A client whose debug lines are kept; `afterFirst` runs once, right after the first attempt. */
function observedClient(afterFirst?: (line: string) => void): { api: ApiClient; lines: string[] } {
  const lines: string[] = [];
  const api = clientFor(em, {
    logger: (line) => {
      lines.push(line);
      if (lines.length === 1) afterFirst?.(line);
    },
  });
  return { api, lines };
}

async function readyService(api: ApiClient, name: string): Promise<string> {
  const svc = await api.createService(PROJECT, { name, cpu_millis: '1000', memory_gbs: '4' });
  await new StatusPoller(api, { projectId: PROJECT, pollMs: 5 }).waitForServiceStatus(svc.service_id, 'READY');
  return svc.service_id;
}

describe('fault rate 0.3 and throttle rate 0.3', () => {
  it('reads and safe actions still succeed', async () => {
    const { api, lines } = observedClient();
    const id = await readyService(api, 'chaos-db');
    const vpc = await api.createVPC(PROJECT, { name: 'chaos-vpc', cidr: '10.70.0.0/16', region_code: 'us-east-1' });
    const rs = await api.createReplicaSet(PROJECT, id, { name: 'chaos-rs', cpu_millis: 1000, memory_gbs: 4, nodes: 1 });
    em.setFaults({ faultRate: 0.3, throttleRate: 0.3, faultSeed: 1234 });
    em.resetStats();
    const poller = new StatusPoller(api, { projectId: PROJECT, pollMs: 5 });

    await Promise.all([
      api.listProjects(),
      api.setEnvironment(PROJECT, id, { environment: 'PROD' }),
      api.enablePooler(PROJECT, id),
      api.updatePassword(PROJECT, id, { password: 'chaos-password-1' }),
      api.renameVPC(PROJECT, vpc.id, { name: 'chaos-vpc-2' }),
      api.setReplicaEnvironment(PROJECT, id, rs.id, { environment: 'PROD' }),
    ]);
    await api.resizeService(PROJECT, id, { cpu_millis: '2000', memory_gbs: '8' });
    const resized = await poller.waitForServiceStatus(id, 'READY');
    await api.stopService(PROJECT, id);
    await poller.waitForServiceStatus(id, 'PAUSED');
    await api.startService(PROJECT, id);
    await poller.waitForServiceStatus(id, 'READY');
    const live = await fetchLiveState(api, PROJECT);

    expect(resized?.size).toEqual({ cpuMillis: 2000, memoryGbs: 8 });
    const svc = live.services.find((s) => s.id === id)!;
    expect(svc).toMatchObject({ environment: 'PROD', pooler: true, status: 'READY' });
    expect(svc.replicaSets[0]?.environment).toBe('PROD');
    expect(live.vpcs.find((v) => v.id === vpc.id)?.name).toBe('chaos-vpc-2');
    // The faults did happen, and were absorbed by retries.
    expect(lines.some((l) => / -> 429 RATE_LIMITED .*retrying/.test(l))).toBe(true);
    expect(lines.some((l) => / -> 50[03] [A-Z_]+ .*retrying/.test(l))).toBe(true);
    await api.close();
  });
});

// The wait itself is checked on fake time in retry-after.test.ts.
describe('Retry-After', () => {
  it('a throttled create is retried (nothing was done) and creates exactly one', async () => {
    em.setFaults({ throttleRate: 1 });
    const { api } = observedClient(() => em.setFaults({ throttleRate: 0 }));
    em.resetStats();
    const vpc = await api.createVPC(PROJECT, { name: 'throttled-vpc', cidr: '10.71.0.0/16', region_code: 'us-east-1' });
    expect(countOf(em, 'POST /projects/{project_id}/vpcs')).toBe(2);
    expect((await api.listVPCs(PROJECT)).filter((v) => v.name === 'throttled-vpc').map((v) => v.id)).toEqual([vpc.id]);
    await api.close();
  });
});

describe('creates with an unknown outcome', () => {
  const creates: Array<{ op: string; route: string; run: (api: ApiClient, parent: string) => Promise<unknown>; list: (api: ApiClient, parent: string) => Promise<string[]> }> = [
    {
      op: 'createService',
      route: 'POST /projects/{project_id}/services',
      run: (api) => api.createService(PROJECT, { name: 'lost-service' }),
      list: async (api) => (await api.listServices(PROJECT)).map((s) => s.name),
    },
    {
      op: 'createVPC',
      route: 'POST /projects/{project_id}/vpcs',
      run: (api) => api.createVPC(PROJECT, { name: 'lost-vpc', cidr: '10.72.0.0/16', region_code: 'us-east-1' }),
      list: async (api) => (await api.listVPCs(PROJECT)).map((v) => v.name),
    },
    {
      op: 'createReplicaSet',
      route: 'POST /projects/{project_id}/services/{service_id}/replicaSets',
      run: (api, parent) => api.createReplicaSet(PROJECT, parent, { name: 'lost-rs', cpu_millis: 1000, memory_gbs: 4, nodes: 1 }),
      list: async (api, parent) => (await api.listReplicaSets(PROJECT, parent)).map((r) => r.name),
    },
    {
      op: 'forkService',
      route: 'POST /projects/{project_id}/services/{service_id}/forkService',
      run: (api, parent) => api.forkService(PROJECT, parent, { fork_strategy: 'LAST_SNAPSHOT', name: 'lost-fork' }),
      list: async (api) => (await api.listServices(PROJECT)).map((s) => s.name),
    },
  ];

  it.each(creates)('a lost $op response yields AmbiguousCreateError and no second create', async ({ op, route, run, list }) => {
    const { api } = observedClient();
    const parent = await readyService(api, `parent-of-${op}`);
    em.resetStats();
    em.setFaults({ lostResponseRate: 1 });
    const err = await run(api, parent).catch((e: unknown) => e);
    em.setFaults({ lostResponseRate: 0 });
    expect(err).toBeInstanceOf(AmbiguousCreateError);
    expect(err).toMatchObject({ op, requestName: `lost-${op.replace(/^create|^fork/, '').toLowerCase().replace('replicaset', 'rs').replace('service', op === 'forkService' ? 'fork' : 'service')}` });
    expect((err as Error).message).toMatch(/the outcome is unknown .* not re-sent/);
    expect(countOf(em, route)).toBe(1);
    const name = (err as AmbiguousCreateError).requestName!;
    expect((await list(api, parent)).filter((n) => n === name)).toHaveLength(1);
    await api.close();
  });

  it('a 500 on a create is ambiguous, a 503 is retried: each exactly once created', async () => {
    const seen = new Set<string>();
    for (let seed = 1; seed <= 30 && seen.size < 2; seed++) {
      em.setFaults({ faultRate: 1, faultSeed: seed });
      const { api, lines } = observedClient(() => em.setFaults({ faultRate: 0 }));
      em.resetStats();
      const name = `faulty-${seed}`;
      const outcome = await api.createVPC(PROJECT, { name, cidr: `10.${100 + seed}.0.0/16`, region_code: 'us-east-1' }).catch((e: unknown) => e);
      const named = (await api.listVPCs(PROJECT)).filter((v) => v.name === name);
      if (lines[0]!.includes('-> 503')) {
        seen.add('503');
        expect(outcome).not.toBeInstanceOf(Error);
        expect(countOf(em, 'POST /projects/{project_id}/vpcs')).toBe(2);
        expect(named).toHaveLength(1);
      } else {
        seen.add('500');
        expect(lines[0]).toMatch(/-> 500 INTERNAL_ERROR/);
        expect(outcome).toBeInstanceOf(AmbiguousCreateError);
        expect(((outcome as AmbiguousCreateError).cause as ApiError).status).toBe(500);
        expect(countOf(em, 'POST /projects/{project_id}/vpcs')).toBe(1);
        // The emulator fails before doing anything: nothing exists, and nothing was duplicated.
        expect(named).toHaveLength(0);
      }
      await api.close();
    }
    expect([...seen].sort()).toEqual(['500', '503']);
  });

  it('a create that times out is ambiguous and not re-sent', async () => {
    em.setFaults({ latencyMs: 300 });
    const api = clientFor(em, { timeoutMs: 100 });
    em.resetStats();
    const err = await api.createVPC(PROJECT, { name: 'slow-vpc', cidr: '10.73.0.0/16', region_code: 'us-east-1' }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(AmbiguousCreateError);
    expect((err as Error).message).toMatch(/createVPC "slow-vpc": the outcome is unknown \(createVPC: no answer from the API .* within 100 ms\)/);
    em.setFaults({ latencyMs: 0 });
    await new Promise((r) => setTimeout(r, 400));
    expect(countOf(em, 'POST /projects/{project_id}/vpcs')).toBe(1);
    // Whether the emulator went on with a request whose client left is its business; never two.
    expect((await api.listVPCs(PROJECT)).filter((v) => v.name === 'slow-vpc').length).toBeLessThanOrEqual(1);
    await api.close();
  });
});

describe('checked actions whose response was lost', () => {
  it('stopService is re-sent, refused with 409, and confirmed by reading the service back', async () => {
    const { api, lines } = observedClient();
    // A real timeline, so the transition is still in progress when the repeat arrives.
    const slow = await emulator({ timeScale: 0.1 });
    let armed = false;
    const slowApi = clientFor(slow, {
      logger: (l) => {
        lines.push(l);
        // The first attempt's answer is lost; every later one gets through.
        if (armed) slow.setFaults({ lostResponseRate: 0 });
      },
    });
    const created = await slowApi.createService(PROJECT, { name: 'checked-db', cpu_millis: '1000', memory_gbs: '4' });
    await new StatusPoller(slowApi, { projectId: PROJECT, pollMs: 20 }).waitForServiceStatus(created.service_id, 'READY');
    slow.setFaults({ lostResponseRate: 1 });
    lines.length = 0;
    armed = true;
    const svc = await slowApi.stopService(PROJECT, created.service_id);
    expect(svc?.status).toBe('PAUSING');
    expect(slow.stats().requests['POST /projects/{project_id}/services/{service_id}/stop']).toBe(2);
    expect(lines.some((l) => /the repeat was refused \(409\) but the resource shows the first attempt took effect/.test(l))).toBe(true);
    await slowApi.close();
    await slow.close();
    await api.close();
  });

  it('a resize whose answer was lost is confirmed by its values, not by UPGRADING (which a refused one shows too)', async () => {
    // The emulator's clock stands: the resize lands, the service is UPGRADING with its old size,
    // and the repeat is refused. That status is all a refusal during another change shows too, so
    // the client reports the 409 (the engine waits and looks again: test/e2e/apply/lost-answers.test.ts).
    const clock = new EmulatorClock();
    clock.freeze();
    const held = await emulator({ timeScale: 1, now: clock.now });
    const setup = clientFor(held);
    const svc = await setup.createService(PROJECT, { name: 'resized', region_code: 'us-east-1', cpu_millis: '1000', memory_gbs: '4' });
    clock.advance(3_600_000);
    held.setFaults({ lostResponseRate: 1 });
    const lines: string[] = [];
    const api = clientFor(held, { logger: (l) => lines.push(l) && held.setFaults({ lostResponseRate: 0 }) });
    const resize = { cpu_millis: '2000', memory_gbs: '8' };
    const refused = await api.resizeService(PROJECT, svc.service_id, resize).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(ApiError);
    expect((refused as ApiError).status).toBe(409);
    expect(lines.filter((l) => l.includes('took effect'))).toEqual([]);
    expect((await setup.getService(PROJECT, svc.service_id)).status).toBe('UPGRADING');
    expect(countOf(held, 'POST /projects/{project_id}/services/{service_id}/resize')).toBe(2);
    // It did land: READY, the service shows the values.
    clock.advance(3_600_000);
    expect((await setup.getService(PROJECT, svc.service_id)).resources?.[0]?.spec).toMatchObject({ cpu_millis: 2000, memory_gbs: 8 });
    await Promise.all([api.close(), setup.close()]);
    await held.close();
  });

  it('deleteService is re-sent after a lost response and succeeds', async () => {
    const setup = clientFor(em);
    const id = await readyService(setup, 'lost-delete');
    em.resetStats();
    em.setFaults({ lostResponseRate: 1 });
    const { api } = observedClient(() => em.setFaults({ lostResponseRate: 0 }));
    await expect(api.deleteService(PROJECT, id)).resolves.toBeUndefined();
    await setup.close();
    expect(countOf(em, 'DELETE /projects/{project_id}/services/{service_id}')).toBe(2);
    await api.close();
  });

  it('an attach refused while the service is not READY, whose answer was lost, is not taken for one that took effect', async () => {
    // The service stays QUEUED while the clock stands: the emulator refuses the attach (409), and
    // the first refusal is lost. The repeat is refused too; the service, read back, is not
    // attached. That used to pass for "an attach in progress, not visible yet", and the apply then
    // waited for an attachment that never came (a chaos run hung until its test timed out).
    const clock = new EmulatorClock();
    clock.freeze();
    const held = await emulator({ timeScale: 1, now: clock.now });
    const setup = clientFor(held);
    const vpc = await setup.createVPC(PROJECT, { name: 'attach-vpc', cidr: '10.77.0.0/16', region_code: 'us-east-1' });
    const svc = await setup.createService(PROJECT, { name: 'not-ready-yet', region_code: 'us-east-1', cpu_millis: '1000', memory_gbs: '4' });
    held.setFaults({ lostResponseRate: 1 });
    const lines: string[] = [];
    const api = clientFor(held, { logger: (l) => lines.push(l) && held.setFaults({ lostResponseRate: 0 }) });
    const refused = await api.attachServiceToVPC(PROJECT, svc.service_id, { vpc_id: vpc.id }).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(ApiError);
    expect((refused as ApiError).status).toBe(409);
    expect(countOf(held, 'POST /projects/{project_id}/services/{service_id}/attachToVPC')).toBe(2);
    expect(lines.filter((l) => l.includes('took effect'))).toEqual([]);
    expect((await setup.getService(PROJECT, svc.service_id)).vpc_endpoint ?? null).toBeNull();
    // Once READY, the attach is sent again and takes effect.
    clock.advance(3_600_000);
    await api.attachServiceToVPC(PROJECT, svc.service_id, { vpc_id: vpc.id });
    clock.advance(3_600_000);
    expect((await setup.getService(PROJECT, svc.service_id)).vpc_endpoint?.vpc_id).toBe(vpc.id);
    await Promise.all([api.close(), setup.close()]);
    await held.close();
  });

  it('a lost read is simply retried', async () => {
    em.setFaults({ lostResponseRate: 1 });
    const { api, lines } = observedClient(() => em.setFaults({ lostResponseRate: 0 }));
    expect(await api.listProjects()).toHaveLength(1);
    expect(lines[0]).toMatch(/GET \/projects -> \S+ in \d+ ms \(attempt 1\); retrying/);
    await api.close();
  });
});
