// The tiger dialect's second step (SPEC section 15), with the dialect's own defaults (backups 30 s
// after READY, eventual teardown, moving endpoints) at time scale 1 under a hand-moved clock, over
// real HTTP. Each behaviour's seed side (or its switch turned off) is checked next to it.
import { describe, expect, it } from 'vitest';
import type { EmulatorHandle } from '../../../src/emulator/index.js';
import { apiOf, expectError, manualClock, P, useEmulator, type CallOptions } from './helpers.js';

const BASIC = `Basic ${Buffer.from('demo-access:demo-secret').toString('base64')}`;
const basic: CallOptions = { token: null, headers: { authorization: BASIC } };
const PEER = { peer_account_id: '123456789012', peer_region_code: 'us-east-1' };

/** A tiger emulator at time scale 1 under its own clock, a caller with the key pair, and helpers. */
function tigerWorld(options: Parameters<typeof useEmulator>[0] = {}) {
  const clock = manualClock();
  const em = useEmulator({ timeScale: 1, now: clock.now, dialect: 'tiger', ...options });
  const call = apiOf(em);
  const api = (method: string, path: string, body?: unknown) => call(method, path, body, basic);
  const control = async (path: string) => {
    const res = await fetch(em().origin + path, { method: 'POST' });
    return { status: res.status, text: await res.text() };
  };
  const service = async (name = 'db') => {
    const created = await api('POST', `${P}/services`, { name, cpu_millis: '1000', memory_gbs: '4' });
    expect(created.status).toBe(202);
    return created.body.service_id as string;
  };
  const vpc = async (cidr = '10.0.0.0/16') => {
    const id = (await api('POST', `${P}/vpcs`, { name: `v-${cidr}`, cidr, region_code: 'us-east-1' })).body.id as string;
    clock.advance(2000); // CREATING 2 s (SPEC section 12)
    return id;
  };
  return { clock, em, api, control, service, vpc };
}

describe('rename in place (tiger only)', () => {
  const w = tigerWorld();
  const seedApi = apiOf(useEmulator({ timeScale: 0 }));

  it('answers 200 with the Service: same ID, new name, in any status but DELETING', async () => {
    const id = await w.service('before');
    const queued = await w.api('POST', `${P}/services/${id}/rename`, { name: 'after' });
    expect([queued.status, queued.body.service_id, queued.body.name, queued.body.status]).toEqual([200, id, 'after', 'QUEUED']);
    expect(queued.headers.get('content-type')).toBe('application/json');
    expect(queued.body).not.toHaveProperty('initial_password');
    w.clock.advance(5000);
    expect((await w.api('GET', `${P}/services/${id}`)).body).toMatchObject({ service_id: id, name: 'after', status: 'READY' });
    expect((await w.api('GET', `${P}/services`)).body.filter((s: { service_id: string }) => s.service_id === id).map((s: { name: string }) => s.name)).toEqual(['after']);
    expect(w.em().stats().requests['POST /projects/{project_id}/services/{service_id}/rename']).toBe(1);
    await w.api('DELETE', `${P}/services/${id}`);
    expect(expectError(await w.api('POST', `${P}/services/${id}/rename`, { name: 'late' }), 409, 'CONFLICT').message).toBe(`service "${id}" is being deleted`);
  });

  it('validates the name as every other name: 1-128 characters, a string, required', async () => {
    const id = await w.service();
    const long = 'n'.repeat(129);
    for (const [body, message] of [
      [{}, 'invalid field "name": is required'],
      [{ name: '' }, 'invalid field "name": must be 1-128 characters long (got 0)'],
      [{ name: long }, 'invalid field "name": must be 1-128 characters long (got 129)'],
      [{ name: 42 }, 'invalid field "name": must be a string'],
    ] as const) {
      const e = expectError(await w.api('POST', `${P}/services/${id}/rename`, body), 400, 'VALIDATION_ERROR');
      expect([e.message, e.details]).toEqual([message, 'name']);
    }
    const emoji = '🐘'.repeat(128);
    expect((await w.api('POST', `${P}/services/${id}/rename`, { name: emoji })).body.name).toBe(emoji);
    expectError(await w.api('POST', `${P}/services/nosuchsvc1/rename`, { name: 'x' }), 404, 'NOT_FOUND');
  });

  it('the route exists in tiger only: seed answers 404 for it, tiger 405 for a GET', async () => {
    const seedId = (await seedApi('POST', `${P}/services`, { name: 'keep' })).body.service_id;
    const seed = expectError(await seedApi('POST', `${P}/services/${seedId}/rename`, { name: 'x' }), 404, 'NOT_FOUND');
    expect(seed.message).toBe(`no such endpoint: POST /public/api/v1${P}/services/${seedId}/rename`);
    expect((await seedApi('GET', `${P}/services/${seedId}`)).body.name).toBe('keep');
    const id = await w.service();
    const get = expectError(await w.api('GET', `${P}/services/${id}/rename`), 405, 'METHOD_NOT_ALLOWED');
    expect(get.message).toContain('(allowed: POST)');
  });
});

