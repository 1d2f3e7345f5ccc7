import { describe, expect, it } from 'vitest';
import { apiOf, expectError, P, useEmulator } from './helpers.js';

describe('service actions and their 409 rules (time scale 0)', () => {
  const em = useEmulator({ timeScale: 0 });
  const api = apiOf(em);
  const svcPath = (id: string, action = '') => `${P}/services/${id}${action ? `/${action}` : ''}`;
  const get = async (id: string) => (await api('GET', svcPath(id))).body;
  const newService = async (body: Record<string, unknown> = {}) => {
    const id = (await api('POST', `${P}/services`, { name: 'svc', cpu_millis: '1000', memory_gbs: '4', ...body })).body.service_id as string;
    expect((await get(id)).status).toBe('READY');
    return id;
  };
  const newVpc = async (region = 'us-east-1', cidr = '10.1.0.0/16') =>
    (await api('POST', `${P}/vpcs`, { name: 'net', cidr, region_code: region })).body.id as string;

  it('stop then start: 202 PAUSING / RESUMING, then PAUSED / READY; the pooler shows while paused, metrics do not', async () => {
    const id = await newService();
    expect((await api('POST', svcPath(id, 'enablePooler'))).status).toBe(200);
    const stop = await api('POST', svcPath(id, 'stop'));
    expect(stop.status).toBe(202);
    expect(stop.body.status).toBe('PAUSING');
    const pooler = { endpoint: { host: `${id}.proj-demo.tsdb.cloud.example`, port: 6432 } };
    expect(stop.body.connection_pooler).toEqual(pooler);
    const paused = await get(id);
    expect(paused.status).toBe('PAUSED');
    expect(paused.connection_pooler).toEqual(pooler);
    expect(paused.metrics).toBeUndefined();
    const start = await api('POST', svcPath(id, 'start'));
    expect(start.status).toBe(202);
    expect(start.body.status).toBe('RESUMING');
    const ready = await get(id);
    expect(ready.status).toBe('READY');
    expect(ready.connection_pooler).toEqual(pooler);
    expect(ready.metrics).toEqual({ memory_mb: expect.any(Number), milli_cpu: expect.any(Number), storage_mb: expect.any(Number) });
  });

  it('start of a service that is not PAUSED and stop of one that is not READY are 409', async () => {
    const id = await newService();
    expect(expectError(await api('POST', svcPath(id, 'start')), 409, 'CONFLICT').message).toContain('READY');
    await api('POST', svcPath(id, 'stop'));
    expect(expectError(await api('POST', svcPath(id, 'stop')), 409, 'CONFLICT').message).toContain('PAUSED');
  });

  it('resize: 202 UPGRADING with the old size; the new size shows in resources[0].spec once READY', async () => {
    const id = await newService();
    const resize = await api('POST', svcPath(id, 'resize'), { cpu_millis: '8000', memory_gbs: '32' });
    expect(resize.status).toBe(202);
    expect(resize.body.status).toBe('UPGRADING');
    expect(resize.body.resources[0].spec).toMatchObject({ cpu_millis: 1000, memory_gbs: 4 });
    const after = await get(id);
    expect(after.status).toBe('READY');
    expect(after.resources[0].spec).toEqual({ cpu_millis: 8000, memory_gbs: 32, volume_type: 'dedicated' });
    // A shared service can leave the shared tier by resize.
    const shared = await newService({ cpu_millis: 'shared', memory_gbs: 'shared' });
    expect((await api('POST', svcPath(shared, 'resize'), { cpu_millis: '500', memory_gbs: '2' })).status).toBe(202);
    expect((await get(shared)).resources[0].spec).toEqual({ cpu_millis: 500, memory_gbs: 2, volume_type: 'dedicated' });
  });

  it.each([
    [{}, 'cpu_millis', 'required'],
    [{ cpu_millis: '1000' }, 'memory_gbs', 'required'],
    [{ cpu_millis: 1000, memory_gbs: 4 }, 'cpu_millis', 'string of digits'],
    [{ cpu_millis: '1000', memory_gbs: 4 }, 'memory_gbs', 'string of digits'],
    [{ cpu_millis: 'shared', memory_gbs: 'shared' }, 'cpu_millis', 'string of digits'],
    [{ cpu_millis: '1000', memory_gbs: '2' }, 'cpu_millis', 'not an allowed size'],
    [{ cpu_millis: '-500', memory_gbs: '2' }, 'cpu_millis', 'digits'],
  ])('resize with %j is a 400 naming %s', async (body, field, text) => {
    const id = await newService();
    const err = expectError(await api('POST', svcPath(id, 'resize'), body), 400, 'VALIDATION_ERROR');
    expect(err.message).toContain(`"${field}"`);
    expect(err.message).toContain(text);
  });

  it('setHA: 202 UPGRADING; ha_replicas changes once READY; omitted counts are 0', async () => {
    const id = await newService();
    const ha = await api('POST', svcPath(id, 'setHA'), { replica_count: 2, sync_replica_count: 1 });
    expect(ha.status).toBe(202);
    expect(ha.body.status).toBe('UPGRADING');
    expect(ha.body.ha_replicas).toEqual({ replica_count: 0, sync_replica_count: 0 });
    expect((await get(id)).ha_replicas).toEqual({ replica_count: 2, sync_replica_count: 1 });
    await api('POST', svcPath(id, 'setHA'), { replica_count: 1 });
    expect((await get(id)).ha_replicas).toEqual({ replica_count: 1, sync_replica_count: 0 });
  });

  it.each([
    [{}, 'replica_count', 'at least one'],
    [{ replica_count: 3 }, 'replica_count', 'between 0 and 2'],
    [{ replica_count: -1 }, 'replica_count', 'between 0 and 2'],
    [{ replica_count: '2' }, 'replica_count', 'integer'],
    [{ sync_replica_count: 2 }, 'sync_replica_count', 'between 0 and 1'],
    [{ replica_count: 1, sync_replica_count: 1 }, 'sync_replica_count', 'needs replica_count 2'],
    [{ sync_replica_count: 1 }, 'sync_replica_count', 'needs replica_count 2'],
  ])('setHA with %j is a 400 naming %s', async (body, field, text) => {
    const id = await newService();
    const err = expectError(await api('POST', svcPath(id, 'setHA'), body), 400, 'VALIDATION_ERROR');
    expect(err.message).toContain(`"${field}"`);
    expect(err.message).toContain(text);
  });

  it('resize, setHA, attach, detach, fork and createReplicaSet need READY (409 while PAUSED)', async () => {
    const id = await newService();
    const vpc = await newVpc();
    await api('POST', svcPath(id, 'stop'));
    for (const [action, body] of [
      ['resize', { cpu_millis: '2000', memory_gbs: '8' }],
      ['setHA', { replica_count: 1 }],
      ['attachToVPC', { vpc_id: vpc }],
      ['detachFromVPC', { vpc_id: vpc }],
      ['forkService', { fork_strategy: 'NOW' }],
      ['replicaSets', { name: 'r', cpu_millis: 500, memory_gbs: 2, nodes: 1 }],
    ] as const) {
      const err = expectError(await api('POST', svcPath(id, action), body), 409, 'CONFLICT');
      expect(err.message, action).toContain('PAUSED');
    }
  });

  it('pooler, environment and password are accepted while paused (metadata changes)', async () => {
    const id = await newService();
    await api('POST', svcPath(id, 'stop'));
    const en = await api('POST', svcPath(id, 'enablePooler'));
    expect(en.status).toBe(200);
    expect(typeof en.body.message).toBe('string');
    const env = await api('POST', svcPath(id, 'setEnvironment'), { environment: 'PROD' });
    expect(env.status).toBe(200);
    expect(typeof env.body.message).toBe('string');
    const pw = await api('POST', svcPath(id, 'updatePassword'), { password: 'correct horse battery staple' });
    expect(pw.status).toBe(204);
    expect(pw.text).toBe('');
    expect(pw.headers.get('content-type')).toBeNull();
    const paused = await get(id);
    expect(paused.metadata.environment).toBe('PROD');
    expect(paused.connection_pooler.endpoint.port).toBe(6432);
    await api('POST', svcPath(id, 'start'));
    expect((await get(id)).connection_pooler.endpoint.port).toBe(6432);
    expect((await api('POST', svcPath(id, 'disablePooler'))).status).toBe(200);
    expect((await get(id)).connection_pooler).toBeUndefined();
  });

  it('setEnvironment and updatePassword validate their bodies', async () => {
    const id = await newService();
    for (const body of [{}, { environment: 'prod' }, { environment: 1 }]) {
      expect(expectError(await api('POST', svcPath(id, 'setEnvironment'), body), 400, 'VALIDATION_ERROR').message).toContain('"environment"');
    }
    for (const body of [{}, { password: '' }, { password: 42 }]) {
      expect(expectError(await api('POST', svcPath(id, 'updatePassword'), body), 400, 'VALIDATION_ERROR').message).toContain('"password"');
    }
  });

  it('attach and detach: 202 with a message; vpc_endpoint and vpcEndpoint appear and disappear', async () => {
    const id = await newService();
    const vpc = await newVpc();
    const attach = await api('POST', svcPath(id, 'attachToVPC'), { vpc_id: vpc });
    expect(attach.status).toBe(202);
    expect(typeof attach.body.message).toBe('string');
    const attached = await get(id);
    expect(attached.status).toBe('READY');
    expect(attached.vpc_endpoint).toEqual({ host: expect.stringContaining(id), port: 5432, vpc_id: vpc });
    expect(attached.vpcEndpoint).toEqual(attached.vpc_endpoint);
    expectError(await api('POST', svcPath(id, 'attachToVPC'), { vpc_id: vpc }), 409, 'CONFLICT');
    const other = await newVpc('us-east-1', '10.2.0.0/16');
    expect(expectError(await api('POST', svcPath(id, 'attachToVPC'), { vpc_id: other }), 409, 'CONFLICT').message).toContain('already attached');
    expect(expectError(await api('POST', svcPath(id, 'detachFromVPC'), { vpc_id: other }), 409, 'CONFLICT').message).toContain('not attached');
    const detach = await api('POST', svcPath(id, 'detachFromVPC'), { vpc_id: vpc });
    expect(detach.status).toBe(202);
    const detached = await get(id);
    expect(detached.vpc_endpoint).toBeUndefined();
    expect(detached.vpcEndpoint).toBeUndefined();
    expectError(await api('POST', svcPath(id, 'detachFromVPC'), { vpc_id: vpc }), 409, 'CONFLICT');
  });

  it('attach to a VPC of another region is 409; to an unknown VPC 404; without vpc_id 400', async () => {
    const id = await newService();
    const euVpc = await newVpc('eu-west-1', '10.3.0.0/16');
    const err = expectError(await api('POST', svcPath(id, 'attachToVPC'), { vpc_id: euVpc }), 409, 'CONFLICT');
    expect(err.message).toContain('eu-west-1');
    expectError(await api('POST', svcPath(id, 'attachToVPC'), { vpc_id: '9999999999' }), 404, 'NOT_FOUND');
    expect(expectError(await api('POST', svcPath(id, 'attachToVPC'), {}), 400, 'VALIDATION_ERROR').message).toContain('"vpc_id"');
    expect(expectError(await api('POST', svcPath(id, 'detachFromVPC'), { vpc_id: 5 }), 400, 'VALIDATION_ERROR').message).toContain('"vpc_id"');
  });

  it('a vpc_id that is not a digit string is a 400 naming the field, in attach and detach (never a 404)', async () => {
    const id = await newService();
    for (const op of ['attachToVPC', 'detachFromVPC']) {
      for (const vpcId of ['vpc-0a1b2c3d', 'main', '12 34', '-1', '1e3']) {
        const err = expectError(await api('POST', svcPath(id, op), { vpc_id: vpcId }), 400, 'VALIDATION_ERROR');
        expect(err.message, `${op} ${vpcId}`).toContain('"vpc_id"');
        expect(err.details).toBe('vpc_id');
      }
    }
  });
});
