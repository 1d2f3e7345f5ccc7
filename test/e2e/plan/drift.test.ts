// Drift end to end (SPEC section 11): apply records the managed fields as it left them; a change
// made by hand shows under "Changed outside dbform" before the actions that revert it; --json lists
// it under "drift"; --refresh-only shows only it, changes nothing, and exits 2 with
// --detailed-exitcode. Runs in both emulator dialects.
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Ajv2020 from 'ajv/dist/2020.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApiClient } from '../../../src/api/client.js';
import type { EmulatorHandle } from '../../../src/emulator/index.js';
import { runCli, workspace, type Workspace } from '../apply/cli-harness.js';
import { createTestDatabase, type TestDatabase } from '../../support/pg.js';
import { startTestEmulator, testClient } from '../../support/dialect.js';
import { removeTempDirs } from '../../support/temp-dir.js';

const schema = JSON.parse(readFileSync(join(import.meta.dirname, '..', '..', '..', 'schemas', 'plan.schema.json'), 'utf8'));
const validatePlan = new Ajv2020.default({ allErrors: true, strict: true }).compile(schema);

let emulator: EmulatorHandle;
let client: ApiClient;
let db: TestDatabase;
beforeAll(async () => {
  emulator = await startTestEmulator({ timeScale: 0.01 });
  client = testClient(emulator.url);
  db = await createTestDatabase();
});
afterAll(async () => {
  await client.close();
  await emulator.close();
  await db.drop();
  removeTempDirs();
});

const config = (name: string, cpu = 500, memory = 2) => `version: 1
project_id: proj-demo
services:
  app:
    name: ${name}
    addons: [time-series]
    cpu_millis: ${cpu}
    memory_gbs: ${memory}
    pooler: true
    password:
      from_env: APP_PASSWORD
      version: 1
    replica_sets:
      read:
        cpu_millis: 500
        memory_gbs: 2
        nodes: 1
`;

const SECRET = 'drift-Secret-pw-1';

async function applied(name: string, extra: NodeJS.ProcessEnv = {}): Promise<Workspace> {
  const ws = workspace(config(name), emulator.url, { APP_PASSWORD: SECRET, ...extra });
  const r = await runCli(ws, ['apply', '--auto-approve']);
  expect(r.code, r.stderr).toBe(0);
  return ws;
}

const lockOf = (ws: Workspace) => JSON.parse(readFileSync(ws.lockfile, 'utf8'));

/** Waits until the emulator reports the service READY again (a resize passes through UPGRADING). */
async function settled(serviceId: string): Promise<void> {
  for (let i = 0; i < 200; i++) {
    const s = (await client.listServices('proj-demo')).find((x) => x.service_id === serviceId);
    if (s?.status === 'READY') return;
    await new Promise((r) => setTimeout(r, 20));
  }
  throw new Error(`service ${serviceId} never became READY`);
}