describe('peerings awaiting the peer', () => {
  const manual = tigerWorld({ peeringAcceptance: 'manual' });
  const auto = tigerWorld();

  it('under manual acceptance: PENDING, then PENDING with a provisioned_id until accepted, then APPROVED 1 s, then ACTIVE', async () => {
    const { api, clock, control } = manual;
    const vpcId = await manual.vpc();
    const created = await api('POST', `${P}/vpcs/${vpcId}/peerings`, { ...PEER, peer_vpc_id: 'vpc-m' });
    expect([created.status, created.body.status, created.body.provisioned_id]).toEqual([201, 'PENDING', undefined]);
    const at = async () => (await api('GET', `${P}/vpcs/${vpcId}/peerings/${created.body.id}`)).body;
    clock.advance(1999);
    expect(await at()).not.toHaveProperty('provisioned_id');
    clock.advance(1);
    const awaiting = await at();
    expect(awaiting).toMatchObject({ status: 'PENDING', provisioned_id: expect.stringMatching(/^pcx-[0-9a-f]{17}$/) });
    clock.advance(3_600_000);
    expect(await at()).toEqual(awaiting);
    expect((await api('GET', `${P}/vpcs/${vpcId}/peerings`)).body).toEqual([awaiting]);
    expect(await control(`/__emulator/peerings/${created.body.id}/accept`)).toEqual({ status: 204, text: '' });
    expect(await at()).toEqual({ ...awaiting, status: 'APPROVED' });
    clock.advance(999);
    expect((await at()).status).toBe('APPROVED');
    clock.advance(1);
    expect(await at()).toEqual({ ...awaiting, status: 'ACTIVE' });
    const again = await control(`/__emulator/peerings/${created.body.id}/accept`);
    expect(again.status).toBe(409);
    expect(JSON.parse(again.text).message).toContain('does not await acceptance');
  });

  it('accepted before it is provisioned, it is APPROVED once provisioned; a bad peer account fails as before and cannot be accepted', async () => {
    const { api, clock, control } = manual;
    const vpcId = await manual.vpc('10.1.0.0/16');
    const early = (await api('POST', `${P}/vpcs/${vpcId}/peerings`, { ...PEER, peer_vpc_id: 'vpc-e' })).body.id;
    const bad = (await api('POST', `${P}/vpcs/${vpcId}/peerings`, { ...PEER, peer_account_id: 'acc-1', peer_vpc_id: 'vpc-b' })).body.id;
    expect((await control(`/__emulator/peerings/${early}/accept`)).status).toBe(204);
    clock.advance(1999);
    expect((await api('GET', `${P}/vpcs/${vpcId}/peerings/${early}`)).body).toMatchObject({ status: 'PENDING' });
    clock.advance(1);
    expect((await api('GET', `${P}/vpcs/${vpcId}/peerings/${early}`)).body).toMatchObject({ status: 'APPROVED', provisioned_id: expect.any(String) });
    expect((await api('GET', `${P}/vpcs/${vpcId}/peerings/${bad}`)).body).toMatchObject({ status: 'INVALID', error_message: expect.stringContaining('acc-1') });
    expect(JSON.parse((await control(`/__emulator/peerings/${bad}/accept`)).text).message).toBe(`peering "${bad}" cannot be accepted: it has failed`);
    expect((await control('/__emulator/peerings/9999999999/accept')).status).toBe(404);
    const get = await fetch(`${manual.em().origin}/__emulator/peerings/${early}/accept`);
    expect([get.status, get.headers.get('allow')]).toEqual([405, 'POST']);
  });

  it('under automatic acceptance (the default) the provisioned_id appears only at APPROVED, and accept is refused', async () => {
    const { api, clock, control } = auto;
    const vpcId = await auto.vpc();
    const id = (await api('POST', `${P}/vpcs/${vpcId}/peerings`, { ...PEER, peer_vpc_id: 'vpc-a' })).body.id;
    clock.advance(1999);
    expect((await api('GET', `${P}/vpcs/${vpcId}/peerings/${id}`)).body).not.toHaveProperty('provisioned_id');
    clock.advance(1);
    expect((await api('GET', `${P}/vpcs/${vpcId}/peerings/${id}`)).body).toMatchObject({ status: 'APPROVED', provisioned_id: expect.any(String) });
    expect((await control(`/__emulator/peerings/${id}/accept`)).status).toBe(409);
    expect(auto.em().switches.peeringAcceptance).toBe('auto');
  });
});

