// `dbform export` end to end: a varied hand-made world, exported by the built CLI, loads, validates
// against the schema, plans to zero changes with read-only requests, and exports byte-identically.
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Ajv2020 from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { parse } from 'yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiClient } from '../../../src/api/client.js';
import { loadConfig } from '../../../src/config/index.js';
import { startEmulator, type EmulatorHandle } from '../../../src/emulator/index.js';
import { runCli } from '../../support/cli.js';
import { buildWorld, generatedServices, SPECIAL_SERVICES, type World } from './world.js';

let em: EmulatorHandle;
let client: ApiClient;
let env: Record<string, string>;
let world: World;
const dir = mkdtempSync(join(tmpdir(), 'dbform-export-'));
const yamlPath = join(dir, 'dbform.yaml');
const lockPath = join(dir, 'dbform.lock.json');
let yamlText: string;
let lockText: string;
let exportRun: { code: number | null; stdout: string; stderr: string };

const schema = JSON.parse(readFileSync(join(import.meta.dirname, '../../../schemas/dbform.schema.json'), 'utf8'));
const ajv = new Ajv2020.default({ strict: false, allErrors: true });
addFormats.default(ajv);
const validateSchema = ajv.compile(schema);

const lineageOf = (text: string): string => JSON.parse(text).lineage;
const onlyReads = (stats: { requests: Record<string, number> }) => Object.keys(stats.requests).filter((k) => !k.startsWith('GET '));

beforeAll(async () => {
  em = await startEmulator({ host: '127.0.0.1', port: 0, timeScale: 0 });
  client = new ApiClient({ baseUrl: em.url, token: 'demo-pat' });
  env = { DBFORM_API_URL: em.url, DBFORM_API_KEY: 'demo-pat' };
  world = await buildWorld(client, [...SPECIAL_SERVICES, ...generatedServices(24)]);
  em.resetStats();
  exportRun = await runCli(['export', '-o', yamlPath], { env });
  yamlText = readFileSync(yamlPath, 'utf8');
  lockText = readFileSync(lockPath, 'utf8');
});
afterAll(async () => {
  await client.close();
  await em.close();
});

