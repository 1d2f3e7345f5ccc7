import { describe, expect, it } from 'vitest';
import { startEmulator } from '../../../src/emulator/index.js';
import { apiOf, expectError, manualClock, P, sleep, useEmulator, waitFor } from './helpers.js';

// A hand-moved clock at time scale 1 checks the nominal durations of SPEC section 6 exactly.
describe('timelines at time scale 1 (manual clock)', () => {
  const clock = manualClock();
  const em = useEmulator({ timeScale: 1, now: clock.now });
  const api = apiOf(em);
  const status = async (id: string) => (await api('GET', `${P}/services/${id}`)).body.status;
  const create = async (body: Record<string, unknown> = {}) => {
    const id = (await api('POST', `${P}/services`, { name: 'tl', cpu_millis: '1000', memory_gbs: '4', ...body })).body.service_id as string;
    clock.advance(5000);
    expect(await status(id)).toBe('READY');
    return id;
  };

  it('create: QUEUED 1 s -> CONFIGURING 4 s -> READY', async () => {
    const id = (await api('POST', `${P}/services`, { name: 'c' })).body.service_id;
    expect(await status(id)).toBe('QUEUED');
    clock.advance(999);
    expect(await status(id)).toBe('QUEUED');
    clock.advance(1);
    expect(await status(id)).toBe('CONFIGURING');
    clock.advance(3999);
    expect(await status(id)).toBe('CONFIGURING');
    expectError(await api('POST', `${P}/services/${id}/resize`, { cpu_millis: '500', memory_gbs: '2' }), 409, 'CONFLICT');
    clock.advance(1);
    expect(await status(id)).toBe('READY');
  });

  it('fork: QUEUED 1 s -> CONFIGURING 4 s -> READY', async () => {
    const parent = await create();
    const fork = (await api('POST', `${P}/services/${parent}/forkService`, { fork_strategy: 'LAST_SNAPSHOT' })).body.service_id;
    expect(await status(fork)).toBe('QUEUED');
    clock.advance(1000);
    expect(await status(fork)).toBe('CONFIGURING');
    clock.advance(4000);
    expect(await status(fork)).toBe('READY');
  });

  it('resize and setHA: UPGRADING 3 s -> READY, new values only when READY', async () => {
    const id = await create();
    await api('POST', `${P}/services/${id}/resize`, { cpu_millis: '2000', memory_gbs: '8' });
    clock.advance(2999);
    const mid = (await api('GET', `${P}/services/${id}`)).body;
    expect(mid.status).toBe('UPGRADING');
    expect(mid.resources[0].spec.cpu_millis).toBe(1000);
    clock.advance(1);
    const done = (await api('GET', `${P}/services/${id}`)).body;
    expect(done.status).toBe('READY');
    expect(done.resources[0].spec.cpu_millis).toBe(2000);

    await api('POST', `${P}/services/${id}/setHA`, { replica_count: 2 });
    expectError(await api('POST', `${P}/services/${id}/setHA`, { replica_count: 1 }), 409, 'CONFLICT');
    clock.advance(2999);
    expect((await api('GET', `${P}/services/${id}`)).body.ha_replicas.replica_count).toBe(0);
    clock.advance(1);
    expect((await api('GET', `${P}/services/${id}`)).body).toMatchObject({ status: 'READY', ha_replicas: { replica_count: 2 } });
  });

  it('stop: PAUSING 2 s -> PAUSED; start: RESUMING 2 s -> READY', async () => {
    const id = await create();
    await api('POST', `${P}/services/${id}/stop`);
    expectError(await api('POST', `${P}/services/${id}/start`), 409, 'CONFLICT');
    clock.advance(1999);
    expect(await status(id)).toBe('PAUSING');
    clock.advance(1);
    expect(await status(id)).toBe('PAUSED');
    await api('POST', `${P}/services/${id}/start`);
    expectError(await api('POST', `${P}/services/${id}/stop`), 409, 'CONFLICT');
    clock.advance(1999);
    expect(await status(id)).toBe('RESUMING');
    clock.advance(1);
    expect(await status(id)).toBe('READY');
  });

  it('delete: DELETING 2 s -> gone; every mutation meanwhile is 409, reads still work', async () => {
    const id = await create();
    const rs = (await api('POST', `${P}/services/${id}/replicaSets`, { name: 'r', cpu_millis: 500, memory_gbs: 2, nodes: 1 })).body.id;
    clock.advance(4000);
    await api('DELETE', `${P}/services/${id}`);
    expect((await api('GET', `${P}/services/${id}/replicaSets`)).body.map((r: any) => r.status)).toEqual(['deleting']);
    clock.advance(1999);
    expect(await status(id)).toBe('DELETING');
    expect((await api('GET', `${P}/services`)).body.find((s: any) => s.service_id === id).status).toBe('DELETING');
    for (const [m, action, body] of [
      ['DELETE', '', undefined],
      ['POST', '/enablePooler', undefined],
      ['POST', '/setEnvironment', { environment: 'PROD' }],
      ['POST', '/updatePassword', { password: 'pw' }],
      ['POST', '/stop', undefined],
      ['POST', '/forkService', { fork_strategy: 'NOW' }],
      ['POST', '/replicaSets', { name: 'late', cpu_millis: 500, memory_gbs: 2, nodes: 1 }],
      ['POST', `/replicaSets/${rs}/setEnvironment`, { environment: 'PROD' }],
      ['DELETE', `/replicaSets/${rs}`, undefined],
    ] as const) {
      expect(expectError(await api(m, `${P}/services/${id}${action}`, body), 409, 'CONFLICT').message, action).toContain('being deleted');
    }
    expect((await api('GET', `${P}/services/${id}/logs`)).status).toBe(200);
    clock.advance(1);
    expectError(await api('GET', `${P}/services/${id}`), 404, 'NOT_FOUND');
    expect((await api('GET', `${P}/services`)).body.some((s: any) => s.service_id === id)).toBe(false);
  });

  it('attach and detach leave READY and set or clear vpc_endpoint after 2 s; a second one meanwhile is 409', async () => {
    const id = await create();
    const vpc = (await api('POST', `${P}/vpcs`, { name: 'v', cidr: '10.9.0.0/16', region_code: 'us-east-1' })).body.id;
    await api('POST', `${P}/services/${id}/attachToVPC`, { vpc_id: vpc });
    clock.advance(1999);
    let body = (await api('GET', `${P}/services/${id}`)).body;
    expect(body.status).toBe('READY');
    expect(body.vpc_endpoint).toBeUndefined();
    expect(expectError(await api('POST', `${P}/services/${id}/attachToVPC`, { vpc_id: vpc }), 409, 'CONFLICT').message).toContain('in progress');
    expectError(await api('POST', `${P}/services/${id}/detachFromVPC`, { vpc_id: vpc }), 409, 'CONFLICT');
    expect(expectError(await api('DELETE', `${P}/vpcs/${vpc}`), 409, 'CONFLICT').message).toContain('attached');
    clock.advance(1);
    expect((await api('GET', `${P}/services/${id}`)).body.vpc_endpoint.vpc_id).toBe(vpc);
    await api('POST', `${P}/services/${id}/detachFromVPC`, { vpc_id: vpc });
    clock.advance(1999);
    body = (await api('GET', `${P}/services/${id}`)).body;
    expect(body.vpc_endpoint.vpc_id).toBe(vpc);
    expectError(await api('POST', `${P}/services/${id}/detachFromVPC`, { vpc_id: vpc }), 409, 'CONFLICT');
    expectError(await api('DELETE', `${P}/vpcs/${vpc}`), 409, 'CONFLICT');
    clock.advance(1);
    expect((await api('GET', `${P}/services/${id}`)).body.vpc_endpoint).toBeUndefined();
    expect((await api('DELETE', `${P}/vpcs/${vpc}`)).status).toBe(204);
  });

  it('replica sets: creating 4 s -> active, resizing 2 s -> active, deleting 2 s -> gone', async () => {
    const id = await create();
    const base = `${P}/services/${id}/replicaSets`;
    const rs = (await api('POST', base, { name: 'r', cpu_millis: 1000, memory_gbs: 4, nodes: 2 })).body;
    const rsStatus = async () => (await api('GET', base)).body.find((r: any) => r.id === rs.id)?.status;
    clock.advance(3999);
    expect(await rsStatus()).toBe('creating');
    expectError(await api('POST', `${base}/${rs.id}/resize`, { cpu_millis: '2000', memory_gbs: '8' }), 409, 'CONFLICT');
    clock.advance(1);
    expect(await rsStatus()).toBe('active');
    await api('POST', `${base}/${rs.id}/resize`, { cpu_millis: '2000', memory_gbs: '8' });
    clock.advance(1999);
    expect((await api('GET', base)).body[0]).toMatchObject({ status: 'resizing', cpu_millis: 1000 });
    clock.advance(1);
    expect((await api('GET', base)).body[0]).toMatchObject({ status: 'active', cpu_millis: 2000, memory_gbs: 8 });
    await api('DELETE', `${base}/${rs.id}`);
    clock.advance(1999);
    expect(await rsStatus()).toBe('deleting');
    expect((await api('GET', `${P}/services/${id}`)).body.read_replica_sets[0].status).toBe('deleting');
    expectError(await api('DELETE', `${base}/${rs.id}`), 409, 'CONFLICT');
    expectError(await api('POST', `${base}/${rs.id}/enablePooler`), 409, 'CONFLICT');
    clock.advance(1);
    expect(await rsStatus()).toBeUndefined();
    expect((await api('GET', `${P}/services/${id}`)).body.read_replica_sets).toEqual([]);
  });

  it('peering: pending 2 s -> active (with provisioned_id) or failed (with error_message)', async () => {
    const vpc = (await api('POST', `${P}/vpcs`, { name: 'pv', cidr: '10.8.0.0/16', region_code: 'us-east-1' })).body.id;
    const base = `${P}/vpcs/${vpc}/peerings`;
    const good = (await api('POST', base, { peer_account_id: '123456789012', peer_region_code: 'us-east-1', peer_vpc_id: 'vpc-good' })).body;
    const bad = (await api('POST', base, { peer_account_id: '1234', peer_region_code: 'us-east-1', peer_vpc_id: 'vpc-bad' })).body;
    clock.advance(1999);
    expect((await api('GET', `${base}/${good.id}`)).body.status).toBe('pending');
    expect((await api('GET', `${base}/${bad.id}`)).body.status).toBe('pending');
    clock.advance(1);
    const active = (await api('GET', `${base}/${good.id}`)).body;
    expect(active.status).toBe('active');
    expect(active.provisioned_id).toMatch(/^pcx-[0-9a-f]+$/);
    expect(active.error_message).toBeUndefined();
    const failed = (await api('GET', `${base}/${bad.id}`)).body;
    expect(failed.status).toBe('failed');
    expect(failed.error_message).toContain('1234');
    expect(failed.provisioned_id).toBeUndefined();
  });
});