describe('teardown is eventually consistent (tiger default: eventual)', () => {
  const w = tigerWorld();
  const immediate = tigerWorld({ teardown: 'immediate' });
  const seedApi = apiOf(useEmulator({ timeScale: 1 }));

  it('a deleted peering is DELETING for 2 s; its VPC answers 409 "already being updated" meanwhile, then deletes', async () => {
    const { api, clock } = w;
    const vpcId = await w.vpc();
    const peering = (await api('POST', `${P}/vpcs/${vpcId}/peerings`, { ...PEER, peer_vpc_id: 'vpc-t' })).body.id;
    clock.advance(3000);
    const active = (await api('GET', `${P}/vpcs/${vpcId}/peerings/${peering}`)).body;
    expect(active.status).toBe('ACTIVE');
    const live = expectError(await api('DELETE', `${P}/vpcs/${vpcId}`), 409, 'CONFLICT');
    expect(live.message).toBe(`vpc "${vpcId}" still has 1 peering(s); delete them first`);
    const del = await api('DELETE', `${P}/vpcs/${vpcId}/peerings/${peering}`);
    expect([del.status, del.text]).toEqual([204, '']);
    expect((await api('GET', `${P}/vpcs/${vpcId}/peerings`)).body).toEqual([{ ...active, status: 'DELETING' }]);
    const busy = expectError(await api('DELETE', `${P}/vpcs/${vpcId}`), 409, 'CONFLICT');
    expect(busy.message).toBe(`vpc "${vpcId}" is already being updated: waiting for peering ${peering} to be removed; try again shortly`);
    expect(expectError(await api('DELETE', `${P}/vpcs/${vpcId}/peerings/${peering}`), 409, 'CONFLICT').message).toBe(`peering "${peering}" is already being deleted`);
    const same = expectError(await api('POST', `${P}/vpcs/${vpcId}/peerings`, { ...PEER, peer_vpc_id: 'vpc-t' }), 409, 'CONFLICT');
    expect(same.message).toContain('still being deleted');
    clock.advance(1999);
    expect((await api('GET', `${P}/vpcs/${vpcId}/peerings/${peering}`)).body.status).toBe('DELETING');
    clock.advance(1);
    expectError(await api('GET', `${P}/vpcs/${vpcId}/peerings/${peering}`), 404, 'NOT_FOUND');
    expect((await api('GET', `${P}/vpcs/${vpcId}/peerings`)).body).toEqual([]);
    expect((await api('DELETE', `${P}/vpcs/${vpcId}`)).status).toBe(204);
  });

  it('a peering deleted before it was provisioned shows no provisioned_id while it goes', async () => {
    const vpcId = await w.vpc('10.2.0.0/16');
    const peering = (await w.api('POST', `${P}/vpcs/${vpcId}/peerings`, { ...PEER, peer_vpc_id: 'vpc-young' })).body.id;
    await w.api('DELETE', `${P}/vpcs/${vpcId}/peerings/${peering}`);
    w.clock.advance(1999);
    const going = (await w.api('GET', `${P}/vpcs/${vpcId}/peerings/${peering}`)).body;
    expect([going.status, going.provisioned_id]).toEqual(['DELETING', undefined]);
  });

  it("a deleted service's attachment and a detach still going block the VPC with the same 409; an attached service says detach", async () => {
    const { api, clock } = w;
    const vpcId = await w.vpc('10.3.0.0/16');
    const [gone, leaving] = [await w.service('gone'), await w.service('leaving')];
    clock.advance(35_000);
    for (const id of [gone, leaving]) expect((await api('POST', `${P}/services/${id}/attachToVPC`, { vpc_id: vpcId })).status).toBe(202);
    clock.advance(2000);
    expect(expectError(await api('DELETE', `${P}/vpcs/${vpcId}`), 409, 'CONFLICT').message).toContain('still has 2 attached service(s)');
    await api('DELETE', `${P}/services/${gone}`);
    await api('POST', `${P}/services/${leaving}/detachFromVPC`, { vpc_id: vpcId });
    const busy = expectError(await api('DELETE', `${P}/vpcs/${vpcId}`), 409, 'CONFLICT');
    expect(busy.message).toBe(
      `vpc "${vpcId}" is already being updated: waiting for the attachment of service ${gone}, the attachment of service ${leaving} to be removed; try again shortly`,
    );
    expect((await api('GET', `${P}/services/${gone}`)).body).toMatchObject({ status: 'DELETING', vpc_endpoint: { vpc_id: vpcId } });
    clock.advance(2000);
    expectError(await api('GET', `${P}/services/${gone}`), 404, 'NOT_FOUND');
    expect((await api('DELETE', `${P}/vpcs/${vpcId}`)).status).toBe(204);
  });

  it('teardown immediate (and the seed dialect): a deleted peering and a deleted service release the VPC at once', async () => {
    for (const [label, api, advance] of [
      ['tiger, teardown immediate', immediate.api, immediate.clock.advance],
      ['seed', (m: string, p: string, b?: unknown) => seedApi(m, p, b), (_ms: number) => {}],
    ] as const) {
      const vpc = await api('POST', `${P}/vpcs`, { name: 'v', cidr: '10.4.0.0/16', region_code: 'us-east-1' });
      advance(2000);
      const peering = (await api('POST', `${P}/vpcs/${vpc.body.id}/peerings`, { ...PEER, peer_vpc_id: 'vpc-i' })).body.id;
      expect((await api('DELETE', `${P}/vpcs/${vpc.body.id}/peerings/${peering}`)).status, label).toBe(204);
      expect((await api('GET', `${P}/vpcs/${vpc.body.id}/peerings`)).body, label).toEqual([]);
      expect((await api('DELETE', `${P}/vpcs/${vpc.body.id}`)).status, label).toBe(204);
    }
    expect(immediate.em().switches.teardown).toBe('immediate');
  });
});

