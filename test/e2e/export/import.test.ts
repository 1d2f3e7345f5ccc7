// `dbform import ADDR ID` end to end: every refusal with its exact message, the happy paths of
// the four kinds, and a plan afterwards that updates or leaves alone, never creates.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { ApiClient } from '../../../src/api/client.js';
import type { EmulatorHandle } from '../../../src/emulator/index.js';
import { AUTH_ENV, itDialectBlind, startTestEmulator, testClient } from '../../support/dialect.js';
import { runCli } from '../../support/cli.js';
import { P } from './world.js';
import { removeTempDirs, tempDir } from '../../support/temp-dir.js';

afterAll(removeTempDirs);

let em: EmulatorHandle;
let client: ApiClient;
let env: Record<string, string>;
const ids: Record<string, string> = {};
let dir: string;
let config: string;
let lockPath: string;

const CONFIG = `version: 1
project_id: proj-demo
vpcs:
  main:
    cidr: 10.0.0.0/16
    region_code: us-east-1
    peerings:
      - { peer_account_id: "123456789012", peer_region_code: us-west-2, peer_vpc_id: vpc-aaa }
services:
  billing:
    pooler: false
    replica_sets:
      reporting: { cpu_millis: 500, memory_gbs: 2, nodes: 1 }
  dup:
    pooler: true
`;

beforeAll(async () => {
  em = await startTestEmulator({ host: '127.0.0.1', port: 0, timeScale: 0 });
  client = testClient(em.url);
  env = { DBFORM_API_URL: em.url, ...AUTH_ENV };
  const main = await client.createVPC(P, { name: 'main', cidr: '10.0.0.0/16', region_code: 'us-east-1' });
  const other = await client.createVPC(P, { name: 'other', cidr: '10.1.0.0/16', region_code: 'us-east-1' });
  ids.main = main.id;
  ids.other = other.id;
  const peer = { peer_account_id: '123456789012', peer_region_code: 'us-west-2' };
  ids.aaa = (await client.createVPCPeering(P, main.id, { ...peer, peer_vpc_id: 'vpc-aaa' })).id;
  ids.ccc = (await client.createVPCPeering(P, main.id, { ...peer, peer_vpc_id: 'vpc-ccc' })).id;
  ids.bbb = (await client.createVPCPeering(P, other.id, { ...peer, peer_vpc_id: 'vpc-bbb' })).id;
  for (const name of ['billing', 'search', 'dup', 'dup']) {
    const s = await client.createService(P, { name, cpu_millis: '500', memory_gbs: '2' });
    ids[ids[name] === undefined ? name : `${name}2`] = s.service_id;
  }
  await client.listServices(P);
  ids.reporting = (await client.createReplicaSet(P, ids.billing!, { name: 'reporting', cpu_millis: 500, memory_gbs: 2, nodes: 1 })).id;
  ids.r2 = (await client.createReplicaSet(P, ids.search!, { name: 'r2', cpu_millis: 500, memory_gbs: 2, nodes: 1 })).id;
  await client.listServices(P);
});
afterAll(async () => {
  await client.close();
  await em.close();
});
beforeEach(() => {
  dir = tempDir('dbform-import-');
  config = join(dir, 'dbform.yaml');
  lockPath = join(dir, 'dbform.lock.json');
  writeFileSync(config, CONFIG);
  em.resetStats();
});

const runImport = (...args: string[]) => runCli(['import', ...args, '-f', config], { env });
const lock = () => JSON.parse(readFileSync(lockPath, 'utf8')).resources;
const writeLock = (resources: Record<string, unknown>) => writeFileSync(lockPath, JSON.stringify({ version: 1, project_id: P, resources }));
const nonGets = () => Object.keys(em.stats().requests).filter((k) => !k.startsWith('GET '));