describe('timelines at a small real time scale', () => {
  it('a create observed by polling goes QUEUED -> CONFIGURING -> READY no sooner than 5 s x scale', async () => {
    // On the real clock: a read is judged only where its answer cannot depend on how loaded the
    // machine is (sent after a deadline surely passed, or answered before it surely came); the
    // exact nominal durations are the manual-clock tests' above.
    const em = await startEmulator({ timeScale: 0.1 });
    try {
      const api = apiOf(() => em);
      const t0 = Date.now();
      const id = (await api('POST', `${P}/services`, { name: 'real' })).body.service_id;
      const t1 = Date.now(); // the emulator created it in [t0, t1]: CONFIGURING from +100 ms, READY from +500 ms
      const reads: Array<{ sent: number; answered: number; status: string }> = [];
      await waitFor(
        async () => {
          const sent = Date.now();
          const status = (await api('GET', `${P}/services/${id}`)).body.status as string;
          reads.push({ sent, answered: Date.now(), status });
          return status;
        },
        (s) => s === 'READY',
        5000,
        15,
      );
      const seen = reads.map((r) => r.status).filter((s, i, all) => all[i - 1] !== s);
      // Never back, never anything else; READY last.
      expect(['QUEUED,CONFIGURING,READY', 'QUEUED,READY', 'CONFIGURING,READY', 'READY']).toContain(seen.join(','));
      for (const r of reads) {
        if (r.answered < t0 + 100) expect(r.status).toBe('QUEUED');
        if (r.sent > t1 + 100 && r.answered < t0 + 500) expect(r.status).toBe('CONFIGURING');
        if (r.answered < t0 + 500) expect(r.status).not.toBe('READY');
        if (r.sent > t1 + 500) expect(r.status).toBe('READY');
      }
    } finally {
      await em.close();
    }
  });

  it('time scale 0: a 202 still shows the transitional status, the next read the final one', async () => {
    const em = await startEmulator({ timeScale: 0 });
    try {
      const api = apiOf(() => em);
      const created = await api('POST', `${P}/services`, { name: 'z' });
      expect(created.body.status).toBe('QUEUED');
      const id = created.body.service_id;
      expect((await api('GET', `${P}/services/${id}`)).body.status).toBe('READY');
      expect((await api('POST', `${P}/services/${id}/stop`)).body.status).toBe('PAUSING');
      expect((await api('GET', `${P}/services/${id}`)).body.status).toBe('PAUSED');
      const rs = await api('POST', `${P}/services/${id}/replicaSets`, { name: 'r', cpu_millis: 500, memory_gbs: 2, nodes: 1 });
      expect(rs.status).toBe(409);
      await api('POST', `${P}/services/${id}/start`);
      const created2 = await api('POST', `${P}/services/${id}/replicaSets`, { name: 'r', cpu_millis: 500, memory_gbs: 2, nodes: 1 });
      expect(created2.body.status).toBe('creating');
      expect((await api('GET', `${P}/services/${id}/replicaSets`)).body[0].status).toBe('active');
      const vpc = (await api('POST', `${P}/vpcs`, { name: 'v', cidr: '10.0.0.0/8', region_code: 'us-east-1' })).body.id;
      const peering = await api('POST', `${P}/vpcs/${vpc}/peerings`, { peer_account_id: '123456789012', peer_region_code: 'us-east-1', peer_vpc_id: 'p' });
      expect(peering.body.status).toBe('pending');
      await sleep(1);
      expect((await api('GET', `${P}/vpcs/${vpc}/peerings`)).body[0].status).toBe('active');
    } finally {
      await em.close();
    }
  });
});