describe('a service put in FAILED', () => {
  const w = tigerWorld();

  it('reads FAILED until deleted; every operation but a delete is a 409', async () => {
    const { api, clock, control } = w;
    const id = await w.service();
    clock.advance(35_000);
    const vpcId = await w.vpc();
    const rs = (await api('POST', `${P}/services/${id}/replicaSets`, { name: 'r', cpu_millis: 500, memory_gbs: 2, nodes: 1 })).body.id;
    clock.advance(4000);
    expect(await control(`/__emulator/services/${id}/fail`)).toEqual({ status: 204, text: '' });
    expect((await api('GET', `${P}/services/${id}`)).body.status).toBe('FAILED');
    clock.advance(3_600_000);
    expect((await api('GET', `${P}/services`)).body.find((s: { service_id: string }) => s.service_id === id).status).toBe('FAILED');
    const refused: Array<[string, string, unknown]> = [
      ['POST', 'resize', { cpu_millis: '2000', memory_gbs: '8' }],
      ['POST', 'setHA', { replica_count: 1 }],
      ['POST', 'stop', undefined],
      ['POST', 'start', undefined],
      ['POST', 'attachToVPC', { vpc_id: vpcId }],
      ['POST', 'enablePooler', undefined],
      ['POST', 'setEnvironment', { environment: 'PROD' }],
      ['POST', 'updatePassword', { password: 'pw' }],
      ['POST', 'rename', { name: 'x' }],
      ['POST', 'forkService', { fork_strategy: 'NOW' }],
      ['POST', 'replicaSets', { name: 'r2', cpu_millis: 500, memory_gbs: 2, nodes: 1 }],
      ['POST', `replicaSets/${rs}/enablePooler`, undefined],
    ];
    for (const [method, action, body] of refused) {
      expect(expectError(await api(method, `${P}/services/${id}/${action}`, body), 409, 'CONFLICT').message, action).toBe(`service "${id}" has FAILED; it can only be deleted`);
    }
    expect((await api('DELETE', `${P}/services/${id}/replicaSets/${rs}`)).status).toBe(202);
    expect((await api('DELETE', `${P}/services/${id}`)).status).toBe(202);
    expect((await api('GET', `${P}/services/${id}`)).body.status).toBe('DELETING');
    expect(JSON.parse((await control(`/__emulator/services/${id}/fail`)).text)).toEqual({ code: 'CONFLICT', message: `service "${id}" is being deleted` });
    clock.advance(2000);
    expectError(await api('GET', `${P}/services/${id}`), 404, 'NOT_FOUND');
    expect((await control(`/__emulator/services/${id}/fail`)).status).toBe(404);
  });

  it('a service failed while being created stays FAILED past the end of its create timeline', async () => {
    const id = await w.service('young');
    w.clock.advance(1500);
    expect((await w.api('GET', `${P}/services/${id}`)).body.status).toBe('CONFIGURING');
    expect((await w.control(`/__emulator/services/${id}/fail`)).status).toBe(204);
    w.clock.advance(10_000);
    expect((await w.api('GET', `${P}/services/${id}`)).body.status).toBe('FAILED');
    const get = await fetch(`${w.em().origin}/__emulator/services/${id}/fail`);
    expect(get.status).toBe(405);
  });
});