describe('drift', () => {
  it('apply records the managed fields it left, sorted and without secrets', async () => {
    const ws = await applied('drift-record');
    const lock = lockOf(ws);
    // By field descriptor: the type the addons made, the password's version (never its value).
    expect(lock.resources['service.app'].applied).toEqual({ addons: 'TIMESERIESDB', name: 'drift-record', password: 1, pooler: true, size: { cpu_millis: 500, memory_gbs: 2 } });
    expect(Object.keys(lock.resources['service.app'].applied)).toEqual(['addons', 'name', 'password', 'pooler', 'size']);
    expect(lock.resources['replica_set.app.read'].applied).toEqual({ name: 'read', nodes: 1, size: { cpu_millis: 500, memory_gbs: 2 } });
    // No password anywhere dbform keeps things: neither the configured one nor the service's
    // initial one (both reach only the pgpass file).
    const initial = readFileSync(ws.pgpass, 'utf8').split('\n').filter((l) => l !== '').map((l) => l.split(':')[4]!);
    expect(initial.length).toBeGreaterThan(0);
    for (const path of readdirSync(ws.dir, { recursive: true, withFileTypes: true }).filter((d) => d.isFile() && d.name !== 'pgpass')) {
      const text = readFileSync(join(path.parentPath, path.name), 'utf8');
      for (const secret of [SECRET, ...initial]) expect(text, path.name).not.toContain(secret);
    }
    // Nothing changed outside dbform (TIMESCALEDB, the real service's spelling, is the same type).
    const r = await runCli(ws, ['plan', '--refresh-only', '--detailed-exitcode']);
    expect(r.code, r.stdout + r.stderr).toBe(0);
    expect(r.stdout).toBe('No changes outside dbform. The live resources of project proj-demo are as the last apply left them.\n');
    // A second apply with no changes writes nothing.
    const serial = lock.serial;
    expect((await runCli(ws, ['apply', '--auto-approve'])).code).toBe(0);
    expect(lockOf(ws).serial).toBe(serial);
  });

  it('plan shows a hand resize under "Changed outside dbform" before the actions that revert it; --json under "drift"', async () => {
    const ws = await applied('drift-resize');
    const id = lockOf(ws).resources['service.app'].id as string;
    await client.resizeService('proj-demo', id, { cpu_millis: '1000', memory_gbs: '4' });
    await client.disablePooler('proj-demo', id);
    await settled(id);
    const r = await runCli(ws, ['plan']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout.split('\n')[0]).toMatch(/^Project proj-demo, workspace default, state: /);
    expect(r.stdout.split('\n').slice(1).join('\n').startsWith(
      [
        'Changed outside dbform since the last apply:',
        '',
        `  ~ service.app  (${id})`,
        '      cpu_millis: 500 -> 1000',
        '      memory_gbs: 2 -> 4',
        '      pooler: true -> false',
        '',
        'dbform will make these changes:',
        '',
        '  ~ service.app  (resizeService, enablePooler)',
        '      cpu_millis: 1000 -> 500',
      ].join('\n'),
    )).toBe(true);
    const json = JSON.parse((await runCli(ws, ['plan', '--json'])).stdout);
    expect(json.drift).toEqual([
      {
        address: 'service.app',
        id,
        deleted: false,
        changes: [
          { path: 'cpu_millis', before: 500, after: 1000 },
          { path: 'memory_gbs', before: 2, after: 4 },
          { path: 'pooler', before: true, after: false },
        ],
      },
    ]);
    expect(validatePlan(json), JSON.stringify(validatePlan.errors)).toBe(true);
    const md = (await runCli(ws, ['plan', '--format', 'markdown'])).stdout;
    expect(md).toContain(`| <code>service.app</code> | <code>cpu_millis</code> | <code>500</code> | <code>1000</code> |`);
    expect(md.indexOf('Changed outside dbform')).toBeLessThan(md.indexOf('<details>'));

    // apply reverts it, and then nothing has drifted.
    expect((await runCli(ws, ['apply', '--auto-approve'])).code).toBe(0);
    const after = await runCli(ws, ['plan', '--refresh-only', '--detailed-exitcode']);
    expect(after.code, after.stdout).toBe(0);
  });

  it('--refresh-only shows only the drift, changes nothing, and with --detailed-exitcode exits 2', async () => {
    const ws = await applied('drift-refresh');
    const lock = lockOf(ws);
    const id = lock.resources['service.app'].id as string;
    const rs = lock.resources['replica_set.app.read'].id as string;
    await client.resizeService('proj-demo', id, { cpu_millis: '2000', memory_gbs: '8' });
    await client.deleteReplicaSet('proj-demo', id, rs);
    await settled(id);
    const lockText = readFileSync(ws.lockfile, 'utf8');
    emulator.resetStats();
    const r = await runCli(ws, ['plan', '--refresh-only', '--detailed-exitcode']);
    expect(r.code, r.stderr).toBe(2);
    expect(r.stdout).toBe(
      [
        'Changed outside dbform since the last apply:',
        '',
        `  ~ service.app  (${id})`,
        '      cpu_millis: 500 -> 2000',
        '      memory_gbs: 2 -> 8',
        `  - replica_set.app.read  (${rs}: deleted outside dbform)`,
        '',
        '2 resources changed outside dbform. Nothing was changed; `dbform plan` shows what apply would do about it.',
        '',
      ].join('\n'),
    );
    expect(Object.keys(emulator.stats().requests).every((k) => k.startsWith('GET '))).toBe(true);
    expect(readFileSync(ws.lockfile, 'utf8')).toBe(lockText);
    expect((await runCli(ws, ['plan', '--refresh-only'])).code).toBe(0);

    const json = JSON.parse((await runCli(ws, ['plan', '--refresh-only', '--json'])).stdout);
    expect(json).toEqual({
      format_version: 1,
      project_id: 'proj-demo',
      drift: [
        { address: 'service.app', id, deleted: false, changes: [{ path: 'cpu_millis', before: 500, after: 2000 }, { path: 'memory_gbs', before: 2, after: 8 }] },
        { address: 'replica_set.app.read', id: rs, deleted: true, changes: [] },
      ],
    });
    const md = await runCli(ws, ['plan', '--refresh-only', '--format', 'markdown', '--detailed-exitcode']);
    expect(md.code).toBe(2);
    expect(md.stdout).toBe(
      [
        '### dbform drift report for project <code>proj-demo</code>',
        '',
        '**2 resources changed outside dbform** since the last apply. `dbform plan` shows what the next apply would do about it.',
        '',
        '#### Changed outside dbform since the last apply',
        '',
        '| resource | field | last applied | live now |',
        '|---|---|---|---|',
        '| <code>service.app</code> | <code>cpu_millis</code> | <code>500</code> | <code>2000</code> |',
        '| <code>service.app</code> | <code>memory_gbs</code> | <code>2</code> | <code>8</code> |',
        `| <code>replica_set.app.read</code> (<code>${rs}</code>) | | | <em>deleted</em> |`,
        '',
      ].join('\n'),
    );
    expect(readFileSync(ws.lockfile, 'utf8')).toBe(lockText);
  });

  it('accepting a change: write it into the config and apply; the apply records it though nothing is done', async () => {
    const ws = await applied('drift-accept');
    const id = lockOf(ws).resources['service.app'].id as string;
    await client.resizeService('proj-demo', id, { cpu_millis: '1000', memory_gbs: '4' });
    await settled(id);
    writeFileSync(ws.config, config('drift-accept', 1000, 4));
    const plan = await runCli(ws, ['plan', '--detailed-exitcode']);
    // Still shown (it did change outside dbform), but nothing to do about it.
    expect(plan.stdout).toContain('      cpu_millis: 500 -> 1000\n');
    expect(plan.stdout).toContain('No changes.');
    expect(plan.code).toBe(0);
    const serial = lockOf(ws).serial;
    expect((await runCli(ws, ['apply', '--auto-approve'])).code).toBe(0);
    expect(lockOf(ws).serial).toBe(serial + 1);
    expect(lockOf(ws).resources['service.app'].applied).toMatchObject({ size: { cpu_millis: 1000, memory_gbs: 4 } });
    expect((await runCli(ws, ['plan', '--refresh-only', '--detailed-exitcode'])).code).toBe(0);
  });

  it('apply --target records only what it targeted: a change it did not make is not recorded as applied', async () => {
    const ws = await applied('drift-target');
    writeFileSync(ws.config, config('drift-target', 1000, 4).replace('        nodes: 1\n', '        nodes: 1\n        environment: PROD\n'));
    const r = await runCli(ws, ['apply', '--auto-approve', '--target', 'service.app']);
    expect(r.code, r.stderr).toBe(0);
    const lock = lockOf(ws);
    expect(lock.resources['service.app'].applied).toMatchObject({ size: { cpu_millis: 1000, memory_gbs: 4 } });
    // The replica set's new environment was not applied: its record still says what the last apply of it left.
    expect(lock.resources['replica_set.app.read'].applied).toEqual({ name: 'read', nodes: 1, size: { cpu_millis: 500, memory_gbs: 2 } });
    expect((await runCli(ws, ['plan', '--refresh-only', '--detailed-exitcode'])).code).toBe(0);
    const plan = JSON.parse((await runCli(ws, ['plan', '--json'])).stdout);
    expect(plan.actions.map((a: { address: string; op: string }) => `${a.address} ${a.op}`)).toEqual(['replica_set.app.read setReplicaEnvironment']);
  });

  it('an old lockfile without records still plans; the next apply records them', async () => {
    const ws = await applied('drift-old');
    const lock = lockOf(ws);
    for (const e of Object.values(lock.resources) as Array<Record<string, unknown>>) delete e.applied;
    writeFileSync(ws.lockfile, `${JSON.stringify(lock, null, 2)}\n`);
    const plan = await runCli(ws, ['plan', '--detailed-exitcode']);
    expect(plan.code, plan.stdout + plan.stderr).toBe(0);
    expect(plan.stdout).not.toContain('Changed outside dbform');
    expect((await runCli(ws, ['apply', '--auto-approve'])).code).toBe(0);
    expect(lockOf(ws).resources['service.app'].applied).toMatchObject({ name: 'drift-old', pooler: true });
  });

  it('on a PostgreSQL state: the record lives in the document, drift is read from it', async () => {
    const ws = await applied('drift-pg', { DBFORM_STATE: db.url });
    const { rows } = await db.query<{ applied: Record<string, unknown> }>("SELECT document -> 'resources' -> 'service.app' -> 'applied' AS applied FROM dbform.states WHERE workspace = 'default'");
    expect(rows[0]!.applied).toMatchObject({ size: { cpu_millis: 500, memory_gbs: 2 }, pooler: true });
    // The record, the rest of the state and its history hold no password.
    const stored = await db.query<{ text: string }>("SELECT (SELECT string_agg(document::text, '') FROM dbform.states) || (SELECT string_agg(record::text, '') FROM dbform.history) AS text");
    expect(stored.rows[0]!.text).toContain('"applied"');
    expect(stored.rows[0]!.text).not.toContain(SECRET);
    const id = (await db.query<{ id: string }>("SELECT document -> 'resources' -> 'service.app' ->> 'id' AS id FROM dbform.states WHERE workspace = 'default'")).rows[0]!.id;
    await client.enablePooler('proj-demo', id).catch(() => undefined);
    await client.disablePooler('proj-demo', id);
    const r = await runCli(ws, ['plan', '--refresh-only', '--detailed-exitcode']);
    expect(r.code, r.stderr).toBe(2);
    expect(r.stdout).toContain('      pooler: true -> false\n');
  });

  it('--refresh-only with --out is one line', async () => {
    const ws = workspace(config('drift-out'), emulator.url);
    const r = await runCli(ws, ['plan', '--refresh-only', '--out', 'plan.json']);
    expect(r).toMatchObject({ code: 1, stdout: '', stderr: 'error: --refresh-only plans no actions, so there is no plan to save with --out\n' });
  });
});