describe('dbform import: refusals', () => {
  itDialectBlind('refuses an unknown address form without a request', async () => {
    const r = await runImport('database.billing', 'x');
    expect(r.stderr).toBe('error: "database.billing" is not an address; use vpc.<key>, peering.<vpc_key>.<peer_vpc_id>, service.<key> or replica_set.<service_key>.<key>\n');
    expect(r.code).toBe(1);
    expect(em.stats().total).toBe(0);
  });

  itDialectBlind('refuses an address that is not in the config, suggesting the near one', async () => {
    const r = await runImport('service.biling', ids.billing!);
    expect(r.stderr).toBe(`error: service.biling is not in the config (${config}); add it there first, then import it; did you mean service.billing?\n`);
    expect(r.code).toBe(1);
    const far = await runImport('replica_set.billing.nothing-like-it', ids.reporting!);
    expect(far.stderr).toBe(`error: replica_set.billing.nothing-like-it is not in the config (${config}); add it there first, then import it\n`);
    expect(em.stats().total).toBe(0);
  });

  itDialectBlind('refuses to import against a config with errors, one line per problem, without a request', async () => {
    writeFileSync(config, 'version: 1\nproject_id: proj-demo\nservices:\n  billing:\n    pooler: maybe\n    colour: red\n');
    const r = await runImport('service.billing', ids.billing!);
    expect(r.code).toBe(1);
    const lines = r.stderr.trimEnd().split('\n');
    expect(lines).toHaveLength(2);
    // As `dbform validate` prints them: FILE:LINE:COL: message, for CI problem matchers.
    expect(lines[0]).toMatch(new RegExp(`^${config.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}:5:13: .*pooler`));
    expect(lines[1]).toMatch(/^\/.*:6:5: .*colour/);
    expect(em.stats().total).toBe(0);
  });

  it('refuses an ID that does not exist', async () => {
    const r = await runImport('service.billing', 'nosuchid00');
    expect(r.stderr).toBe('error: no service with ID nosuchid00 in project proj-demo\n');
    expect(r.code).toBe(1);
    const v = await runImport('vpc.main', '9999999999');
    expect(v.stderr).toBe('error: no VPC with ID 9999999999 in project proj-demo\n');
  });

  it('refuses an ID of the wrong kind, saying what it is', async () => {
    const a = await runImport('service.billing', ids.main!);
    expect(a.stderr).toBe(`error: ${ids.main} is a VPC ("main"), not a service; VPCs are bound to vpc.<key> addresses\n`);
    const b = await runImport('vpc.main', ids.billing!);
    expect(b.stderr).toBe(`error: ${ids.billing} is a service ("billing"), not a VPC; services are bound to service.<key> addresses\n`);
    const c = await runImport('service.billing', ids.reporting!);
    expect(c.stderr).toBe(`error: ${ids.reporting} is a replica set ("reporting") of service "billing" (${ids.billing}), not a service; replica sets are bound to replica_set.<service_key>.<key> addresses\n`);
    for (const r of [a, b, c]) expect(r.code).toBe(1);
    expect(nonGets()).toEqual([]);
  });

  it('refuses a replica set of another service, and a peering of another VPC or peer', async () => {
    const rs = await runImport('replica_set.billing.reporting', ids.r2!);
    expect(rs.stderr).toBe(`error: ${ids.r2} is a replica set ("r2") of service "search" (${ids.search}), not in service.billing (${ids.billing})\n`);
    const otherVpc = await runImport('peering.main.vpc-aaa', ids.bbb!);
    expect(otherVpc.stderr).toBe(`error: no peering with ID ${ids.bbb} in vpc.main (${ids.main})\n`);
    const otherPeer = await runImport('peering.main.vpc-aaa', ids.ccc!);
    expect(otherPeer.stderr).toBe(`error: peering ${ids.ccc} connects to peer VPC "vpc-ccc", but peering.main.vpc-aaa names "vpc-aaa"; its address is peering.main.vpc-ccc\n`);
    for (const r of [rs, otherVpc, otherPeer]) expect(r.code).toBe(1);
  });

  it('refuses an ID already bound to another address, naming it', async () => {
    writeLock({ 'service.dup': { id: ids.dup } });
    const r = await runImport('service.billing', ids.dup!);
    expect(r.stderr).toBe(
      `error: ${ids.dup} is already bound to service.dup in ${lockPath}; a resource has one address. To give it the address service.billing instead, ` +
        'rename it with `moved: [{ from: service.dup, to: service.billing }]` in the config, or forget service.dup first with `dbform state rm service.dup`\n',
    );
    expect(r.code).toBe(1);
    expect(em.stats().total).toBe(0);
  });

  it('refuses to rebind an address to another ID unless --force', async () => {
    writeLock({ 'service.dup': { id: ids.dup, protect: true, password_version: 2 } });
    const r = await runImport('service.dup', ids.dup2!);
    expect(r.stderr).toBe(`error: service.dup is already bound to ${ids.dup} in ${lockPath}; to bind it to ${ids.dup2} instead, pass --force (${ids.dup} then stays live but unmanaged; nothing is deleted)\n`);
    expect(r.code).toBe(1);
    const forced = await runImport('service.dup', ids.dup2!, '--force');
    expect(forced.code, forced.stderr).toBe(0);
    expect(forced.stderr).toBe(`note: service.dup was bound to ${ids.dup}, which stays live but is no longer managed\n`);
    expect(lock()['service.dup']).toEqual({ id: ids.dup2, protect: true });
  });
});