describe('new parents need a backup', () => {
  const w = tigerWorld();
  const quick = tigerWorld({ backupDelay: 10, timeScale: 0.5 });
  const seedClock = manualClock();
  const seed = useEmulator({ timeScale: 1, now: seedClock.now });
  const seedApi = apiOf(seed);

  const forkAndReplicaSet = async (api: (m: string, p: string, b?: unknown) => ReturnType<typeof w.api>, id: string) => [
    await api('POST', `${P}/services/${id}/forkService`, { fork_strategy: 'LAST_SNAPSHOT' }),
    await api('POST', `${P}/services/${id}/replicaSets`, { name: 'r', cpu_millis: 500, memory_gbs: 2, nodes: 1 }),
  ];

  it('for 30 s after READY a fork or replica set create is a 409 in the real words; then both are accepted', async () => {
    const id = await w.service();
    w.clock.advance(4999);
    expect(expectError((await forkAndReplicaSet(w.api, id))[0]!, 409, 'CONFLICT').message).toContain('while it is CONFIGURING');
    w.clock.advance(1);
    for (const answer of await forkAndReplicaSet(w.api, id)) {
      expect(expectError(answer, 409, 'CONFLICT').message).toBe(`service "${id}" doesn't yet have any backups or snapshots available; its first backup completes in about 30 s`);
    }
    w.clock.advance(29_999);
    for (const answer of await forkAndReplicaSet(w.api, id)) expect(expectError(answer, 409, 'CONFLICT').message).toContain('about 1 s');
    w.clock.advance(1);
    const [fork, rs] = await forkAndReplicaSet(w.api, id);
    expect([fork!.status, rs!.status]).toEqual([202, 202]);
    // A fork is a new service: it too waits for its own first backup.
    w.clock.advance(5000);
    expect(expectError((await forkAndReplicaSet(w.api, fork!.body.service_id))[0]!, 409, 'CONFLICT').message).toContain("doesn't yet have any backups");
  });

  it('--backup-delay and --time-scale set how long; seed has none', async () => {
    const id = await quick.service();
    quick.clock.advance(2500 + 4999); // READY at 2.5 s (scale 0.5), the backup 5 s later
    expect((await forkAndReplicaSet(quick.api, id)).map((a) => a.status)).toEqual([409, 409]);
    quick.clock.advance(1);
    expect((await forkAndReplicaSet(quick.api, id)).map((a) => a.status)).toEqual([202, 202]);
    expect(quick.em().switches.backupDelay).toBe(10);
    const seedId = (await seedApi('POST', `${P}/services`, { name: 'seed' })).body.service_id;
    seedClock.advance(5000);
    expect(seed().switches.backupDelay).toBe(0);
    expect((await forkAndReplicaSet(seedApi, seedId)).map((a) => a.status)).toEqual([202, 202]);
  });
});

