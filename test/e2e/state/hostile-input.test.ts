// Inputs are checked at the edge (SPEC section 13), over real HTTP and a real PostgreSQL: a project
// ID of `..` never reaches another endpoint, project IDs given as flags are checked before any
// request, and every failure on the lock and state path (a NUL or 4,000 characters in project_id,
// a table of schema dbform dropped by hand) is one readable line, never "unexpected failure".
import { randomBytes } from 'node:crypto';
import { describe, expect, it, onTestFinished } from 'vitest';
import { thisProcess } from '../../../src/cli/local-process.js';
import { DbformError } from '../../../src/model/index.js';
import { describeHolder, PgStateStore } from '../../../src/state/index.js';
import { runCli, workspace, type Workspace } from '../apply/cli-harness.js';
import { testClient } from '../../support/dialect.js';
import { useDatabaseAndEmulator } from '../../support/pg-and-emulator.js';
import { createTestDatabase, type TestDatabase } from '../../support/pg.js';

const world = useDatabaseAndEmulator();

/** 4,000 characters that do not compress: the size at which an index entry no longer fits. */
const LONG_ID = randomBytes(3000).toString('base64url').slice(0, 4000);

const config = (projectId: string) => `version: 1
project_id: ${projectId}
services:
  app:
    name: edge-\${workspace}
    cpu_millis: 500
    memory_gbs: 2
`;

async function totalRequests(): Promise<number> {
  return ((await (await fetch(new URL('/__emulator/stats', world.emulator.url))).json()) as { total: number }).total;
}
const resetStats = () => fetch(new URL('/__emulator/reset', world.emulator.url), { method: 'POST' });

async function freshDatabase(): Promise<TestDatabase> {
  const db = await createTestDatabase();
  onTestFinished(() => db.drop());
  return db;
}

/** One `error:` line on stderr, exit 1, nothing on stdout, and it is not a bug report. */
function expectOneLine(r: { code: number | null; stdout: string; stderr: string }, what: string): void {
  expect(r.code, `${what}: ${r.stderr}`).toBe(1);
  expect(r.stderr, what).toMatch(/^error: [^\n]+\n$/);
  expect(r.stderr, what).not.toContain('unexpected failure');
  expect(r.stdout, what).toBe('');
}

describe('project IDs and path segments', () => {
  it('project_id ".." in the config never reaches GET /services, nor any endpoint', async () => {
    const ws = workspace(config('".."'), world.emulator.url);
    await resetStats();
    for (const command of [['plan'], ['apply', '--auto-approve'], ['output']]) {
      const r = await runCli(ws, command);
      expect(r.code, r.stderr).toBe(1);
      expect(r.stderr, command.join(' ')).toMatch(/"\.\."/);
      expect(r.stderr).not.toContain('unexpected failure');
    }
    expect(await totalRequests()).toBe(0);
  });

  it('the API client percent-encodes every segment and refuses one that would name another endpoint', async () => {
    const client = testClient(world.emulator.url);
    try {
      await resetStats();
      for (const call of [() => client.listServices('..'), () => client.getService('proj-demo', '..'), () => client.listVPCs('.'), () => client.getVPC('proj-demo', '')]) {
        const err = await Promise.resolve().then(call).catch((e: unknown) => e);
        expect(err).toBeInstanceOf(DbformError);
        expect((err as Error).message).toMatch(/cannot be sent to the API: in a URL path it would name another endpoint/);
      }
      expect(await totalRequests()).toBe(0);
      // A slash or a question mark stays inside its segment: a 404 for that ID, not another route.
      const err = await Promise.resolve().then(() => client.getService('proj-demo', 'a/../../services?x=1')).catch((e: unknown) => e);
      expect((err as Error).message).toMatch(/was not found/);
      const stats = (await (await fetch(new URL('/__emulator/stats', world.emulator.url))).json()) as { requests: Record<string, number> };
      expect(stats.requests).toEqual({ 'GET /projects/{project_id}/services/{service_id}': 1 });
    } finally {
      await client.close();
    }
  });

  it('--project of logs and export is checked before any request', async () => {
    const ws = workspace(config('proj-demo'), world.emulator.url);
    await resetStats();
    for (const [args, flag] of [
      [['logs', 'abcdefghij', '--project', '..'], '--project ".."'],
      [['export', '--project', '..', '-o', 'x.yaml'], '--project ".."'],
      [['export', '--project', 'a'.repeat(4000), '-o', 'x.yaml'], `--project "${'a'.repeat(60)}"... (4000 characters)`],
    ] as const) {
      const r = await runCli(ws, [...args]);
      expectOneLine(r, args.join(' ').slice(0, 40));
      expect(r.stderr).toBe(`error: ${flag} is not a project ID: use 1-128 letters, digits, '_' and '-', starting with a letter or digit\n`);
    }
    expect(await totalRequests()).toBe(0);
  });
});

