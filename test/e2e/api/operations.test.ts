// Every client operation against the real emulator, with the errors a person sees.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiClient } from '../../../src/api/client.js';
import { ApiError } from '../../../src/api/errors.js';
import { fetchLiveState } from '../../../src/api/live-state.js';
import { StatusPoller } from '../../../src/api/waiters.js';
import type { EmulatorHandle } from '../../../src/emulator/index.js';
import { clientFor, countOf, emulator, PROJECT } from './helpers.js';

let em: EmulatorHandle;
let api: ApiClient;

beforeAll(async () => {
  em = await emulator({ timeScale: 0 });
  api = clientFor(em);
});
afterAll(async () => {
  await api.close();
  await em.close();
});

async function errorOf(p: Promise<unknown>): Promise<ApiError> {
  const err = await p.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(ApiError);
  return err as ApiError;
}

describe('projects and auth', () => {
  it('a PAT sees its one project, the OAuth token both', async () => {
    expect(await api.listProjects()).toEqual([{ id: 'proj-demo', name: 'Demo' }]);
    const oauth = clientFor(em, { token: 'demo-oauth' });
    expect((await oauth.listProjects()).map((p) => p.id).sort()).toEqual(['proj-demo', 'proj-other']);
    await oauth.close();
  });

  it('a rejected token says so and names DBFORM_API_KEY, without the token', async () => {
    const bad = clientFor(em, { token: 'wrong-token-value' });
    const err = await errorOf(bad.listProjects());
    expect(err.status).toBe(401);
    expect(err.code).toBe('UNAUTHORIZED');
    expect(err.message).toMatch(/rejected the token.*DBFORM_API_KEY/);
    expect(err.message).not.toContain('wrong-token-value');
    await bad.close();
  });

  it('an unknown or invisible project says it does not exist or the token cannot see it', async () => {
    const err = await errorOf(api.listServices('proj-other'));
    expect(err.status).toBe(404);
    expect(err.message).toMatch(/^listServices: project "proj-other" does not exist or the token cannot see it/);
  });
});

describe('VPCs and peerings', () => {
  it('creates, reads, renames, peers and deletes a VPC', async () => {
    const vpc = await api.createVPC(PROJECT, { name: 'ops-vpc', cidr: '10.50.0.0/16', region_code: 'us-east-1' });
    expect(vpc).toMatchObject({ name: 'ops-vpc', cidr: '10.50.0.0/16', region_code: 'us-east-1' });
    expect(await api.getVPC(PROJECT, vpc.id)).toMatchObject({ id: vpc.id });
    expect((await api.renameVPC(PROJECT, vpc.id, { name: 'ops-vpc-2' })).message).toBeTypeOf('string');
    expect((await api.listVPCs(PROJECT)).find((v) => v.id === vpc.id)?.name).toBe('ops-vpc-2');

    const peering = await api.createVPCPeering(PROJECT, vpc.id, { peer_account_id: '123456789012', peer_region_code: 'us-east-1', peer_vpc_id: 'vpc-0a1b' });
    expect(peering.status).toBe('pending');
    const poller = new StatusPoller(api, { projectId: PROJECT, pollMs: 10 });
    const active = await poller.waitForPeering(vpc.id, peering.id, (p) => p?.status === 'active');
    expect(active?.provisionedId).toMatch(/^pcx-/);
    expect(await api.getVPCPeering(PROJECT, vpc.id, peering.id)).toMatchObject({ peer_vpc_id: 'vpc-0a1b' });

    const conflict = await errorOf(api.deleteVPC(PROJECT, vpc.id));
    expect(conflict.status).toBe(409);
    expect(conflict.message).toMatch(new RegExp(`^deleteVPC on VPC ${vpc.id} was refused: .+ \\(409 CONFLICT\\)$`));

    await api.deleteVPCPeering(PROJECT, vpc.id, peering.id);
    expect(await api.listVPCPeerings(PROJECT, vpc.id)).toEqual([]);
    await api.deleteVPC(PROJECT, vpc.id);
    expect((await errorOf(api.getVPC(PROJECT, vpc.id))).status).toBe(404);
  });

  it('a failed peering fails its wait with the peering error message', async () => {
    const vpc = await api.createVPC(PROJECT, { name: 'bad-peer', cidr: '10.51.0.0/16', region_code: 'us-east-1' });
    const peering = await api.createVPCPeering(PROJECT, vpc.id, { peer_account_id: 'nope', peer_region_code: 'us-east-1', peer_vpc_id: 'vpc-x' });
    const poller = new StatusPoller(api, { projectId: PROJECT, pollMs: 10 });
    const err = await poller.waitForPeering(vpc.id, peering.id, (p) => p?.status === 'active').catch((e: Error) => e);
    expect(err.message).toMatch(new RegExp(`^peering ${peering.id} of VPC ${vpc.id} failed: .+`));
    expect(err.message).not.toMatch(/no error message/);
  });
});

