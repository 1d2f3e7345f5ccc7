// `dbform plan` end to end: the built CLI, a real emulator over HTTP, the real client.
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Ajv2020 from 'ajv/dist/2020.js';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { ApiClient } from '../../../src/api/client.js';
import type { EmulatorHandle } from '../../../src/emulator/index.js';
import { fromPlanJson } from '../../../src/planner/index.js';
import { runCli } from '../../support/cli.js';
import { AUTH_ENV, DIALECT_FACTS, EMULATOR_ENV, itDialectBlind, planReads, startTestEmulator, testClient } from '../../support/dialect.js';
import { project } from './helpers.js';
import { removeTempDirs } from '../../support/temp-dir.js';

afterAll(removeTempDirs);

const P = 'proj-demo';
let em: EmulatorHandle;
let client: ApiClient;
let env: Record<string, string>;
const schema = JSON.parse(readFileSync(join(import.meta.dirname, '../../../schemas/plan.schema.json'), 'utf8'));
const validate = new Ajv2020.default({ strict: true }).compile(schema);

beforeAll(async () => {
  em = await startTestEmulator({ host: '127.0.0.1', port: 0, timeScale: 0 });
  client = testClient(em.url);
  env = { DBFORM_API_URL: em.url, ...AUTH_ENV };
});
afterAll(async () => {
  await client.close();
  await em.close();
});

/** Deletes everything so each test starts from an empty project. */
async function clearProject(): Promise<void> {
  for (const s of await client.listServices(P)) await client.deleteService(P, s.service_id);
  for (let i = 0; i < 50 && (await client.listServices(P)).length > 0; i++) await new Promise((r) => setTimeout(r, 10));
  for (const v of await client.listVPCs(P)) {
    for (const x of await client.listVPCPeerings(P, v.id)) await client.deleteVPCPeering(P, v.id, x.id);
    await client.deleteVPC(P, v.id);
  }
  em.resetStats();
}

beforeEach(clearProject);

const FRESH = `version: 1
project_id: proj-demo
vpcs:
  main:
    cidr: 10.10.0.0/16
    region_code: us-east-1
    peerings:
      - { peer_account_id: "123456789012", peer_region_code: us-east-1, peer_vpc_id: vpc-0a1b2c3d }
  edge:
    cidr: 10.20.0.0/16
    region_code: us-east-1
services:
  metrics:
    addons: [time-series]
    region_code: us-east-1
    cpu_millis: 2000
    memory_gbs: 8
    ha: { replicas: 2, sync_replicas: 1 }
    pooler: true
    vpc: main
    password: { from_env: METRICS_DB_PASSWORD, version: 1 }
    replica_sets:
      reporting: { cpu_millis: 1000, memory_gbs: 4, nodes: 2 }
  preview:
    fork: { from: metrics, strategy: NOW }
`;