describe('dbform export of a varied world', () => {
  it('exports at least 40 services with read-only requests (2 + V)', () => {
    expect(exportRun.code, exportRun.stderr).toBe(0);
    expect(exportRun.stdout).toBe('');
    const services = Object.keys(parse(yamlText).services);
    expect(services.length).toBeGreaterThanOrEqual(40);
    const stats = em.stats();
    expect(onlyReads(stats)).toEqual([]);
    // listProjects + listServices + listVPCs + one peerings list per VPC.
    expect(stats.total).toBe(3 + 6);
  });

  it('writes YAML that validates against the schema and loads', async () => {
    const data = parse(yamlText);
    expect(validateSchema(data), JSON.stringify(validateSchema.errors)).toBe(true);
    const loaded = await loadConfig([yamlPath], { env: {} });
    expect(loaded.ok, loaded.ok ? '' : JSON.stringify(loaded.errors)).toBe(true);
  });

  it('plans to zero changes, reading only', async () => {
    em.resetStats();
    const text = await runCli(['plan', '--detailed-exitcode', '-f', yamlPath], { env });
    expect(text.stderr).toBe('');
    expect(text.code).toBe(0);
    expect(text.stdout).toContain('No changes.');
    const json = await runCli(['plan', '--json', '--detailed-exitcode', '-f', yamlPath], { env });
    expect(json.code).toBe(0);
    const plan = JSON.parse(json.stdout);
    expect(plan.actions).toEqual([]);
    expect(plan.bindings).toEqual([]);
    expect(plan.summary).toMatchObject({ create: 0, update: 0, replace: 0, delete: 0, adopt: 0, move: 0 });
    // Everything exported is unchanged; the duplicate name and the overlapping VPC stay unmanaged.
    const lock = JSON.parse(lockText);
    expect(plan.summary.unchanged).toBe(Object.keys(lock.resources).length);
    expect(plan.summary.unmanaged).toBe(2);
    expect(onlyReads(em.stats())).toEqual([]);
  });

  it('exports byte-identically the second time, and accepts its own files without --force', async () => {
    const dir2 = mkdtempSync(join(tmpdir(), 'dbform-export-'));
    const again = await runCli(['export', '-o', join(dir2, 'dbform.yaml')], { env });
    expect(again.code, again.stderr).toBe(0);
    expect(readFileSync(join(dir2, 'dbform.yaml'), 'utf8')).toBe(yamlText);
    // Byte-identical but for the lineage: each new lockfile is a state of its own (SPEC section 2).
    const lock2 = readFileSync(join(dir2, 'dbform.lock.json'), 'utf8');
    expect(lineageOf(lock2)).not.toBe(lineageOf(lockText));
    expect(lock2.replace(lineageOf(lock2), lineageOf(lockText))).toBe(lockText);
    const same = await runCli(['export', '-o', yamlPath], { env });
    expect(same.code, same.stderr).toBe(0);
    expect(readFileSync(yamlPath, 'utf8')).toBe(yamlText);
    expect(readFileSync(lockPath, 'utf8')).toBe(lockText);
  });

  it('never writes a secret', () => {
    expect(world.secrets.length).toBeGreaterThan(40);
    for (const secret of world.secrets) {
      for (const text of [yamlText, lockText, exportRun.stdout, exportRun.stderr]) expect(text.includes(secret)).toBe(false);
    }
    expect(yamlText).not.toMatch(/^\s*password:/m);
    expect(yamlText).toContain('    # password: { from_env: BILLING_DB_2_PASSWORD, version: 1 }');
    expect(lockText).not.toContain('password');
  });

  it('derives keys from names: collisions, digits, unicode, truncation, reserved words', async () => {
    const loaded = await loadConfig([yamlPath], { env: {} });
    if (!loaded.ok) throw new Error('the export does not load');
    const keyOf = (name: string) => loaded.value.services.find((s) => s.name === name)?.key;
    // The loader reads the name back exactly: `${` is written as `$${`, never interpolated.
    expect(yamlText).toContain('  env-home-not-expanded:\n    name: "$${env:HOME} not expanded"\n');
    expect(keyOf(`it's "quoted" \\ back`)).toBe('it-s-quoted-back');
    expect(keyOf('  padded  ')).toBe('padded');
    expect(keyOf('billing-db')).toBe('billing-db');
    expect(keyOf('Billing DB')).toBe('billing-db-2');
    expect(keyOf('billing_db')).toBe('billing-db-3');
    expect(keyOf('2fa-service')).toBe('svc-2fa-service');
    expect(keyOf('42')).toBe('svc-42');
    expect(keyOf('Données clients')).toBe('donnees-clients');
    expect(keyOf('cafe')).toBe('cafe');
    expect(keyOf('café')).toBe('cafe-2');
    expect(keyOf('rocket 🚀 db')).toBe('rocket-db');
    expect(keyOf('true')).toBe('true');
    expect(keyOf('${env:HOME} not expanded')).toBe('env-home-not-expanded');
    expect([keyOf('数据库'), keyOf('データ')].sort()).toEqual(['svc', 'svc-2']);
    const long = [keyOf(`a-very-long-service-name-that-goes-on-and-on-past-the-key-limit-of-63-characters-one`), keyOf(`a-very-long-service-name-that-goes-on-and-on-past-the-key-limit-of-63-characters-two`)];
    expect(long).toEqual(['a-very-long-service-name-that-goes-on-and-on-past-the-key-limit', 'a-very-long-service-name-that-goes-on-and-on-past-the-key-lim-2']);
    expect(keyOf('x'.repeat(128))).toBe('x'.repeat(63));
    for (const { key } of loaded.value.services) expect(key).toMatch(/^[a-z][a-z0-9-]{0,62}$/);
    const vpcs = parse(yamlText).vpcs as Record<string, { name?: string }>;
    expect(Object.keys(vpcs).sort()).toEqual(['edge', 'null', 'prod-vpc', 'prod-vpc-2', 'vpc-9net']);
    expect(vpcs['prod-vpc']!.name).toBe('Prod VPC');
  });

  it('writes references, lineage, paused poolers and skipped resources as promised', () => {
    expect(yamlText.startsWith('# yaml-language-server: $schema=https://dbform.dev/schemas/dbform.schema.json\n')).toBe(true);
    expect(yamlText).toMatch(/^version: 1\nproject_id: proj-demo\n/m);
    const parent = world.services.get('Billing DB')![0]!;
    expect(yamlText).toContain(`  billing-db-fork:\n    # forked from service.billing-db-2 (${parent})\n    name: "Billing DB-fork"\n`);
    expect(yamlText).toContain(`  preview:\n    # forked from service.billing-db-fork (${world.services.get('Billing DB-fork')![0]})\n    addons: [time-series]\n`);
    const data = parse(yamlText);
    expect(data.services['on-null'].vpc).toBe('null');
    expect(data.services['on-overlap'].vpc).toEqual({ id: world.vpcs.get('overlap') });
    expect(data.services['paused-pooler-on']).toMatchObject({ pooler: true, paused: true, vpc: 'vpc-9net' });
    expect(data.services['billing-db-2']).toMatchObject({
      addons: ['time-series'], cpu_millis: 2000, memory_gbs: 8, environment: 'PROD', ha: { replicas: 2, sync_replicas: 1 }, pooler: true, vpc: 'prod-vpc', paused: false,
      replica_sets: { 'analytics-rs': { name: 'Analytics RS', cpu_millis: 500, memory_gbs: 2, nodes: 1, pooler: false, environment: 'DEV' }, reporting: { cpu_millis: 1000, memory_gbs: 4, nodes: 2, pooler: true, environment: 'PROD' } },
    });
    expect(data.services['billing-db-3']).toMatchObject({ addons: [], cpu_millis: 'shared', memory_gbs: 'shared', ha: { replicas: 0, sync_replicas: 0 }, vpc: null });
    expect(data.vpcs.null.peerings).toEqual([{ peer_account_id: '123456789012', peer_region_code: 'us-west-2', peer_vpc_id: 'pcx:weird/peer id' }]);
    const dupIds = world.services.get('dup')!;
    expect(yamlText).toContain(`#   - service "dup" (${dupIds[1]}): service ${dupIds[0]} has the same name, and names must be unique in a config`);
    expect(exportRun.stderr).toContain(`note: not exported: service "dup" (${dupIds[1]}): service ${dupIds[0]} has the same name`);
    expect(exportRun.stderr).toContain(`note: not exported: VPC "overlap" (${world.vpcs.get('overlap')}): its CIDR 10.10.128.0/17 overlaps 10.10.0.0/16 of VPC "Prod VPC"`);
  });
});