describe('failures on the lock and state path are one line', () => {
  const holder = () => describeHolder(thisProcess(), {}, 'dbform apply');

  it.each([
    ['a NUL in project_id', 'proj\u0000demo'],
    ['a 4,000-character project_id', LONG_ID],
  ])('%s: read and lock fail with a DbformError naming the state database', async (_label, projectId) => {
    const store = new PgStateStore({ url: world.db.url, projectId, workspace: 'default', env: {} });
    try {
      for (const attempt of [() => store.lock(holder(), { timeoutMs: 0 }), () => store.write({ version: 1, projectId, lineage: 'l', serial: 1, resources: {} }, { lineage: null, serial: 0 })]) {
        const err = await attempt().catch((e: unknown) => e);
        expect(err).toBeInstanceOf(DbformError);
        expect((err as Error).message).toContain(`127.0.0.1:${world.db.port}`);
        expect((err as Error).message).not.toContain('\n');
      }
    } finally {
      await store.close();
    }
  });

  it.each([
    ['a NUL in project_id', '"proj\\0demo"'],
    ['a 4,000-character project_id', LONG_ID],
  ])('%s in the config: plan, apply and destroy print one line', async (_label, projectId) => {
    const ws = workspace(config(projectId), world.emulator.url, { DBFORM_STATE: world.db.url });
    await resetStats();
    for (const command of [['plan'], ['apply', '--auto-approve'], ['destroy', '--auto-approve']]) {
      const r = await runCli(ws, command);
      expect(r.code, r.stderr).toBe(1);
      expect(r.stderr, command.join(' ')).not.toContain('unexpected failure');
      expect(r.stderr.trimEnd().split('\n').filter((l) => !/^\s/.test(l)), command.join(' ')).toHaveLength(1);
    }
  });

  it.each([
    ['claims', [['plan'], ['apply', '--auto-approve'], ['destroy', '--auto-approve'], ['state', 'list'], ['output']]],
    ['locks', [['apply', '--auto-approve'], ['destroy', '--auto-approve'], ['state', 'unlock']]],
    ['states', [['plan'], ['apply', '--auto-approve'], ['destroy', '--auto-approve'], ['workspace', 'list'], ['state', 'list'], ['output']]],
  ])('the table dbform.%s dropped by hand: every command that uses it says so in one line', async (table, commands) => {
    const db = await freshDatabase();
    const ws: Workspace = workspace(config('proj-demo'), world.emulator.url, { DBFORM_STATE: db.url });
    const first = await runCli(ws, ['apply', '--auto-approve', '--workspace', `drop-${table}`]);
    expect(first.code, first.stderr).toBe(0);
    await db.query(`DROP TABLE dbform.${table} CASCADE`);
    for (const command of commands) {
      const r = await runCli(ws, [...command, '--workspace', `drop-${table}`]);
      expectOneLine(r, `${table}: ${command.join(' ')}`);
      expect(r.stderr).toMatch(new RegExp(`schema dbform version \\d+, but part of it is missing \\(.*dbform\\.${table}|relation "dbform\\.${table}" does not exist`));
    }
    // Nothing was recreated over the remaining states.
    const exists = await db.query<{ t: string | null }>(`SELECT to_regclass('dbform.${table}')::text AS t`);
    expect(exists.rows[0]!.t).toBeNull();
  });
});