describe('dbform plan', () => {
  it('plans a fresh project as creates in a valid order, reading only, in 2 + V requests', async () => {
    const dir = project(FRESH);
    const r = await runCli(['plan', '--json', '-f', join(dir, 'dbform.yaml')], { env: { ...env, METRICS_DB_PASSWORD: 'hunter2-secret' } });
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const json = JSON.parse(r.stdout);
    expect(validate(json)).toBe(true);
    expect(json.summary).toMatchObject({ create: 6, update: 0, delete: 0 });
    const ids = new Map<string, number>(json.actions.map((a: { id: string }, i: number) => [a.id, i]));
    const at = (address: string, op: string) => json.actions.findIndex((a: { address: string; op: string }) => a.address === address && a.op === op);
    json.actions.forEach((a: { depends_on: string[] }, i: number) => a.depends_on.forEach((d) => expect(ids.get(d)!).toBeLessThan(i)));
    expect(at('vpc.main', 'createVPC')).toBeLessThan(at('peering.main.vpc-0a1b2c3d', 'createVPCPeering'));
    expect(at('vpc.main', 'createVPC')).toBeLessThan(at('service.metrics', 'attachServiceToVPC'));
    expect(at('service.metrics', 'createService')).toBeLessThan(at('replica_set.metrics.reporting', 'createReplicaSet'));
    expect(at('service.metrics', 'createService')).toBeLessThan(at('service.preview', 'forkService'));
    expect(r.stdout).not.toContain('hunter2-secret');
    const stats = em.stats();
    expect(Object.keys(stats.requests).every((k) => k.startsWith('GET '))).toBe(true);
    expect(stats.total).toBeLessThanOrEqual(2);
  });

  it('reads a project with V VPCs in at most 2 + V requests, all GETs', async () => {
    for (let i = 0; i < 3; i++) await client.createVPC(P, { name: `v${i}`, cidr: `10.${i}.0.0/16`, region_code: 'us-east-1' });
    await client.createService(P, { name: 'db' });
    em.resetStats();
    const dir = project(FRESH);
    const r = await runCli(['plan', '-f', join(dir, 'dbform.yaml')], { env });
    expect(r.code).toBe(0);
    const stats = em.stats();
    expect(stats.total).toBeLessThanOrEqual(2 + 3);
    expect(stats.requests['GET /projects/{project_id}/vpcs/{vpc_id}/peerings']).toBe(3);
    expect(Object.keys(stats.requests).every((k) => k.startsWith('GET '))).toBe(true);
    expect(r.stdout).toContain('4 unmanaged');
  });

  it('reads the replica sets of the services it manages, and only theirs, where the list does not embed them', async () => {
    const managed = await client.createService(P, { name: 'metrics', cpu_millis: '2000', memory_gbs: '8' });
    const other = await client.createService(P, { name: 'other', cpu_millis: '500', memory_gbs: '2' });
    await client.getService(P, managed.service_id); // time scale 0: READY at the next read
    await client.createReplicaSet(P, managed.service_id, { name: 'reporting', cpu_millis: 1000, memory_gbs: 4, nodes: 2 });
    await client.createReplicaSet(P, other.service_id, { name: 'theirs', cpu_millis: 500, memory_gbs: 2, nodes: 1 });
    em.resetStats();
    const yaml = 'version: 1\nproject_id: proj-demo\nservices:\n  metrics:\n    cpu_millis: 2000\n    memory_gbs: 8\n    replica_sets:\n      reporting: { cpu_millis: 1000, memory_gbs: 4, nodes: 2 }\n';
    const dir = project(yaml, { 'service.metrics': { id: managed.service_id } });
    const r = await runCli(['plan', '--json', '--debug'], { env, cwd: dir });
    expect(r.code, r.stderr).toBe(0);
    const json = JSON.parse(r.stdout);
    // Found by name under its bound service: adopted, never planned as a create.
    expect(json.actions).toEqual([]);
    expect(json.bindings.map((b: { kind: string; address: string }) => `${b.kind} ${b.address}`)).toEqual(['adopt replica_set.metrics.reporting']);
    const stats = em.stats();
    expect(stats.total).toBe(planReads(0, 1));
    expect(stats.requests['GET /projects/{project_id}/services/{service_id}/replicaSets'] ?? 0).toBe(DIALECT_FACTS.embedsReplicaSets ? 0 : 1);
    const notes = r.stderr.split('\n').filter((l) => l.includes('does not embed read_replica_sets'));
    expect(notes).toHaveLength(DIALECT_FACTS.embedsReplicaSets ? 0 : 1);
  });

  it('--detailed-exitcode: 2 with changes, 0 without; the text says No changes.', async () => {
    const vpc = await client.createVPC(P, { name: 'main', cidr: '10.10.0.0/16', region_code: 'us-east-1' });
    const svc = await client.createService(P, { name: 'db', cpu_millis: '1000', memory_gbs: '4', environment_tag: 'PROD' });
    const yaml = 'version: 1\nproject_id: proj-demo\nvpcs:\n  main: { cidr: 10.10.0.0/16, region_code: us-east-1 }\nservices:\n  db: { cpu_millis: 1000, memory_gbs: 4, environment: PROD }\n';
    const unbound = project(yaml);
    const adopt = await runCli(['plan', '--detailed-exitcode'], { env, cwd: unbound });
    expect(adopt.code).toBe(2);
    expect(adopt.stdout).toContain('  <= service.db  (adopt existing');
    const bound = project(yaml, { 'vpc.main': { id: vpc.id }, 'service.db': { id: svc.service_id } });
    const none = await runCli(['plan', '--detailed-exitcode'], { env, cwd: bound });
    expect(none).toEqual({ code: 0, signal: null, stdout: 'Project proj-demo, workspace default, state: dbform.lock.json\nNo changes. 2 unchanged, 0 unmanaged (not in the config or state; left alone).\n', stderr: '' });
    const withoutFlag = await runCli(['plan'], { env, cwd: unbound });
    expect(withoutFlag.code).toBe(0);
  });

  itDialectBlind('exits 3 when blocked, and lists the blocked action', async () => {
    const svc = await client.createService(P, { name: 'old' });
    const dir = project('version: 1\nproject_id: proj-demo\n', { 'service.old': { id: svc.service_id } });
    const r = await runCli(['plan', '--detailed-exitcode'], { env, cwd: dir });
    expect(r.code).toBe(3);
    expect(r.stdout).toContain('blocked: data-loss: deleteService destroys service.old and its data; re-run with --allow-data-loss to allow it');
    const saved = await runCli(['plan', '--out', join(dir, 'blocked.plan.json')], { env, cwd: dir });
    expect(saved.code).toBe(3);
    expect(saved.stderr).toContain(`Saved the plan to ${join(dir, 'blocked.plan.json')}; it is blocked (see above), so apply will refuse it.\n`);
    const allowed = await runCli(['plan', '--detailed-exitcode', '--allow-data-loss'], { env, cwd: dir });
    expect(allowed.code).toBe(2);
    const protectedDir = project('version: 1\nproject_id: proj-demo\n', { 'service.old': { id: svc.service_id, protect: true } });
    const prot = await runCli(['plan', '--allow-data-loss', '--format', 'markdown'], { env, cwd: protectedDir });
    expect(prot.code).toBe(3);
    expect(prot.stdout).toContain('> [!CAUTION]');
  });

  it('saves the plan with --out: JSON plus fingerprints and config_hash, no secret, written atomically', async () => {
    const dir = project(FRESH);
    const out = join(dir, 'plan.json');
    const r = await runCli(['plan', '--out', out], { env: { ...env, METRICS_DB_PASSWORD: 'hunter2-secret' }, cwd: dir });
    expect(r.code).toBe(0);
    expect(r.stderr).toBe(`Saved the plan to ${out}; run \`dbform apply ${out}\` to apply exactly this plan.\n`);
    const text = readFileSync(out, 'utf8');
    expect(text).not.toContain('hunter2-secret');
    const saved = JSON.parse(text);
    expect(validate(saved)).toBe(true);
    expect(saved.config_hash).toMatch(/^sha256:[0-9a-f]{64}$/);
    expect(Object.keys(saved.fingerprints).length).toBe(6);
    const back = fromPlanJson(saved);
    expect(back.ok).toBe(true);
    expect(readdirSync(dir).sort()).toEqual(['dbform.yaml', 'plan.json']);
    const again = await runCli(['plan', '--out', out], { env, cwd: dir });
    expect(JSON.parse(readFileSync(out, 'utf8'))).toEqual(saved);
    expect(again.code).toBe(0);
  });

  itDialectBlind('--out creates a missing directory, and a file it cannot write is one clear message', async () => {
    const dir = project(FRESH);
    const out = join(dir, 'plans', 'pr-12', 'plan.json');
    const r = await runCli(['plan', '--out', out], { env: { ...env, METRICS_DB_PASSWORD: 'x' }, cwd: dir });
    expect(r.code).toBe(0);
    expect(fromPlanJson(JSON.parse(readFileSync(out, 'utf8'))).ok).toBe(true);
    writeFileSync(join(dir, 'a-file'), '');
    const underFile = join(dir, 'a-file', 'plan.json');
    const bad = await runCli(['plan', '--out', underFile], { env: { ...env, METRICS_DB_PASSWORD: 'x' }, cwd: dir });
    expect(bad).toMatchObject({ code: 1, stdout: '' });
    expect(bad.stderr).toBe(`error: cannot write the plan file ${underFile}: cannot create its directory ${join(dir, 'a-file')} (a file of that name is in the way)\n`);
    const onDir = await runCli(['plan', '--out', join(dir, 'plans')], { env: { ...env, METRICS_DB_PASSWORD: 'x' }, cwd: dir });
    expect(onDir.code).toBe(1);
    expect(onDir.stderr).toBe(`error: cannot write the plan file ${join(dir, 'plans')}: it is a directory\n`);
    expect(readdirSync(join(dir, 'plans'))).toEqual(['pr-12']);
  });

  itDialectBlind('reports a plan-level error with exit 1 and no plan: ambiguity, bad --target', async () => {
    await client.createService(P, { name: 'db' });
    await client.createService(P, { name: 'db' });
    const dir = project('version: 1\nproject_id: proj-demo\nservices:\n  db: {}\n');
    const r = await runCli(['plan'], { env, cwd: dir });
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/^dbform\.yaml:4:3: 2 live services have the name "db" \([a-z0-9]{10}, [a-z0-9]{10}\); choose one with `dbform import service.db <ID>`\n$/);
    const json = await runCli(['plan', '--json', '--target', 'service.nope'], { env, cwd: dir });
    expect(json.code).toBe(1);
    expect(JSON.parse(json.stdout).diagnostics.map((d: { message: string }) => d.message)).toContain('--target service.nope: no such resource in the config or the state');
  });

  itDialectBlind('reports config errors with file, line and column, and contradictory flags', async () => {
    const dir = project('version: 1\nproject_id: proj-demo\nvpcs:\n  main:\n    cidr: 10.10.0.1/16\n    region_code: us-east-1\n');
    const r = await runCli(['plan'], { env, cwd: dir });
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('');
    // Exactly as `dbform validate` prints it (minus its count line): FILE:LINE:COL: message.
    const validate = await runCli(['validate'], { cwd: dir });
    expect(validate.code).toBe(1);
    expect(r.stderr).toMatch(/^dbform\.yaml:5:11: /);
    expect(r.stderr).toBe(validate.stderr.replace(/^\d+ errors?\n$/m, ''));
    expect(em.stats().total).toBe(0);
    const both = await runCli(['plan', '--json', '--format', 'markdown'], { env, cwd: dir });
    expect(both).toEqual({ code: 1, signal: null, stdout: '', stderr: 'error: --json and --format markdown contradict each other; use one\n' });
  });

  itDialectBlind('prints config warnings on stderr as warnings and still plans', async () => {
    const dir = project(FRESH.replace('peer_account_id: "123456789012"', 'peer_account_id: "12345"'));
    const r = await runCli(['plan'], { env, cwd: dir });
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(/^dbform\.yaml:\d+:\d+: warning: /);
    expect(r.stderr).not.toContain('error');
    expect(r.stdout).toContain('Plan: 6 to create');
  });

  itDialectBlind('colours follow FORCE_COLOR and NO_COLOR', async () => {
    const dir = project(FRESH);
    const forced = await runCli(['plan'], { env: { ...env, FORCE_COLOR: '1' }, cwd: dir });
    expect(forced.stdout).toContain('\x1b[32m+ vpc.main\x1b[39m');
    const plain = await runCli(['plan'], { env: { ...env, FORCE_COLOR: '1', NO_COLOR: '1' }, cwd: dir });
    expect(plain.stdout).not.toContain('\x1b[');
    const flag = await runCli(['plan', '--no-color'], { env: { ...env, FORCE_COLOR: '1' }, cwd: dir });
    expect(flag.stdout).not.toContain('\x1b[');
  });

  itDialectBlind('against an API that cannot be reached: one message and a prompt exit, not the retries of every sibling read', async () => {
    const dead = await startTestEmulator({ host: '127.0.0.1', port: 0 });
    await dead.close();
    const dir = project(FRESH);
    // The backoff at the emulator's pace (a loopback URL): the order of attempts is what counts here.
    const deadEnv = { DBFORM_API_URL: dead.url, ...AUTH_ENV, METRICS_DB_PASSWORD: 'x', DBFORM_EMULATOR_TIME_SCALE: '0.01' };
    // Real processes: how soon a process exits, and what it prints until then, is the point.
    const r = await runCli(['plan'], { env: deadEnv, cwd: dir, spawn: true });
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/^error: cannot reach the API at http:\/\/127\.0\.0\.1:\d+\/public\/api\/v1 \(ECONNREFUSED: [^\n]*\) \(5 attempts\); is the URL right and the API running\?\n$/);
    // With --debug, one line per attempt: once a read has made its last attempt, no read makes another
    // (the sibling reads used to retry 10 times each before the command could exit).
    const debug = await runCli(['plan', '--debug'], { env: deadEnv, cwd: dir, spawn: true });
    const attempts = debug.stderr.split('\n').filter((l) => /^\[api\] .*\(attempt \d+\)/.test(l));
    const last = attempts.findIndex((l) => !l.includes('retrying in'));
    expect(last, debug.stderr).toBeGreaterThanOrEqual(0);
    expect(attempts[last]).toMatch(/\(attempt 5\)$/);
    expect(attempts.slice(last + 1), debug.stderr).toEqual([]);
    for (const l of attempts) expect(Number(/\(attempt (\d+)\)/.exec(l)![1])).toBeLessThanOrEqual(5);
  });

  it('--emulator plans against the in-process emulator', async () => {
    const dir = project(FRESH);
    const r = await runCli(['plan', '--emulator', '--detailed-exitcode'], { cwd: dir, env: { METRICS_DB_PASSWORD: 'set-for-apply', ...EMULATOR_ENV } });
    expect(r.stderr).toBe('');
    expect(r.code).toBe(2);
    expect(r.stdout).toContain('Plan: 6 to create, 0 to update, 0 to replace, 0 to delete, 0 to adopt, 0 to move.');
  });
});
