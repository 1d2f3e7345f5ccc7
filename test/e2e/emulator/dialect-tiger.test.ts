// The emulator's tiger dialect (SPEC section 12): every point where it answers as the real
// service's OpenAPI document does instead of cloud-api.md, at time scale 1 under a hand-moved clock.
// The seed dialect's side of each difference is checked next to it, so neither can drift.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { startEmulator } from '../../../src/emulator/index.js';
import { apiOf, expectError, manualClock, P, useEmulator } from './helpers.js';
import { tempDir } from '../../support/temp-dir.js';

const BASIC = `Basic ${Buffer.from('demo-access:demo-secret').toString('base64')}`;
const basic = { token: null, headers: { authorization: BASIC } };

describe('tiger dialect (manual clock, time scale 1)', () => {
  const clock = manualClock();
  const em = useEmulator({ timeScale: 1, now: clock.now, dialect: 'tiger' });
  const api = apiOf(em);
  const seedEm = useEmulator({ timeScale: 0 });
  const seedApi = apiOf(seedEm);
  const ready = async (body: Record<string, unknown> = {}) => {
    const id = (await api('POST', `${P}/services`, { name: 'db', cpu_millis: '1000', memory_gbs: '4', ...body }, basic)).body.service_id as string;
    // READY after 5 s, and its first backup 30 s later (SPEC section 15): replica sets need it.
    clock.advance(35_000);
    return id;
  };

  it('authenticates the seeded key pair with HTTP Basic, and still takes Bearer tokens', async () => {
    expect((await api('GET', '/projects', undefined, basic)).body).toEqual([{ id: 'proj-demo', name: 'Demo' }]);
    expect((await api('GET', '/projects')).body).toEqual([{ id: 'proj-demo', name: 'Demo' }]);
    const wrong = await api('GET', '/projects', undefined, { token: null, headers: { authorization: `Basic ${Buffer.from('demo-access:nope-CANARY').toString('base64')}` } });
    expect(expectError(wrong, 401, 'UNAUTHORIZED').message).toBe('unknown or revoked key pair');
    expect(wrong.text).not.toContain('CANARY');
    const missing = await api('GET', '/projects', undefined, { token: null });
    expect(missing.headers.get('www-authenticate')).toBe('Basic realm="api", Bearer');
    // The key pair is scoped to proj-demo like a PAT.
    expectError(await api('GET', '/projects/proj-other/services', undefined, basic), 404, 'NOT_FOUND');
    // cloud-api.md's dialect takes Bearer only.
    expectError(await seedApi('GET', '/projects', undefined, basic), 401, 'UNAUTHORIZED');
  });

  it('spells the time-series type TIMESCALEDB, omits read_replica_sets, and sends a disabled pooler without endpoint', async () => {
    const id = await ready({ addons: ['time-series'] });
    const svc = (await api('GET', `${P}/services/${id}`, undefined, basic)).body;
    expect(svc.service_type).toBe('TIMESCALEDB');
    expect(svc.connection_pooler).toEqual({});
    expect(svc).not.toHaveProperty('read_replica_sets');
    await api('POST', `${P}/services/${id}/replicaSets`, { name: 'r', cpu_millis: 500, memory_gbs: 2, nodes: 1 }, basic);
    const listed = (await api('GET', `${P}/services`, undefined, basic)).body.find((s: { service_id: string }) => s.service_id === id);
    expect(listed).not.toHaveProperty('read_replica_sets');
    const sets = (await api('GET', `${P}/services/${id}/replicaSets`, undefined, basic)).body;
    expect(sets).toEqual([expect.objectContaining({ name: 'r', status: 'creating', connection_pooler: {} })]);
    await api('POST', `${P}/services/${id}/enablePooler`, undefined, basic);
    expect((await api('GET', `${P}/services/${id}`, undefined, basic)).body.connection_pooler).toEqual({ endpoint: { host: expect.stringContaining(id), port: 6432 } });
    const seedSvc = (await seedApi('POST', `${P}/services`, { name: 'ts', addons: ['time-series'] })).body;
    expect(seedSvc.service_type).toBe('TIMESERIESDB');
    expect(seedSvc).not.toHaveProperty('connection_pooler');
    expect(seedSvc.read_replica_sets).toEqual([]);
  });

  it('answers 202 without a body to deleteService and deleteReplicaSet', async () => {
    const id = await ready();
    const rs = (await api('POST', `${P}/services/${id}/replicaSets`, { name: 'r', cpu_millis: 500, memory_gbs: 2, nodes: 1 }, basic)).body;
    clock.advance(4000);
    const delRs = await api('DELETE', `${P}/services/${id}/replicaSets/${rs.id}`, undefined, basic);
    expect([delRs.status, delRs.text]).toEqual([202, '']);
    const del = await api('DELETE', `${P}/services/${id}`, undefined, basic);
    expect([del.status, del.text]).toEqual([202, '']);
    expect((await api('GET', `${P}/services/${id}`, undefined, basic)).body.status).toBe('DELETING');
  });

  it('creates a VPC CREATING for 2 s, then CREATED; nothing is attached to or peered with it before', async () => {
    const id = await ready();
    const vpc = await api('POST', `${P}/vpcs`, { name: 'v', cidr: '10.9.0.0/16', region_code: 'us-east-1' }, basic);
    expect([vpc.status, vpc.body.status]).toEqual([201, 'CREATING']);
    const vpcId = vpc.body.id as string;
    clock.advance(1999);
    expect((await api('GET', `${P}/vpcs/${vpcId}`, undefined, basic)).body.status).toBe('CREATING');
    const peer = { peer_account_id: '123456789012', peer_region_code: 'us-east-1', peer_vpc_id: 'vpc-x' };
    expect(expectError(await api('POST', `${P}/vpcs/${vpcId}/peerings`, peer, basic), 409, 'CONFLICT').message).toContain('being created');
    expect(expectError(await api('POST', `${P}/services/${id}/attachToVPC`, { vpc_id: vpcId }, basic), 409, 'CONFLICT').message).toContain('being created');
    clock.advance(1);
    expect((await api('GET', `${P}/vpcs`, undefined, basic)).body.find((v: { id: string }) => v.id === vpcId).status).toBe('CREATED');
    expect((await api('POST', `${P}/services/${id}/attachToVPC`, { vpc_id: vpcId }, basic)).status).toBe(202);
    expect((await api('POST', `${P}/vpcs/${vpcId}/peerings`, peer, basic)).status).toBe(201);
    expect((await seedApi('POST', `${P}/vpcs`, { name: 'v', cidr: '10.9.0.0/16', region_code: 'us-east-1' })).body).not.toHaveProperty('status');
  });

  it('peerings: PENDING 2 s -> APPROVED 1 s -> ACTIVE; a bad peer account ends INVALID with a message', async () => {
    const vpcId = (await api('POST', `${P}/vpcs`, { name: 'p', cidr: '10.7.0.0/16', region_code: 'us-east-1' }, basic)).body.id;
    clock.advance(2000);
    const good = await api('POST', `${P}/vpcs/${vpcId}/peerings`, { peer_account_id: '123456789012', peer_region_code: 'us-east-1', peer_vpc_id: 'vpc-ok' }, basic);
    const bad = await api('POST', `${P}/vpcs/${vpcId}/peerings`, { peer_account_id: 'acc-12345', peer_region_code: 'us-east-1', peer_vpc_id: 'vpc-bad' }, basic);
    expect([good.status, good.body.status, bad.body.status]).toEqual([201, 'PENDING', 'PENDING']);
    const at = async (pid: string) => (await api('GET', `${P}/vpcs/${vpcId}/peerings/${pid}`, undefined, basic)).body;
    clock.advance(1999);
    expect((await at(good.body.id)).status).toBe('PENDING');
    clock.advance(1);
    expect(await at(good.body.id)).toMatchObject({ status: 'APPROVED', provisioned_id: expect.stringMatching(/^pcx-/) });
    expect(await at(bad.body.id)).toMatchObject({ status: 'INVALID', error_message: expect.stringContaining('acc-12345') });
    clock.advance(999);
    expect((await at(good.body.id)).status).toBe('APPROVED');
    clock.advance(1);
    expect((await at(good.body.id)).status).toBe('ACTIVE');
  });

  it('takes the sizes 48000/192 and 64000/256 and any region of the open pattern; seed refuses them', async () => {
    const big = await api('POST', `${P}/services`, { name: 'big', cpu_millis: '64000', memory_gbs: '256', region_code: 'az-eastus2' }, basic);
    expect(big.status).toBe(202);
    expect(big.body).toMatchObject({ region_code: 'az-eastus2', resources: [{ spec: { cpu_millis: 64000, memory_gbs: 256 } }] });
    expect((await api('POST', `${P}/vpcs`, { name: 'az', cidr: '10.6.0.0/16', region_code: 'az-eastus2' }, basic)).status).toBe(201);
    expectError(await api('POST', `${P}/services`, { name: 'x', region_code: 'US-East-1' }, basic), 400, 'VALIDATION_ERROR');
    expectError(await seedApi('POST', `${P}/services`, { name: 'big', cpu_millis: '48000', memory_gbs: '192' }), 400, 'VALIDATION_ERROR');
    expectError(await seedApi('POST', `${P}/services`, { name: 'az', region_code: 'az-eastus2' }), 400, 'VALIDATION_ERROR');
  });
});