describe('dbform import: binding', () => {
  it('binds duplicate-named services that plan cannot adopt; the plan then updates, never creates', async () => {
    const before = await runCli(['plan', '-f', config], { env });
    expect(before.code).toBe(1);
    expect(before.stderr).toContain('choose one with `dbform import service.dup <ID>`');
    em.resetStats();
    const r = await runImport('service.dup', ids.dup!);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toBe(`Bound service.dup to service "dup" (${ids.dup}) in ${lockPath}; run \`dbform plan\` to compare it with the config.\n`);
    expect(lock()).toEqual({ 'service.dup': { id: ids.dup } });
    expect(nonGets()).toEqual([]);
    expect(em.stats().total).toBeLessThanOrEqual(4);
    const again = await runImport('service.dup', ids.dup!);
    expect(again.code).toBe(0);
    expect(again.stderr).toBe(`service.dup is already bound to ${ids.dup} in ${lockPath}; nothing to do\n`);
    const plan = await runCli(['plan', '--json', '-f', config], { env });
    expect(plan.code, plan.stderr).toBe(0);
    const json = JSON.parse(plan.stdout);
    const dupActions = json.actions.filter((a: { address: string }) => a.address === 'service.dup');
    expect(dupActions.map((a: { op: string }) => a.op)).toEqual(['enablePooler']);
    expect(json.actions.some((a: { op: string }) => a.op.startsWith('create'))).toBe(false);
  });

  it('binds a VPC, a peering (its VPC found through the lockfile) and a replica set (its service by unique name)', async () => {
    for (const [address, id] of [['vpc.main', ids.main], ['peering.main.vpc-aaa', ids.aaa], ['replica_set.billing.reporting', ids.reporting], ['service.dup', ids.dup]] as const) {
      em.resetStats();
      const r = await runImport(address, id!);
      expect(r.code, r.stderr).toBe(0);
      expect(em.stats().total).toBeLessThanOrEqual(4);
    }
    expect(lock()).toEqual({
      'vpc.main': { id: ids.main },
      'peering.main.vpc-aaa': { id: ids.aaa },
      'replica_set.billing.reporting': { id: ids.reporting },
      'service.dup': { id: ids.dup },
    });
    const plan = await runCli(['plan', '--json', '-f', config], { env });
    expect(plan.code, plan.stderr).toBe(0);
    const json = JSON.parse(plan.stdout);
    expect(json.actions.map((a: { address: string; op: string }) => `${a.address} ${a.op}`)).toEqual(['service.dup enablePooler']);
    // service.billing is adopted by its unique name; the VPC, peering and replica set are unchanged.
    expect(json.bindings).toEqual([{ kind: 'adopt', address: 'service.billing', id: ids.billing }]);
    expect(json.summary).toMatchObject({ create: 0, update: 1, unchanged: 3, adopt: 1 });
  });

  it('warns when the live name differs from the config', async () => {
    writeFileSync(config, CONFIG.replace('  billing:\n', '  billing:\n    name: invoices\n'));
    const r = await runImport('service.billing', ids.billing!);
    expect(r.code).toBe(0);
    expect(r.stderr).toBe(
      'note: the live name "billing" differs from the config\'s name "invoices": the next plan renames it where the API renames services in place, and elsewhere refuses to replace it unless told to; write `name: "billing"` under service.billing to keep it\n',
    );
  });
});
