// state migrate (file -> PostgreSQL -> file, byte for byte), state unlock, and every bad input of
// issue 14: each one line, naming what is wrong, with nothing changed and no password shown.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli, workspace } from '../apply/cli-harness.js';
import { useDatabaseAndEmulator } from '../../support/pg-and-emulator.js';
import { createTestDatabase, PASSWORD_ROLE } from '../../support/pg.js';

const world = useDatabaseAndEmulator();
const PW = PASSWORD_ROLE.password;

const config = `version: 1
project_id: proj-demo
vpcs:
  net:
    name: net-\${workspace}
    cidr: 10.20.0.0/16
    region_code: us-east-1
services:
  db:
    name: db-\${workspace}
    cpu_millis: 500
    memory_gbs: 2
    protect: true
`;

async function closedPort(): Promise<number> {
  return new Promise((resolve) => {
    const srv = createServer().listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as { port: number };
      srv.close(() => resolve(port));
    });
  });
}

const stateCount = async () => (await world.db.query<{ n: number }>("SELECT count(*)::int AS n FROM dbform.states")).rows[0]!.n;

describe('state migrate', () => {
  it('file -> PostgreSQL -> file gives a byte-identical lockfile, and copies history', async () => {
    const ws = workspace(config, world.emulator.url, { DBFORM_WORKSPACE: 'mig' });
    expect((await runCli(ws, ['apply', '--auto-approve'])).code).toBe(0);
    const lockPath = join(ws.dir, 'dbform.mig.lock.json');
    const original = readFileSync(lockPath, 'utf8');
    const toPg = await runCli(ws, ['state', 'migrate', '--to', world.db.passwordRoleUrl], { env: { PGPASSWORD: PW } });
    expect(toPg.code, toPg.stderr).toBe(0);
    expect(toPg.stdout).toMatch(/^Copied the state of workspace "mig" \(lineage [0-9a-f-]{36}, serial \d+, 2 binding\(s\)\) and 1 history record\(s\) from /);
    expect(toPg.stdout + toPg.stderr).not.toContain(PW);

    const back = join(ws.dir, 'back', 'dbform.lock.json');
    const toFile = await runCli(ws, ['state', 'migrate', '--to', `file:${back}`, '--json'], { env: { PGPASSWORD: PW, DBFORM_STATE: world.db.passwordRoleUrl } });
    expect(toFile.code, toFile.stderr).toBe(0);
    expect(JSON.parse(toFile.stdout)).toMatchObject({ workspace: 'mig', resources: 2, history_records: 1, written: true });
    expect(readFileSync(join(ws.dir, 'back', 'dbform.mig.lock.json'), 'utf8')).toBe(original);
    const history = readFileSync(join(ws.dir, '.dbform', 'history.jsonl'), 'utf8').trim().split('\n');
    expect(history).toHaveLength(1);

    // No secret reaches the state or its history (the role's password was in PGPASSWORD only).
    const stored = await world.db.query<{ t: string }>("SELECT (SELECT coalesce(string_agg(record::text, ''), '') FROM dbform.history) || (SELECT coalesce(string_agg(document::text, ''), '') FROM dbform.states) AS t");
    expect(stored.rows[0]!.t).toContain('createService');
    expect(stored.rows[0]!.t).not.toContain(PW);
    // Migrating again changes nothing; the plan on PostgreSQL is empty.
    const again = await runCli(ws, ['state', 'migrate', '--to', world.db.passwordRoleUrl], { env: { PGPASSWORD: PW } });
    expect(again.stdout).toMatch(/^Already there: the state of workspace "mig"/);
    const plan = await runCli(ws, ['plan', '--detailed-exitcode'], { env: { PGPASSWORD: PW, DBFORM_STATE: world.db.passwordRoleUrl } });
    expect(plan.code, plan.stdout + plan.stderr).toBe(0);
  });

  it('refuses a target that holds another lineage, and changes nothing', async () => {
    // A block of its own: the VPC of an earlier test holds 10.20.0.0/16 (overlaps are refused).
    const a = workspace(config.replace('10.20.0.0/16', '10.22.0.0/16'), world.emulator.url, { DBFORM_WORKSPACE: 'lin' });
    const b = workspace(config.replace('10.20.0.0/16', '10.21.0.0/16').replace('net-', 'othernet-').replace('db-', 'otherdb-'), world.emulator.url, { DBFORM_WORKSPACE: 'lin' });
    const applied = await runCli(a, ['apply', '--auto-approve']);
    expect(applied.code, applied.stderr).toBe(0);
    expect((await runCli(b, ['apply', '--auto-approve'], { env: { DBFORM_STATE: world.db.url } })).code).toBe(0);
    const before = await world.db.query('SELECT lineage, serial, document FROM dbform.states WHERE workspace = $1', ['lin']);
    const r = await runCli(a, ['state', 'migrate', '--to', world.db.url]);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(
      new RegExp(`^error: postgres://postgres@127\\.0\\.0\\.1:${world.db.port}/${world.db.name} already holds another state for workspace "lin" of project proj-demo \\(lineage [0-9a-f-]{36}, not [0-9a-f-]{36}\\); nothing was copied\\. .*\\n$`),
    );
    expect((await world.db.query('SELECT lineage, serial, document FROM dbform.states WHERE workspace = $1', ['lin'])).rows).toEqual(before.rows);
  });
});