describe('tiger dialect: state and options', () => {
  it('keeps the key pairs in its state file, and a restart still takes them', async () => {
    const stateFile = join(tempDir('dbform-tiger-state-'), 'state.json');
    const first = await startEmulator({ stateFile, timeScale: 0, dialect: 'tiger' });
    await first.close();
    expect(JSON.parse(readFileSync(stateFile, 'utf8')).key_pairs).toEqual([{ public_key: 'demo-access', secret_key: 'demo-secret', project_id: 'proj-demo' }]);
    const again = await startEmulator({ stateFile, timeScale: 0, dialect: 'tiger' });
    try {
      expect((await apiOf(() => again)('GET', '/projects', undefined, basic)).status).toBe(200);
    } finally {
      await again.close();
    }
  });

  it('a state file from before key pairs existed gets the default pair for proj-demo; a seed file defines its own', async () => {
    const dir = tempDir('dbform-tiger-old-state-');
    const stateFile = join(dir, 'state.json');
    const project = (id: string) => ({ id, name: id, vpcs: [], services: [] });
    writeFileSync(stateFile, JSON.stringify({ format: 'dbform-emulator-state', version: 1, projects: [project('proj-demo')], tokens: [{ token: 'demo-pat', kind: 'pat', project_id: 'proj-demo' }] }));
    const old = await startEmulator({ stateFile, timeScale: 0, dialect: 'tiger' });
    try {
      expect((await apiOf(() => old)('GET', '/projects', undefined, basic)).body).toEqual([{ id: 'proj-demo', name: 'proj-demo' }]);
    } finally {
      await old.close();
    }
    const seed = { projects: [{ id: 'acme', name: 'Acme' }], tokens: [], key_pairs: [{ public_key: 'acme-pub', secret_key: 'acme-sec', project_id: 'acme' }] };
    const custom = await startEmulator({ seed, timeScale: 0, dialect: 'tiger' });
    try {
      const pair = { token: null, headers: { authorization: `Basic ${Buffer.from('acme-pub:acme-sec').toString('base64')}` } };
      expect((await apiOf(() => custom)('GET', '/projects', undefined, pair)).body).toEqual([{ id: 'acme', name: 'Acme' }]);
      expect((await apiOf(() => custom)('GET', '/projects', undefined, basic)).status).toBe(401);
    } finally {
      await custom.close();
    }
    await expect(startEmulator({ seed: { ...seed, key_pairs: [{ public_key: 'a:b', secret_key: 's', project_id: 'acme' }] } })).rejects.toThrow(
      'seed: key_pairs[0].public_key: must be a non-empty string without spaces or ":"',
    );
  });

  it('refuses an unknown dialect', async () => {
    await expect(startEmulator({ dialect: 'aws' })).rejects.toThrow('dialect must be one of seed, tiger (got "aws")');
  });
});
