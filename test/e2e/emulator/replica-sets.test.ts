import { describe, expect, it } from 'vitest';
import { apiOf, expectError, P, useEmulator } from './helpers.js';

describe('read replica sets (time scale 0)', () => {
  const em = useEmulator({ timeScale: 0 });
  const api = apiOf(em);
  const newService = async () => {
    const id = (await api('POST', `${P}/services`, { name: 'primary', cpu_millis: '2000', memory_gbs: '8' })).body.service_id as string;
    await api('GET', `${P}/services/${id}`);
    return id;
  };
  const rsBody = { name: 'reporting', cpu_millis: 1000, memory_gbs: 4, nodes: 2 };

  it('create answers 202 creating; list and read_replica_sets carry the same objects', async () => {
    const id = await newService();
    const base = `${P}/services/${id}/replicaSets`;
    const created = await api('POST', base, rsBody);
    expect(created.status).toBe(202);
    const rs = created.body;
    expect(rs).toEqual({
      id: expect.stringMatching(/^[a-z0-9]{10}$/),
      name: 'reporting',
      cpu_millis: 1000,
      memory_gbs: 4,
      nodes: 2,
      status: 'creating',
      endpoint: { host: `${rs.id}.${id}.proj-demo.tsdb.cloud.example`, port: 5432 },
      metadata: { environment: 'DEV' },
    });
    const list = (await api('GET', base)).body;
    expect(list).toEqual([{ ...rs, status: 'active' }]);
    expect((await api('GET', `${P}/services/${id}`)).body.read_replica_sets).toEqual(list);
    const all = (await api('GET', `${P}/services`)).body.find((s: any) => s.service_id === id);
    expect(all.read_replica_sets).toEqual(list);
  });

  it('names are unique within a service (409), not across services', async () => {
    const a = await newService();
    const b = await newService();
    expect((await api('POST', `${P}/services/${a}/replicaSets`, rsBody)).status).toBe(202);
    expect(expectError(await api('POST', `${P}/services/${a}/replicaSets`, rsBody), 409, 'CONFLICT').message).toContain('reporting');
    expect((await api('POST', `${P}/services/${b}/replicaSets`, rsBody)).status).toBe(202);
  });

  it.each([
    [{ cpu_millis: 1000, memory_gbs: 4, nodes: 1 }, 'name', 'required'],
    [{ name: 'r', memory_gbs: 4, nodes: 1 }, 'cpu_millis', 'required'],
    [{ name: 'r', cpu_millis: 1000, nodes: 1 }, 'memory_gbs', 'required'],
    [{ name: 'r', cpu_millis: 1000, memory_gbs: 4 }, 'nodes', 'required'],
    [{ name: 'r', cpu_millis: '1000', memory_gbs: 4, nodes: 1 }, 'cpu_millis', 'integer'],
    [{ name: 'r', cpu_millis: 1000, memory_gbs: '4', nodes: 1 }, 'memory_gbs', 'integer'],
    [{ name: 'r', cpu_millis: 1000, memory_gbs: 4, nodes: 0 }, 'nodes', 'between 1 and 10'],
    [{ name: 'r', cpu_millis: 1000, memory_gbs: 4, nodes: 11 }, 'nodes', 'between 1 and 10'],
    [{ name: 'r', cpu_millis: 1000, memory_gbs: 4, nodes: 1.5 }, 'nodes', 'integer'],
    [{ name: 'r', cpu_millis: 0, memory_gbs: 4, nodes: 1 }, 'cpu_millis', 'between'],
    [{ name: 'r', cpu_millis: 1000, memory_gbs: 8, nodes: 1 }, 'cpu_millis', 'not an allowed size'],
    [{ name: '', cpu_millis: 1000, memory_gbs: 4, nodes: 1 }, 'name', '1-128'],
  ])('create with %j is a 400 naming %s', async (body, field, text) => {
    const id = await newService();
    const err = expectError(await api('POST', `${P}/services/${id}/replicaSets`, body), 400, 'VALIDATION_ERROR');
    expect(err.message).toContain(`"${field}"`);
    expect(err.message).toContain(text);
    expect((await api('GET', `${P}/services/${id}/replicaSets`)).body).toEqual([]);
  });

  it('resize takes digit strings (202 message) and applies once active', async () => {
    const id = await newService();
    const base = `${P}/services/${id}/replicaSets`;
    const rs = (await api('POST', base, rsBody)).body;
    await api('GET', base);
    const resize = await api('POST', `${base}/${rs.id}/resize`, { cpu_millis: '4000', memory_gbs: '16' });
    expect(resize.status).toBe(202);
    expect(typeof resize.body.message).toBe('string');
    expect((await api('GET', base)).body[0]).toMatchObject({ status: 'active', cpu_millis: 4000, memory_gbs: 16 });
    for (const [body, field] of [
      [{ cpu_millis: 4000, memory_gbs: 16 }, 'cpu_millis'],
      [{ cpu_millis: '4000' }, 'memory_gbs'],
      [{ cpu_millis: '4000', memory_gbs: '8' }, 'cpu_millis'],
      [{ cpu_millis: 'shared', memory_gbs: 'shared' }, 'cpu_millis'],
    ] as const) {
      expect(expectError(await api('POST', `${base}/${rs.id}/resize`, body), 400, 'VALIDATION_ERROR').message).toContain(`"${field}"`);
    }
  });

  it('pooler and environment (200 message) show in the set', async () => {
    const id = await newService();
    const base = `${P}/services/${id}/replicaSets`;
    const rs = (await api('POST', base, rsBody)).body;
    const en = await api('POST', `${base}/${rs.id}/enablePooler`);
    expect(en.status).toBe(200);
    expect(typeof en.body.message).toBe('string');
    expect((await api('POST', `${base}/${rs.id}/setEnvironment`, { environment: 'PROD' })).status).toBe(200);
    let got = (await api('GET', base)).body[0];
    expect(got.connection_pooler).toEqual({ endpoint: { host: got.endpoint.host, port: 6432 } });
    expect(got.metadata.environment).toBe('PROD');
    expect((await api('POST', `${base}/${rs.id}/disablePooler`)).status).toBe(200);
    got = (await api('GET', base)).body[0];
    expect(got.connection_pooler).toBeUndefined();
    expect(expectError(await api('POST', `${base}/${rs.id}/setEnvironment`, { environment: 'QA' }), 400, 'VALIDATION_ERROR').message).toContain('"environment"');
  });

  it('delete answers 202 without a body (SPEC section 12), then the set is gone; unknown sets are 404', async () => {
    const id = await newService();
    const base = `${P}/services/${id}/replicaSets`;
    const rs = (await api('POST', base, rsBody)).body;
    const del = await api('DELETE', `${base}/${rs.id}`);
    expect(del.status).toBe(202);
    expect(del.text).toBe('');
    expect(del.headers.get('content-type')).toBeNull();
    expect((await api('GET', base)).body).toEqual([]);
    for (const [m, suffix] of [
      ['DELETE', ''],
      ['POST', '/resize'],
      ['POST', '/enablePooler'],
      ['POST', '/disablePooler'],
      ['POST', '/setEnvironment'],
    ] as const) {
      expectError(await api(m, `${base}/${rs.id}${suffix}`, m === 'POST' ? { environment: 'DEV', cpu_millis: '500', memory_gbs: '2' } : undefined), 404, 'NOT_FOUND');
    }
    expectError(await api('GET', `${P}/services/nosuchsvc0/replicaSets`), 404, 'NOT_FOUND');
  });

  it('creating needs a READY service (409 otherwise)', async () => {
    const id = (await api('POST', `${P}/services`, { name: 'p' })).body.service_id;
    await api('GET', `${P}/services/${id}`);
    await api('POST', `${P}/services/${id}/stop`);
    expect(expectError(await api('POST', `${P}/services/${id}/replicaSets`, rsBody), 409, 'CONFLICT').message).toContain('READY');
  });

  it('POST /__emulator/replica-sets/{id}/fail puts a set in the terminal error status', async () => {
    const id = await newService();
    const base = `${P}/services/${id}/replicaSets`;
    const rs = (await api('POST', base, rsBody)).body;
    const fail = await fetch(`${em().origin}/__emulator/replica-sets/${rs.id}/fail`, { method: 'POST' });
    expect(fail.status).toBe(204);
    expect((await api('GET', base)).body[0].status).toBe('error');
    expect((await api('GET', `${P}/services/${id}`)).body.read_replica_sets[0].status).toBe('error');
    expect(expectError(await api('POST', `${base}/${rs.id}/resize`, { cpu_millis: '500', memory_gbs: '2' }), 409, 'CONFLICT').message).toContain('error');
    expect((await api('DELETE', `${base}/${rs.id}`)).status).toBe(202);
    expect((await api('GET', base)).body).toEqual([]);
    const unknown = await fetch(`${em().origin}/__emulator/replica-sets/nosuchset0/fail`, { method: 'POST' });
    expect(unknown.status).toBe(404);
    expect((await unknown.json()).code).toBe('NOT_FOUND');
    expect((await fetch(`${em().origin}/__emulator/replica-sets/${rs.id}/fail`)).status).toBe(405);
  });
});
