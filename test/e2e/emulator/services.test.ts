import { describe, expect, it } from 'vitest';
import { apiOf, expectError, P, useEmulator } from './helpers.js';

describe('services: create, read, list, delete, fork (time scale 0)', () => {
  const em = useEmulator({ timeScale: 0 });
  const api = apiOf(em);

  it('create answers 202 with the transitional status, endpoint and initial_password; reads never show the password', async () => {
    const created = await api('POST', `${P}/services`, { name: 'db', addons: ['time-series'], cpu_millis: '2000', memory_gbs: '8' });
    expect(created.status).toBe(202);
    const s = created.body;
    expect(s.service_id).toMatch(/^[a-z0-9]{10}$/);
    expect(s).toMatchObject({
      name: 'db',
      project_id: 'proj-demo',
      region_code: 'us-east-1',
      service_type: 'TIMESERIESDB',
      status: 'QUEUED',
      endpoint: { host: `${s.service_id}.proj-demo.tsdb.cloud.example`, port: 5432 },
      resources: [{ spec: { cpu_millis: 2000, memory_gbs: 8, volume_type: 'dedicated' } }],
      ha_replicas: { replica_count: 0, sync_replica_count: 0 },
      metadata: { environment: 'DEV' },
      read_replica_sets: [],
    });
    expect(typeof s.initial_password).toBe('string');
    expect(s.initial_password.length).toBeGreaterThanOrEqual(16);
    expect(Date.parse(s.created)).toBeGreaterThan(Date.now() - 60_000);
    expect(s.connection_pooler).toBeUndefined();
    expect(s.vpc_endpoint).toBeUndefined();
    expect(s.forked_from).toBeUndefined();

    const read = await api('GET', `${P}/services/${s.service_id}`);
    expect(read.status).toBe(200);
    expect(read.body.status).toBe('READY'); // time scale 0: the transition ends at the next read
    expect(read.body.initial_password).toBeUndefined();
    expect(read.text).not.toContain(s.initial_password);
    const list = await api('GET', `${P}/services`);
    expect(list.text).not.toContain(s.initial_password);
    expect(list.body.find((x: any) => x.service_id === s.service_id)).toEqual(read.body);
  });

  it('create defaults: POSTGRES, shared size, DEV, us-east-1, no HA; ai addon accepted; replica_count honoured', async () => {
    const plain = (await api('POST', `${P}/services`, { name: 'plain' })).body;
    expect(plain).toMatchObject({ service_type: 'POSTGRES', region_code: 'us-east-1', metadata: { environment: 'DEV' } });
    expect(plain.resources).toEqual([{ id: expect.any(String), spec: { volume_type: 'shared' } }]);
    const full = (
      await api('POST', `${P}/services`, {
        name: 'full',
        addons: ['ai'],
        cpu_millis: 'shared',
        memory_gbs: 'shared',
        environment_tag: 'PROD',
        region_code: 'eu-central-1',
        replica_count: 2,
      })
    ).body;
    expect(full).toMatchObject({
      service_type: 'POSTGRES',
      region_code: 'eu-central-1',
      metadata: { environment: 'PROD' },
      ha_replicas: { replica_count: 2, sync_replica_count: 0 },
      resources: [{ spec: { volume_type: 'shared' } }],
    });
  });

  it('reports the addons a service was created with (sorted, once each); a fork has its parent\'s', async () => {
    const none = (await api('POST', `${P}/services`, { name: 'none' })).body;
    expect(none.addons).toEqual([]);
    const both = (await api('POST', `${P}/services`, { name: 'both', addons: ['time-series', 'ai', 'ai'] })).body;
    expect(both).toMatchObject({ service_type: 'TIMESERIESDB', addons: ['ai', 'time-series'] });
    const read = (await api('GET', `${P}/services/${both.service_id}`)).body;
    expect(read.addons).toEqual(['ai', 'time-series']);
    const fork = (await api('POST', `${P}/services/${both.service_id}/forkService`, { fork_strategy: 'NOW' })).body;
    expect(fork).toMatchObject({ service_type: 'TIMESERIESDB', addons: ['ai', 'time-series'] });
  });

  it('names need not be unique; the list keeps creation order', async () => {
    const a = (await api('POST', `${P}/services`, { name: 'twin' })).body.service_id;
    const b = (await api('POST', `${P}/services`, { name: 'twin' })).body.service_id;
    expect(a).not.toBe(b);
    const ids = (await api('GET', `${P}/services`)).body.map((s: any) => s.service_id);
    expect(ids.indexOf(a)).toBeLessThan(ids.indexOf(b));
  });

  it.each([
    [{}, 'name', 'is required'],
    [{ name: '' }, 'name', '1-128'],
    [{ name: 'x'.repeat(129) }, 'name', '1-128'],
    [{ name: 7 }, 'name', 'string'],
    [{ name: 'a', addons: 'time-series' }, 'addons', 'array'],
    [{ name: 'a', addons: ['vector'] }, 'addons[0]', 'time-series, ai'],
    [{ name: 'a', cpu_millis: '1000' }, 'memory_gbs', 'together'],
    [{ name: 'a', memory_gbs: '4' }, 'cpu_millis', 'together'],
    [{ name: 'a', cpu_millis: 1000, memory_gbs: '4' }, 'cpu_millis', 'string of digits or "shared"'],
    [{ name: 'a', cpu_millis: '1000', memory_gbs: '8' }, 'cpu_millis', 'not an allowed size'],
    [{ name: 'a', cpu_millis: 'shared', memory_gbs: '4' }, 'memory_gbs', '"shared" must be used for both'],
    [{ name: 'a', cpu_millis: '1k', memory_gbs: '4' }, 'cpu_millis', 'digits'],
    [{ name: 'a', environment_tag: 'STAGING' }, 'environment_tag', 'DEV, PROD'],
    [{ name: 'a', region_code: 'mars' }, 'region_code', 'region code'],
    [{ name: 'a', region_code: 5 }, 'region_code', 'string'],
    [{ name: 'a', replica_count: 3 }, 'replica_count', 'between 0 and 2'],
    [{ name: 'a', replica_count: 1.5 }, 'replica_count', 'integer'],
    [{ name: 'a', replica_count: '1' }, 'replica_count', 'integer'],
  ])('create with %j is a 400 naming %s', async (body, field, text) => {
    const before = (await api('GET', `${P}/services`)).body.length;
    const err = expectError(await api('POST', `${P}/services`, body), 400, 'VALIDATION_ERROR');
    expect(err.message).toContain(`"${field}"`);
    expect(err.message).toContain(text);
    expect((await api('GET', `${P}/services`)).body.length).toBe(before);
  });

  it('a body that is not an object is a 400', async () => {
    expectError(await api('POST', `${P}/services`, ['name']), 400, 'VALIDATION_ERROR');
    expectError(await api('POST', `${P}/services`, undefined), 400, 'VALIDATION_ERROR');
  });

  it('delete answers 202 DELETING; the service is then gone (404, absent from the list) with its replica sets', async () => {
    const id = (await api('POST', `${P}/services`, { name: 'doomed' })).body.service_id;
    await api('GET', `${P}/services/${id}`);
    expect((await api('POST', `${P}/services/${id}/replicaSets`, { name: 'r', cpu_millis: 500, memory_gbs: 2, nodes: 1 })).status).toBe(202);
    const del = await api('DELETE', `${P}/services/${id}`);
    expect(del.status).toBe(202);
    expect(del.body.status).toBe('DELETING');
    expectError(await api('GET', `${P}/services/${id}`), 404, 'NOT_FOUND');
    expectError(await api('GET', `${P}/services/${id}/replicaSets`), 404, 'NOT_FOUND');
    expect((await api('GET', `${P}/services`)).body.some((s: any) => s.service_id === id)).toBe(false);
    expectError(await api('DELETE', `${P}/services/${id}`), 404, 'NOT_FOUND');
    expectError(await api('GET', `${P}/services/nosuchsvc1`), 404, 'NOT_FOUND');
  });

  it('fork: default name, inherits type, region and size, HA 0, DEV, forked_from; 202 QUEUED with password', async () => {
    const parent = (
      await api('POST', `${P}/services`, {
        name: 'metrics',
        addons: ['time-series'],
        region_code: 'eu-west-1',
        cpu_millis: '4000',
        memory_gbs: '16',
        replica_count: 2,
        environment_tag: 'PROD',
      })
    ).body;
    await api('GET', `${P}/services/${parent.service_id}`);
    await api('POST', `${P}/services/${parent.service_id}/enablePooler`);
    const fork = await api('POST', `${P}/services/${parent.service_id}/forkService`, { fork_strategy: 'NOW' });
    expect(fork.status).toBe(202);
    expect(fork.body).toMatchObject({
      name: 'metrics-fork',
      status: 'QUEUED',
      service_type: 'TIMESERIESDB',
      region_code: 'eu-west-1',
      resources: [{ spec: { cpu_millis: 4000, memory_gbs: 16 } }],
      ha_replicas: { replica_count: 0, sync_replica_count: 0 },
      metadata: { environment: 'DEV' },
      forked_from: { is_standby: false, project_id: 'proj-demo', service_id: parent.service_id },
      endpoint: { host: `${fork.body.service_id}.proj-demo.tsdb.cloud.example`, port: 5432 },
    });
    expect(fork.body.connection_pooler).toBeUndefined();
    expect(typeof fork.body.initial_password).toBe('string');
    expect(fork.body.service_id).not.toBe(parent.service_id);
    const read = (await api('GET', `${P}/services/${fork.body.service_id}`)).body;
    expect(read.initial_password).toBeUndefined();
    expect(read.forked_from.service_id).toBe(parent.service_id);
    // A fork holds its parent's data (SPEC section 9: it inherits storage).
    const parentRead = (await api('GET', `${P}/services/${parent.service_id}`)).body;
    expect(read.metrics.storage_mb).toBe(parentRead.metrics.storage_mb);

    const custom = await api('POST', `${P}/services/${parent.service_id}/forkService`, {
      fork_strategy: 'LAST_SNAPSHOT',
      name: 'preview',
      cpu_millis: '1000',
      memory_gbs: '4',
      environment_tag: 'PROD',
    });
    expect(custom.body).toMatchObject({ name: 'preview', resources: [{ spec: { cpu_millis: 1000, memory_gbs: 4 } }], metadata: { environment: 'PROD' } });
  });

  it('fork PITR needs target_time in the past and after the parent was created', async () => {
    const parent = (await api('POST', `${P}/services`, { name: 'pitr-parent' })).body;
    const id = parent.service_id;
    const created = Date.parse(parent.created);
    await new Promise((r) => setTimeout(r, 20));
    const fork = (b: unknown) => api('POST', `${P}/services/${id}/forkService`, b);
    const ok = await fork({ fork_strategy: 'PITR', target_time: new Date(created + 5).toISOString() });
    expect(ok.status).toBe(202);
    expect(ok.body.name).toBe('pitr-parent-fork');
    const bad: Array<[unknown, string, string]> = [
      [{ fork_strategy: 'PITR' }, 'target_time', 'required'],
      [{ fork_strategy: 'PITR', target_time: 'yesterday' }, 'target_time', 'RFC 3339'],
      [{ fork_strategy: 'PITR', target_time: '2026-13-45T00:00:00Z' }, 'target_time', 'RFC 3339'],
      [{ fork_strategy: 'PITR', target_time: '2026-02-30T00:00:00Z' }, 'target_time', 'RFC 3339'],
      [{ fork_strategy: 'PITR', target_time: 12 }, 'target_time', 'RFC 3339'],
      [{ fork_strategy: 'PITR', target_time: new Date(Date.now() + 3_600_000).toISOString() }, 'target_time', 'in the past'],
      [{ fork_strategy: 'PITR', target_time: new Date(created - 60_000).toISOString() }, 'target_time', "parent's creation"],
      [{ fork_strategy: 'NOW', target_time: new Date(created).toISOString() }, 'target_time', 'only allowed with fork_strategy PITR'],
      [{}, 'fork_strategy', 'required'],
      [{ fork_strategy: 'LATER' }, 'fork_strategy', 'LAST_SNAPSHOT, NOW, PITR'],
      [{ fork_strategy: 'NOW', name: '' }, 'name', '1-128'],
      [{ fork_strategy: 'NOW', cpu_millis: '3000', memory_gbs: '8' }, 'cpu_millis', 'not an allowed size'],
      [{ fork_strategy: 'NOW', environment_tag: 'prod' }, 'environment_tag', 'DEV, PROD'],
    ];
    for (const [body, field, text] of bad) {
      const err = expectError(await fork(body), 400, 'VALIDATION_ERROR');
      expect(err.message, JSON.stringify(body)).toContain(`"${field}"`);
      expect(err.message, JSON.stringify(body)).toContain(text);
    }
  });

  it('fork of a parent that is not READY is a 409; of a missing parent a 404', async () => {
    const id = (await api('POST', `${P}/services`, { name: 'sleepy' })).body.service_id;
    await api('GET', `${P}/services/${id}`);
    await api('POST', `${P}/services/${id}/stop`);
    await api('GET', `${P}/services/${id}`);
    const err = expectError(await api('POST', `${P}/services/${id}/forkService`, { fork_strategy: 'NOW' }), 409, 'CONFLICT');
    expect(err.message).toContain('PAUSED');
    expectError(await api('POST', `${P}/services/zzzzzzzzzz/forkService`, { fork_strategy: 'NOW' }), 404, 'NOT_FOUND');
  });

  it('a long parent name keeps the fork name within 128 characters', async () => {
    const id = (await api('POST', `${P}/services`, { name: 'n'.repeat(128) })).body.service_id;
    await api('GET', `${P}/services/${id}`);
    const fork = await api('POST', `${P}/services/${id}/forkService`, { fork_strategy: 'NOW' });
    expect(fork.body.name).toHaveLength(128);
    expect(fork.body.name.endsWith('-fork')).toBe(true);
  });

  it('counts name lengths in characters, so emoji count once and are never cut in half', async () => {
    const emoji = '\u{1F600}'; // two UTF-16 units, one character
    const long = await api('POST', `${P}/services`, { name: emoji.repeat(128) });
    expect(long.status).toBe(202);
    expectError(await api('POST', `${P}/services`, { name: emoji.repeat(129) }), 400, 'VALIDATION_ERROR');
    expect((await api('POST', `${P}/vpcs`, { name: emoji.repeat(70), cidr: '10.77.0.0/16', region_code: 'us-east-1' })).status).toBe(201);
    const parent = (await api('POST', `${P}/services`, { name: `${'a'.repeat(122)}${emoji}${emoji}` })).body.service_id;
    await api('GET', `${P}/services/${parent}`);
    const fork = await api('POST', `${P}/services/${parent}/forkService`, { fork_strategy: 'NOW' });
    expect(fork.body.name).toBe(`${'a'.repeat(122)}${emoji}-fork`);
    expect(fork.body.name.isWellFormed()).toBe(true);
  });
});