describe('endpoints move while attached', () => {
  const w = tigerWorld();
  const fixed = tigerWorld({ endpoints: 'fixed' });

  it('tiger: endpoint and pooler on a private host of the VPC once attached, until the detach completes', async () => {
    const { api, clock } = w;
    const id = await w.service();
    clock.advance(5000);
    const vpcId = await w.vpc();
    await api('POST', `${P}/services/${id}/enablePooler`);
    const publicHost = `${id}.proj-demo.tsdb.cloud.example`;
    const privateHost = `${id}.${vpcId}.private.proj-demo.tsdb.cloud.example`;
    const hosts = async () => {
      const s = (await api('GET', `${P}/services/${id}`)).body;
      return [s.endpoint.host, s.connection_pooler.endpoint.host, s.vpc_endpoint?.host];
    };
    expect(await hosts()).toEqual([publicHost, publicHost, undefined]);
    await api('POST', `${P}/services/${id}/attachToVPC`, { vpc_id: vpcId });
    clock.advance(1999);
    expect(await hosts()).toEqual([publicHost, publicHost, undefined]);
    clock.advance(1);
    const vpcHost = `${id}.${vpcId}.vpc.proj-demo.tsdb.cloud.example`;
    expect(await hosts()).toEqual([privateHost, privateHost, vpcHost]);
    expect((await api('GET', `${P}/services`)).body.find((s: { service_id: string }) => s.service_id === id).endpoint).toEqual({ host: privateHost, port: 5432 });
    await api('POST', `${P}/services/${id}/detachFromVPC`, { vpc_id: vpcId });
    clock.advance(1999);
    expect(await hosts()).toEqual([privateHost, privateHost, vpcHost]);
    clock.advance(1);
    expect(await hosts()).toEqual([publicHost, publicHost, undefined]);
  });

  it('endpoints fixed: the public host throughout', async () => {
    const id = await fixed.service();
    fixed.clock.advance(5000);
    const vpcId = await fixed.vpc();
    await fixed.api('POST', `${P}/services/${id}/attachToVPC`, { vpc_id: vpcId });
    fixed.clock.advance(2000);
    const s = (await fixed.api('GET', `${P}/services/${id}`)).body;
    expect([s.endpoint.host, s.vpc_endpoint.vpc_id]).toEqual([`${id}.proj-demo.tsdb.cloud.example`, vpcId]);
  });
});