describe('bad input: one line, nothing changed', () => {
  it('a password in --state is refused before anything is read or written', async () => {
    const ws = workspace(config, world.emulator.url);
    const before = await stateCount();
    for (const cmd of [['plan'], ['apply', '--auto-approve'], ['state', 'list']]) {
      const r = await runCli(ws, [...cmd, '--state', `postgres://${PASSWORD_ROLE.user}:${PW}@127.0.0.1:${world.db.port}/${world.db.name}`]);
      expect(r.code).toBe(1);
      expect(r.stderr).toBe(
        `error: --state postgres://${PASSWORD_ROLE.user}:***@127.0.0.1:${world.db.port}/${world.db.name}: a password in a command-line flag would be visible to other users and kept in shell history; give it with PGPASSWORD or the pgpass file (or DBFORM_STATE)\n`,
      );
    }
    const migrate = await runCli(ws, ['state', 'migrate', '--to', `postgresql://u:${PW}@db.example/x`]);
    expect(migrate.stderr).toMatch(/^error: --state postgresql:\/\/u:\*\*\*@db\.example\/x: a password in a command-line flag/);
    expect(await stateCount()).toBe(before);
  });

  it('an unreachable state URL names host, port and the reason, never the password', async () => {
    const port = await closedPort();
    const ws = workspace(config, world.emulator.url, { DBFORM_STATE: `postgres://${PASSWORD_ROLE.user}:${PW}@127.0.0.1:${port}/nowhere` });
    for (const cmd of [['plan'], ['apply', '--auto-approve'], ['history']]) {
      const r = await runCli(ws, cmd);
      expect(r.code).toBe(1);
      expect(r.stderr).toBe(
        `error: cannot connect to the state database postgres://${PASSWORD_ROLE.user}@127.0.0.1:${port}/nowhere: connection refused (is PostgreSQL running and listening on that host and port?)\n`,
      );
      expect(r.stdout + r.stderr).not.toContain(PW);
    }
  });

  it('the pooler port 6432 is refused, naming where the URL came from', async () => {
    const ws = workspace(config.replace('project_id: proj-demo\n', 'project_id: proj-demo\nstate: postgres://app@db.example:6432/infra\n'), world.emulator.url);
    const r = await runCli(ws, ['plan']);
    expect(r.code).toBe(1);
    expect(r.stderr).toBe(
      `error: dbform.yaml:3:8: state: the state URL postgres://app@db.example:6432/infra uses port 6432, the connection pooler's: the state lock is a session lock and needs a direct connection (usually port 5432)\n`,
    );
  });

  it('a schema made by a newer dbform is refused and left as it is', async () => {
    const scratch = await createTestDatabase();
    try {
      const ws = workspace(config, world.emulator.url, { DBFORM_STATE: scratch.url });
      expect((await runCli(ws, ['state', 'list'])).code).toBe(0);
      await scratch.query('INSERT INTO dbform.schema_version (version) VALUES (3)');
      for (const cmd of [['plan'], ['apply', '--auto-approve'], ['workspace', 'list']]) {
        const r = await runCli(ws, cmd);
        expect(r.code).toBe(1);
        expect(r.stderr).toBe(
          `error: the state database postgres://postgres@127.0.0.1:${scratch.port}/${scratch.name} has schema dbform version 3, made by a newer dbform (this one knows up to version 2); upgrade dbform to use it\n`,
        );
      }
      expect((await scratch.query('SELECT count(*)::int AS n FROM dbform.states')).rows[0]).toEqual({ n: 0 });
    } finally {
      await scratch.drop();
    }
  });

  it('state unlock shows the holder of a file lock, and clears one whose process is gone', async () => {
    const ws = workspace(config, world.emulator.url);
    writeFileSync(`${ws.lockfile}.lock`, JSON.stringify({ pid: 999999, host: 'elsewhere', started_at: '2026-01-01T00:00:00.000Z', command: 'dbform apply' }));
    const shown = JSON.parse((await runCli(ws, ['state', 'unlock', '--json'])).stdout);
    expect(shown).toMatchObject({ alive: true, cleared: false, holder: { pid: 999999, host: 'elsewhere', command: 'dbform apply' } });
    writeFileSync(`${ws.lockfile}.lock`, JSON.stringify({ pid: 999999, host: hostname(), started_at: '2026-01-01T00:00:00.000Z', command: 'dbform apply' }));
    const cleared = await runCli(ws, ['state', 'unlock']);
    expect(cleared.stdout).toBe(
      `Cleared the lock of workspace "default" of dbform.lock.json left by pid 999999 on ${hostname()} (?, dbform apply, started 2026-01-01T00:00:00.000Z), which is no longer running.\n`,
    );
    expect(existsSync(`${ws.lockfile}.lock`)).toBe(false);
  });
});
