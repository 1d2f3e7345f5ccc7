// The emulator's answers, checked against the documents rather than assumed (SPEC section 12):
// every one of the 33 operations is driven over real HTTP in each dialect, and every answer
// (success or error) is validated with ajv against that dialect's JSON Schema of response shapes,
// written from cloud-api.md (seed.responses.schema.json) and from the real service's OpenAPI
// document (tiger.responses.schema.json).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import Ajv2020 from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmulator, type DialectName, type EmulatorHandle } from '../../src/emulator/index.js';

const P = '/projects/proj-demo';
const ajv = new Ajv2020.default({ allErrors: true, strictTypes: false });
addFormats.default(ajv);
for (const d of ['seed', 'tiger']) ajv.addSchema(JSON.parse(readFileSync(join(import.meta.dirname, `${d}.responses.schema.json`), 'utf8')));

const AUTH: Record<DialectName, string> = {
  seed: 'Bearer demo-pat',
  tiger: `Basic ${Buffer.from('demo-access:demo-secret').toString('base64')}`,
};

interface Answer {
  status: number;
  contentType?: string;
  body?: any;
}

/**
 * Sends requests to `em` and validates each answer against `op.<op>` of the dialect's schema:
 * a failure is collected in `failures`, each operation seen (not `error`) in `checked`.
 */