describe('GET /auth/info (tiger only)', () => {
  const w = tigerWorld();
  const custom = useEmulator({
    timeScale: 0,
    dialect: 'tiger',
    seed: { projects: [{ id: 'acme', name: 'Acme' }], tokens: [], key_pairs: [{ public_key: 'acme-pub', secret_key: 'acme-SECRET', project_id: 'acme' }] },
  });
  const seedApi = apiOf(useEmulator({ timeScale: 0 }));

  it('answers, for a key pair, its project (api_key, and apiKey as the document still lists it); never the secret', async () => {
    const info = await w.api('GET', '/auth/info');
    expect(info.status).toBe(200);
    const apiKey = {
      public_key: 'demo-access',
      name: 'emulator key pair demo-access',
      created: '2026-01-01T00:00:00Z',
      project: { id: 'proj-demo', name: 'Demo', plan_type: 'FREE' },
      issuing_user: { id: '1000001', name: 'Emulator User', email: 'user@tsdb.cloud.example' },
    };
    expect(info.body).toEqual({ type: 'apiKey', api_key: apiKey, apiKey });
    expect(info.text).not.toContain('demo-secret');
    const acme = await apiOf(custom)('GET', '/auth/info', undefined, { token: null, headers: { authorization: `Basic ${Buffer.from('acme-pub:acme-SECRET').toString('base64')}` } });
    expect(acme.body.api_key.project).toEqual({ id: 'acme', name: 'Acme', plan_type: 'FREE' });
    expect(acme.text).not.toContain('SECRET');
  });

  it('a Bearer token is a user (oauth), never echoed; no credential is a 401; seed has no such route', async () => {
    const api = apiOf(w.em);
    for (const token of ['demo-oauth', 'demo-pat']) {
      const info = await api('GET', '/auth/info', undefined, { token });
      expect(info.body).toEqual({ type: 'oauth', oauth: { user: { id: '1000001', name: 'Emulator User', email: 'user@tsdb.cloud.example' } } });
      expect(info.text).not.toContain(token);
    }
    expectError(await api('GET', '/auth/info', undefined, { token: null }), 401, 'UNAUTHORIZED');
    expectError(await seedApi('GET', '/auth/info'), 404, 'NOT_FOUND');
    expect(w.em().stats().requests['GET /auth/info']).toBe(4);
  });
});

describe('options', () => {
  it('refuses a bad switch with a clear message, and reports the ones in force', async () => {
    const { startEmulator } = await import('../../../src/emulator/index.js');
    await expect(startEmulator({ backupDelay: -1 })).rejects.toThrow('backupDelay must be a number of seconds from 0 to 86400 (got -1)');
    await expect(startEmulator({ peeringAcceptance: 'later' })).rejects.toThrow('peeringAcceptance must be one of auto, manual (got "later")');
    await expect(startEmulator({ teardown: 'slow' })).rejects.toThrow('teardown must be one of immediate, eventual (got "slow")');
    await expect(startEmulator({ endpoints: 'private' })).rejects.toThrow('endpoints must be one of fixed, moving (got "private")');
    const handles: EmulatorHandle[] = [await startEmulator({ timeScale: 0 }), await startEmulator({ timeScale: 0, dialect: 'tiger' })];
    try {
      expect(handles.map((h) => h.switches)).toEqual([
        { backupDelay: 0, peeringAcceptance: 'auto', teardown: 'immediate', endpoints: 'fixed' },
        { backupDelay: 30, peeringAcceptance: 'auto', teardown: 'eventual', endpoints: 'moving' },
      ]);
    } finally {
      for (const h of handles) await h.close();
    }
  });
});