describe('services and replica sets', () => {
  it('runs a service through its whole life', async () => {
    const poller = new StatusPoller(api, { projectId: PROJECT, pollMs: 10 });
    const created = await api.createService(PROJECT, { name: 'ops-db', addons: ['time-series'], cpu_millis: '1000', memory_gbs: '4', region_code: 'us-east-1' });
    const id = created.service_id;
    expect(created.status).toBe('QUEUED');
    expect(created.initial_password).toBeTypeOf('string');
    expect((await poller.waitForServiceStatus(id, 'READY'))?.serviceType).toBe('TIMESERIESDB');

    expect((await api.resizeService(PROJECT, id, { cpu_millis: '2000', memory_gbs: '8' })).status).toBe('UPGRADING');
    expect((await poller.waitForServiceStatus(id, 'READY'))?.size).toEqual({ cpuMillis: 2000, memoryGbs: 8 });
    await api.setHAReplica(PROJECT, id, { replica_count: 2, sync_replica_count: 1 });
    expect((await poller.waitForServiceStatus(id, 'READY'))?.ha).toEqual({ replicas: 2, syncReplicas: 1 });

    await api.enablePooler(PROJECT, id);
    await api.setEnvironment(PROJECT, id, { environment: 'PROD' });
    await api.updatePassword(PROJECT, id, { password: 'a-new-password-1' });
    const svc = await api.getService(PROJECT, id);
    expect(svc.metadata?.environment).toBe('PROD');
    expect(svc.connection_pooler).toBeDefined();
    await api.disablePooler(PROJECT, id);

    const vpc = await api.createVPC(PROJECT, { name: 'svc-vpc', cidr: '10.52.0.0/16', region_code: 'us-east-1' });
    await api.attachServiceToVPC(PROJECT, id, { vpc_id: vpc.id });
    expect((await poller.waitForService(id, (s) => s?.vpcId === vpc.id))?.vpcEndpoint?.port).toBe(5432);
    await api.detachServiceFromVPC(PROJECT, id, { vpc_id: vpc.id });
    await poller.waitForService(id, (s) => s?.vpcId === null);

    const rs = await api.createReplicaSet(PROJECT, id, { name: 'reporting', cpu_millis: 1000, memory_gbs: 4, nodes: 2 });
    expect((await poller.waitForReplicaSet(id, rs.id, (r) => r?.status === 'active'))?.nodes).toBe(2);
    await api.resizeReplicaSet(PROJECT, id, rs.id, { cpu_millis: '2000', memory_gbs: '8' });
    await poller.waitForReplicaSet(id, rs.id, (r) => r?.status === 'active' && r.cpuMillis === 2000);
    await api.enableReplicaPooler(PROJECT, id, rs.id);
    await api.setReplicaEnvironment(PROJECT, id, rs.id, { environment: 'PROD' });
    expect((await api.listReplicaSets(PROJECT, id))[0]).toMatchObject({ id: rs.id, metadata: { environment: 'PROD' } });
    await api.disableReplicaPooler(PROJECT, id, rs.id);
    await api.deleteReplicaSet(PROJECT, id, rs.id);
    await poller.waitForReplicaSetGone(id, rs.id);

    const fork = await api.forkService(PROJECT, id, { fork_strategy: 'NOW', name: 'ops-db-fork' });
    expect(fork.forked_from?.service_id).toBe(id);
    await poller.waitForServiceStatus(fork.service_id, 'READY');

    await api.stopService(PROJECT, id);
    expect((await poller.waitForServiceStatus(id, 'PAUSED'))?.pooler).toBe(false);
    const refused = await errorOf(api.stopService(PROJECT, id));
    expect(refused.status).toBe(409);
    expect(refused.message).toMatch(new RegExp(`^stopService on service ${id} was refused: `));
    await api.startService(PROJECT, id);
    await poller.waitForServiceStatus(id, 'READY');

    await api.deleteService(PROJECT, fork.service_id);
    await api.deleteService(PROJECT, id);
    await poller.waitForServiceGone(id);
    expect((await errorOf(api.getService(PROJECT, id))).message).toMatch(new RegExp(`^getService: service ${id} was not found \\(404 NOT_FOUND`));
  });

  it('sends a repeatable op by its op table row, counted on its route; refuses one that needs its own method', async () => {
    const created = await api.createService(PROJECT, { name: 'generic-db' });
    const before = countOf(em, 'POST /projects/{project_id}/services/{service_id}/setEnvironment');
    await api.sendOperation('setEnvironment', { project_id: PROJECT, service_id: created.service_id }, { environment: 'PROD' });
    expect(countOf(em, 'POST /projects/{project_id}/services/{service_id}/setEnvironment')).toBe(before + 1);
    expect((await api.getService(PROJECT, created.service_id)).metadata?.environment).toBe('PROD');
    await expect(api.sendOperation('createService', { project_id: PROJECT }, { name: 'x' })).rejects.toThrow(/^createService is not a repeatable operation/);
    expect((await api.listServices(PROJECT)).filter((s) => s.name === 'x')).toEqual([]);
    await api.deleteService(PROJECT, created.service_id);
  });

  it('a replica set in error fails its wait; a deleted service fails a wait for READY', async () => {
    const poller = new StatusPoller(api, { projectId: PROJECT, pollMs: 10 });
    const svc = await api.createService(PROJECT, { name: 'doomed-db', cpu_millis: '1000', memory_gbs: '4' });
    await poller.waitForServiceStatus(svc.service_id, 'READY');
    const rs = await api.createReplicaSet(PROJECT, svc.service_id, { name: 'doomed-rs', cpu_millis: 1000, memory_gbs: 4, nodes: 1 });
    const failed = await fetch(`${em.origin}/__emulator/replica-sets/${rs.id}/fail`, { method: 'POST' });
    expect(failed.ok).toBe(true);
    await expect(poller.waitForReplicaSet(svc.service_id, rs.id, (r) => r?.status === 'active')).rejects.toThrow(
      `replica set ${rs.id} of service ${svc.service_id} is in error state`,
    );
    // A condition that cannot hold any more once the service is being deleted.
    const waiting = poller.waitForServiceStatus(svc.service_id, 'PAUSED');
    await api.deleteService(PROJECT, svc.service_id);
    await expect(waiting).rejects.toThrow(new RegExp(`^service ${svc.service_id} (is gone|is being deleted)`));
  });

  it('reads service logs with a cursor, preferring last_cursor', async () => {
    const svc = await api.createService(PROJECT, { name: 'log-db' });
    const first = await api.getServiceLogs(PROJECT, svc.service_id, { severities: ['LOG'] });
    expect(first.entries?.length).toBeGreaterThan(0);
    expect(first.entries!.every((e) => e.severity === 'LOG')).toBe(true);
    if (first.last_cursor) {
      const second = await api.getServiceLogs(PROJECT, svc.service_id, { severities: ['LOG'], cursor: first.last_cursor });
      expect(Date.parse(second.entries![0]!.timestamp)).toBeLessThanOrEqual(Date.parse(first.entries!.at(-1)!.timestamp));
    }
    const bad = await errorOf(api.getServiceLogs(PROJECT, svc.service_id, { cursor: 'garbage' }));
    expect(bad.status).toBe(400);
    expect(bad.message).toMatch(/the API refused the request: .*cursor/);
  });

  it('reads the live state of a project in 2 + V requests', async () => {
    const v1 = await api.createVPC(PROJECT, { name: 'ls-1', cidr: '10.60.0.0/16', region_code: 'us-east-1' });
    const v2 = await api.createVPC(PROJECT, { name: 'ls-2', cidr: '10.61.0.0/16', region_code: 'us-east-1' });
    await api.createVPCPeering(PROJECT, v1.id, { peer_account_id: '123456789012', peer_region_code: 'us-east-1', peer_vpc_id: 'vpc-ls' });
    const svc = await api.createService(PROJECT, { name: 'ls-db', cpu_millis: '1000', memory_gbs: '4' });
    await new StatusPoller(api, { projectId: PROJECT, pollMs: 10 }).waitForServiceStatus(svc.service_id, 'READY');
    await api.createReplicaSet(PROJECT, svc.service_id, { name: 'r1', cpu_millis: 1000, memory_gbs: 4, nodes: 1 });
    const vpcCount = (await api.listVPCs(PROJECT)).length;

    em.resetStats();
    const all = await fetchLiveState(api, PROJECT);
    expect(em.stats().total).toBe(2 + vpcCount);
    expect(all.vpcs.find((v) => v.id === v1.id)?.peerings?.map((p) => p.peerVpcId)).toEqual(['vpc-ls']);
    expect(all.services.find((s) => s.id === svc.service_id)?.replicaSets.map((r) => r.name)).toEqual(['r1']);

    em.resetStats();
    const some = await fetchLiveState(api, PROJECT, { childrenOf: { peering: (v: { id: string }) => v.id === v2.id } });
    expect(em.stats().total).toBe(3);
    expect(countOf(em, 'GET /projects/{project_id}/vpcs/{vpc_id}/peerings')).toBe(1);
    expect(some.vpcs.find((v) => v.id === v2.id)?.peerings).toEqual([]);
    expect(some.vpcs.find((v) => v.id === v1.id)?.peerings).toBeUndefined();
  });
});