function callerOf(dialect: DialectName, em: () => EmulatorHandle, failures: string[], checked: Set<string>) {
  return async function call(op: string, method: string, path: string, body?: unknown, auth: string | null = AUTH[dialect]): Promise<Answer> {
    const headers: Record<string, string> = auth === null ? {} : { authorization: auth };
    if (body !== undefined) headers['content-type'] = 'application/json';
    const res = await fetch(em().url + path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
    const text = await res.text();
    const answer: Answer = { status: res.status };
    const type = res.headers.get('content-type');
    if (type !== null) answer.contentType = type;
    if (text !== '') answer.body = JSON.parse(text);
    const validate = ajv.getSchema(`https://dbform.dev/contract/${dialect}.responses.schema.json#/$defs/op.${op}`);
    if (!validate) throw new Error(`no schema for op.${op}`);
    if (!validate(answer)) failures.push(`${op} ${method} ${path}: ${ajv.errorsText(validate.errors)}\n  ${JSON.stringify(answer).slice(0, 400)}`);
    if (op !== 'error') checked.add(op);
    return answer;
  };
}

describe.each(['seed', 'tiger'] as const)('%s dialect: every answer matches the response schema', (dialect) => {
  let em: EmulatorHandle;
  const checked = new Set<string>();
  const failures: string[] = [];
  const call = callerOf(dialect, () => em, failures, checked);
  // The real service's two operations beyond cloud-api.md's 33 (SPEC section 15): a 404 in seed.
  const tigerOnly = (op: string) => (dialect === 'tiger' ? op : 'error');
  const operations = dialect === 'tiger' ? 35 : 33;

  beforeAll(async () => {
    em = await startEmulator({ timeScale: 0, dialect });
  });
  afterAll(async () => em.close());

  /** A read only to let time scale 0 settle a transition, itself checked like any other answer. */
  const settle = (id: string) => call('getService', 'GET', `${P}/services/${id}`);

  it('drives all 33 operations (35 in tiger), through the states their answers differ in', async () => {
    expect((await call('listProjects', 'GET', '/projects')).body).toEqual([{ id: 'proj-demo', name: 'Demo' }]);
    expect((await call(tigerOnly('getAuthInfo'), 'GET', '/auth/info')).status).toBe(dialect === 'tiger' ? 200 : 404);
    const vpc = (await call('createVPC', 'POST', `${P}/vpcs`, { name: 'main', cidr: '10.0.0.0/16', region_code: 'us-east-1' })).body;
    await call('listVPCs', 'GET', `${P}/vpcs`);
    await call('getVPC', 'GET', `${P}/vpcs/${vpc.id}`);
    await call('renameVPC', 'POST', `${P}/vpcs/${vpc.id}/rename`, { name: 'main-2' });
    const good = (await call('createVPCPeering', 'POST', `${P}/vpcs/${vpc.id}/peerings`, { peer_account_id: '123456789012', peer_region_code: 'us-east-1', peer_vpc_id: 'vpc-a' })).body;
    await call('createVPCPeering', 'POST', `${P}/vpcs/${vpc.id}/peerings`, { peer_account_id: 'not-12-digits', peer_region_code: 'us-east-1', peer_vpc_id: 'vpc-b' });
    await call('listVPCPeerings', 'GET', `${P}/vpcs/${vpc.id}/peerings`); // one usable, one failed
    await call('getVPCPeering', 'GET', `${P}/vpcs/${vpc.id}/peerings/${good.id}`);

    const svc = (await call('createService', 'POST', `${P}/services`, { name: 'db', addons: ['time-series'], cpu_millis: '1000', memory_gbs: '4', region_code: 'us-east-1' })).body;
    const id = svc.service_id as string;
    await call('createService', 'POST', `${P}/services`, { name: 'shared' });
    await settle(id);
    expect((await call(tigerOnly('renameService'), 'POST', `${P}/services/${id}/rename`, { name: 'db-2' })).status).toBe(dialect === 'tiger' ? 200 : 404);
    await call('listServices', 'GET', `${P}/services`);
    await call('resizeService', 'POST', `${P}/services/${id}/resize`, { cpu_millis: '2000', memory_gbs: '8' });
    await settle(id);
    await call('setHAReplica', 'POST', `${P}/services/${id}/setHA`, { replica_count: 2, sync_replica_count: 1 });
    await settle(id);
    await call('enablePooler', 'POST', `${P}/services/${id}/enablePooler`);
    await call('setEnvironment', 'POST', `${P}/services/${id}/setEnvironment`, { environment: 'PROD' });
    await call('updatePassword', 'POST', `${P}/services/${id}/updatePassword`, { password: 'contract-pw-1' });
    await call('attachServiceToVPC', 'POST', `${P}/services/${id}/attachToVPC`, { vpc_id: vpc.id });
    await settle(id);
    await call('listServices', 'GET', `${P}/services`); // pooler on, attached, HA, PROD
    await call('getServiceLogs', 'GET', `${P}/services/${id}/logs`);
    await call('getServiceLogs', 'GET', `${P}/services/${id}/logs?severities=ERROR&search=checkpoint&node=0`);

    const rs = (await call('createReplicaSet', 'POST', `${P}/services/${id}/replicaSets`, { name: 'r', cpu_millis: 500, memory_gbs: 2, nodes: 2 })).body;
    await call('listReplicaSets', 'GET', `${P}/services/${id}/replicaSets`);
    await call('resizeReplicaSet', 'POST', `${P}/services/${id}/replicaSets/${rs.id}/resize`, { cpu_millis: '1000', memory_gbs: '4' });
    await call('enableReplicaPooler', 'POST', `${P}/services/${id}/replicaSets/${rs.id}/enablePooler`);
    await call('listReplicaSets', 'GET', `${P}/services/${id}/replicaSets`); // pooler on
    await call('listServices', 'GET', `${P}/services`);
    await call('disableReplicaPooler', 'POST', `${P}/services/${id}/replicaSets/${rs.id}/disablePooler`);
    await call('setReplicaEnvironment', 'POST', `${P}/services/${id}/replicaSets/${rs.id}/setEnvironment`, { environment: 'PROD' });
    await call('deleteReplicaSet', 'DELETE', `${P}/services/${id}/replicaSets/${rs.id}`);

    const fork = (await call('forkService', 'POST', `${P}/services/${id}/forkService`, { fork_strategy: 'NOW' })).body;
    await call('disablePooler', 'POST', `${P}/services/${id}/disablePooler`);
    await call('detachServiceFromVPC', 'POST', `${P}/services/${id}/detachFromVPC`, { vpc_id: vpc.id });
    await settle(id);
    await call('stopService', 'POST', `${P}/services/${id}/stop`);
    await call('listServices', 'GET', `${P}/services`); // paused: no metrics
    await call('startService', 'POST', `${P}/services/${id}/start`);
    await settle(id);
    await call('deleteService', 'DELETE', `${P}/services/${fork.service_id}`);
    await call('deleteService', 'DELETE', `${P}/services/${id}`);
    await call('deleteVPCPeering', 'DELETE', `${P}/vpcs/${vpc.id}/peerings/${good.id}`);
    for (const p of (await call('listVPCPeerings', 'GET', `${P}/vpcs/${vpc.id}/peerings`)).body) await call('deleteVPCPeering', 'DELETE', `${P}/vpcs/${vpc.id}/peerings/${p.id}`);
    await call('deleteVPC', 'DELETE', `${P}/vpcs/${vpc.id}`);

    expect(failures).toEqual([]);
    expect(checked.size).toBe(operations);
    // The emulator saw every route of its document (the stats keys are its route templates).
    expect(Object.keys(em.stats().requests).filter((k) => !k.includes('(unmatched)'))).toHaveLength(operations);
  });

  it('error answers match the Error schema: 401, 404, 400, 409, 405', async () => {
    const answers = [
      await call('error', 'GET', '/projects', undefined, null),
      await call('error', 'GET', '/projects', undefined, 'Bearer nope'),
      await call('error', 'GET', `${P}/services/nosuchsvc1`),
      await call('error', 'POST', `${P}/vpcs`, { name: 'v', cidr: '10.0.0.1/16', region_code: 'us-east-1' }),
      await call('error', 'POST', `${P}/services`, { name: 'x', cpu_millis: '3000', memory_gbs: '12' }),
      await call('error', 'GET', `${P}/services/x/logs?search=`),
      await call('error', 'DELETE', `${P}/vpcs/1`),
      await call('error', 'PUT', '/projects'),
    ];
    const svc = (await call('createService', 'POST', `${P}/services`, { name: 'err' })).body;
    await settle(svc.service_id);
    answers.push(await call('error', 'POST', `${P}/services/${svc.service_id}/start`));
    answers.push(await call('error', 'POST', `${P}/services/${svc.service_id}/attachToVPC`, { vpc_id: 'vpc-main' }));
    expect(answers.map((a) => a.status)).toEqual([401, 401, 404, 400, 400, 404, 404, 405, 409, 400]);
    expect(failures).toEqual([]);
  });
});

describe('tiger dialect, SPEC section 15 states: every answer matches the response schema', () => {
  let em: EmulatorHandle;
  let now = Date.parse('2026-03-01T12:00:00Z');
  const failures: string[] = [];
  const call = callerOf('tiger', () => em, failures, new Set());
  const control = async (path: string) => (await fetch(em.origin + path, { method: 'POST' })).status;

  beforeAll(async () => {
    // The dialect's defaults at time scale 1 under a hand-moved clock, and peerings awaiting the peer.
    em = await startEmulator({ dialect: 'tiger', timeScale: 1, now: () => now, peeringAcceptance: 'manual' });
  });
  afterAll(async () => em.close());

  it('awaiting and deleting peerings, a refused VPC delete, missing backups, a moved endpoint, FAILED, a user token', async () => {
    expect((await call('getAuthInfo', 'GET', '/auth/info', undefined, 'Bearer demo-oauth')).body.type).toBe('oauth');
    const vpc = (await call('createVPC', 'POST', `${P}/vpcs`, { name: 'net', cidr: '10.1.0.0/16', region_code: 'us-east-1' })).body;
    now += 2000;
    const peering = (await call('createVPCPeering', 'POST', `${P}/vpcs/${vpc.id}/peerings`, { peer_account_id: '123456789012', peer_region_code: 'us-east-1', peer_vpc_id: 'vpc-a' })).body;
    now += 2000;
    expect((await call('listVPCPeerings', 'GET', `${P}/vpcs/${vpc.id}/peerings`)).body).toEqual([expect.objectContaining({ status: 'PENDING', provisioned_id: expect.any(String) })]);
    expect(await control(`/__emulator/peerings/${peering.id}/accept`)).toBe(204);
    expect((await call('getVPCPeering', 'GET', `${P}/vpcs/${vpc.id}/peerings/${peering.id}`)).body.status).toBe('APPROVED');
    await call('deleteVPCPeering', 'DELETE', `${P}/vpcs/${vpc.id}/peerings/${peering.id}`);
    expect((await call('listVPCPeerings', 'GET', `${P}/vpcs/${vpc.id}/peerings`)).body[0].status).toBe('DELETING');
    expect((await call('error', 'DELETE', `${P}/vpcs/${vpc.id}`)).status).toBe(409);

    const id = (await call('createService', 'POST', `${P}/services`, { name: 'db', cpu_millis: '1000', memory_gbs: '4' })).body.service_id;
    now += 5000;
    expect((await call('error', 'POST', `${P}/services/${id}/forkService`, { fork_strategy: 'NOW' })).status).toBe(409);
    expect((await call('error', 'POST', `${P}/services/${id}/replicaSets`, { name: 'r', cpu_millis: 500, memory_gbs: 2, nodes: 1 })).status).toBe(409);
    await call('attachServiceToVPC', 'POST', `${P}/services/${id}/attachToVPC`, { vpc_id: vpc.id });
    now += 2000;
    await call('enablePooler', 'POST', `${P}/services/${id}/enablePooler`);
    expect((await call('getService', 'GET', `${P}/services/${id}`)).body.endpoint.host).toContain('.private.');
    expect(await control(`/__emulator/services/${id}/fail`)).toBe(204);
    expect((await call('listServices', 'GET', `${P}/services`)).body[0].status).toBe('FAILED');
    expect((await call('error', 'POST', `${P}/services/${id}/rename`, { name: 'x' })).status).toBe(409);
    await call('deleteService', 'DELETE', `${P}/services/${id}`);
    expect((await call('getService', 'GET', `${P}/services/${id}`)).body.status).toBe('DELETING');
    expect(failures).toEqual([]);
  });
});

describe('the schemas tell the two documents apart (so the checks above can fail)', () => {
  const check = (d: DialectName, op: string, answer: Answer) => ajv.getSchema(`https://dbform.dev/contract/${d}.responses.schema.json#/$defs/op.${op}`)!(answer);
  const json = (status: number, body: unknown): Answer => ({ status, contentType: 'application/json', body });
  const vpc = { id: '1234567890', cidr: '10.0.0.0/16', name: 'v', region_code: 'us-east-1' };
  const service = { service_id: 's', name: 'n', project_id: 'p', region_code: 'us-east-1', created: '2026-01-01T00:00:00Z', resources: [], status: 'READY' };

  it('a VPC status, the type spelling, read_replica_sets, data_tiering and a pooler without endpoint', () => {
    expect([check('seed', 'getVPC', json(200, { ...vpc, status: 'CREATED' })), check('tiger', 'getVPC', json(200, { ...vpc, status: 'CREATED' }))]).toEqual([false, true]);
    expect([check('seed', 'createVPC', json(201, vpc)), check('tiger', 'createVPC', json(201, vpc))]).toEqual([true, false]);
    const seedOnly = { ...service, service_type: 'TIMESERIESDB', read_replica_sets: [], data_tiering: { enabled: false } };
    expect([check('seed', 'getService', json(200, seedOnly)), check('tiger', 'getService', json(200, seedOnly))]).toEqual([true, false]);
    const tigerOnly = { ...service, service_type: 'TIMESCALEDB', connection_pooler: {} };
    expect([check('seed', 'getService', json(200, tigerOnly)), check('tiger', 'getService', json(200, tigerOnly))]).toEqual([false, true]);
  });

  it('AuthInfo carries exactly the branch its type names; FAILED and DELETING only in tiger', () => {
    const apiKey = { public_key: 'k', name: 'n', created: '2026-01-01T00:00:00Z', project: { id: 'p', name: 'P', plan_type: 'FREE' }, issuing_user: { id: 'u', name: 'U', email: 'u@example.com' } };
    const oauth = { user: { id: 'u', name: 'U', email: 'u@example.com' } };
    expect(check('tiger', 'getAuthInfo', json(200, { type: 'apiKey', api_key: apiKey }))).toBe(true);
    expect(check('tiger', 'getAuthInfo', json(200, { type: 'apiKey', api_key: apiKey, oauth }))).toBe(false);
    expect(check('tiger', 'getAuthInfo', json(200, { type: 'oauth', api_key: apiKey }))).toBe(false);
    expect(check('tiger', 'getAuthInfo', json(200, { type: 'apiKey', api_key: { ...apiKey, project: { id: 'p' } } }))).toBe(false);
    const failed = { ...service, service_type: 'POSTGRES', status: 'FAILED' };
    expect([check('seed', 'getService', json(200, { ...failed, read_replica_sets: [] })), check('tiger', 'getService', json(200, failed))]).toEqual([false, true]);
    const deleting = { id: '1', peer_account_id: 'a', peer_region_code: 'us-east-1', peer_vpc_id: 'v', status: 'DELETING' };
    expect(check('tiger', 'listVPCPeerings', json(200, [deleting]))).toBe(true);
    expect(check('tiger', 'listVPCPeerings', json(200, [{ ...deleting, status: 'GONE' }]))).toBe(false);
  });

  it('status codes, bodies where none belongs, and secrets where they do not belong', () => {
    expect(check('seed', 'getVPC', json(201, vpc))).toBe(false);
    expect(check('seed', 'getVPC', { status: 200, body: vpc })).toBe(false);
    expect(check('tiger', 'deleteService', json(202, {}))).toBe(false);
    expect(check('tiger', 'deleteService', { status: 202 })).toBe(true);
    const listed = { ...service, service_type: 'POSTGRES', read_replica_sets: [], initial_password: 'pw' };
    expect(check('seed', 'listServices', json(200, [listed]))).toBe(false);
    expect(check('seed', 'error', json(404, { code: 'not found', message: 'x' }))).toBe(false);
  });
});