describe('transport errors', () => {
  it('connection refused says the API cannot be reached at its URL', async () => {
    const closed = await emulator();
    const url = closed.url;
    await closed.close();
    const client = new ApiClient({ baseUrl: url, token: 'demo-pat', retry: { baseDelayMs: 5, maxDelayMs: 10 } });
    const err = await errorOf(client.listProjects());
    expect(err.status).toBe(0);
    expect(err.code).toBe('ECONNREFUSED');
    expect(err.message).toMatch(new RegExp(`^cannot reach the API at ${url.replace(/[/.]/g, '\\$&')} \\(ECONNREFUSED`));
    await client.close();
  });

  it('https spoken to a plain-http API fails at once with one line on TLS, not after ten tries', async () => {
    const plain = await emulator();
    const url = plain.url.replace(/^http:/, 'https:');
    const client = new ApiClient({ baseUrl: url, token: 'demo-pat', retry: { baseDelayMs: 50, maxDelayMs: 50 } });
    const before = plain.stats().total;
    const err = await errorOf(client.listProjects());
    expect(err.status).toBe(0);
    expect(err.code).toBe('ERR_SSL_WRONG_VERSION_NUMBER');
    expect(err.message).toBe(
      `cannot open a secure (TLS) connection to the API at ${url} (ERR_SSL_WRONG_VERSION_NUMBER: wrong version number); ` +
        "check that the URL's scheme is right (https or http) and that the server's certificate is trusted (NODE_EXTRA_CA_CERTS names extra CA certificates)",
    );
    expect(plain.stats().total).toBe(before);
    await client.close();
    await plain.close();
  });

  it('a hanging API is given up after maxTimeoutAttempts, not the full retry budget', async () => {
    const slow = await emulator({ latencyMs: 400 });
    const client = clientFor(slow, { timeoutMs: 60, retry: { maxAttempts: 10, maxTimeoutAttempts: 3, baseDelayMs: 5, maxDelayMs: 10 } });
    const err = await errorOf(client.listProjects());
    expect(err.code).toBe('TIMEOUT');
    expect(err.message).toMatch(/within 60 ms \(3 attempts\)$/);
    await client.close();
    await slow.close();
  });

  it('a slow answer times out after the per-request limit', async () => {
    const slow = await emulator({ latencyMs: 400 });
    const client = clientFor(slow, { timeoutMs: 100, retry: { maxAttempts: 2, baseDelayMs: 5, maxDelayMs: 10 } });
    // TIMEOUT (not an answer after 400 ms) is the proof that each attempt was cut at its limit.
    const err = await errorOf(client.listProjects());
    expect(err.code).toBe('TIMEOUT');
    expect(err.message).toMatch(/^listProjects: no answer from the API at .+ within 100 ms \(2 attempts\)$/);
    await client.close();
    await slow.close();
  });
});
