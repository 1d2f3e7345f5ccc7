// Connecting to the state database: where the password may come from, and failures that name
// host, port and the reason, never the password.
import { chmodSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PgStateStore, StateUnavailableError } from '../../../src/state/index.js';
import { createTestDatabase, PASSWORD_ROLE, type TestDatabase } from '../../support/pg.js';
import { tempDir } from '../../support/temp-dir.js';

let db: TestDatabase;
let dir: string;
const PW = PASSWORD_ROLE.password;

beforeAll(async () => {
  db = await createTestDatabase();
  dir = tempDir('dbform-pgconn-');
});
afterAll(async () => {
  await db.drop();
  rmSync(dir, { recursive: true, force: true });
});

async function readWith(url: string, env: Record<string, string | undefined> = {}): Promise<unknown> {
  const s = new PgStateStore({ url, projectId: 'p', workspace: 'default', env });
  try {
    return await s.read();
  } catch (err) {
    return err;
  } finally {
    await s.close();
  }
}

async function closedPort(): Promise<number> {
  return new Promise((resolve) => {
    const srv = createServer().listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as { port: number };
      srv.close(() => resolve(port));
    });
  });
}

function withPassword(url: string, password: string): string {
  const u = new URL(url);
  u.password = password;
  return u.href;
}

describe('state database connections', () => {
  it('the password may come from the URL, PGPASSWORD or the pgpass file', async () => {
    expect(await readWith(withPassword(db.passwordRoleUrl, PW))).toMatchObject({ lockfile: { resources: {} } });
    expect(await readWith(db.passwordRoleUrl, { PGPASSWORD: PW })).toMatchObject({ lockfile: { resources: {} } });
    const pgpass = join(dir, 'pgpass');
    writeFileSync(pgpass, `# comment\nother:5432:*:*:nope\n127.0.0.1:${db.port}:*:${PASSWORD_ROLE.user}:${PW}\n`);
    chmodSync(pgpass, 0o600);
    expect(await readWith(db.passwordRoleUrl, { PGPASSFILE: pgpass })).toMatchObject({ lockfile: { resources: {} } });
  });

  it('an unreachable URL names host, port and the reason, never the password', async () => {
    const port = await closedPort();
    const url = `postgres://${PASSWORD_ROLE.user}:${PW}@127.0.0.1:${port}/${db.name}`;
    const err = await readWith(url);
    expect(err).toBeInstanceOf(StateUnavailableError);
    expect((err as Error).message).toBe(
      `cannot connect to the state database postgres://${PASSWORD_ROLE.user}@127.0.0.1:${port}/${db.name}: connection refused (is PostgreSQL running and listening on that host and port?)`,
    );
    expect(JSON.stringify(err) + String((err as Error).stack)).not.toContain(PW);
  });

  it('a wrong password: the server reason with its SQLSTATE, and no password', async () => {
    const wrong = 'wrong-pw-Xy9';
    const err = await readWith(withPassword(db.passwordRoleUrl, wrong));
    expect((err as Error).message).toBe(
      `cannot connect to the state database postgres://${PASSWORD_ROLE.user}@127.0.0.1:${db.port}/${db.name}: password authentication failed for user "${PASSWORD_ROLE.user}" (SQLSTATE 28P01)`,
    );
    expect((err as Error).message).not.toContain(wrong);
  });

  it('no password anywhere: says where to give one', async () => {
    const err = await readWith(db.passwordRoleUrl, { PGPASSFILE: join(dir, 'missing') });
    expect((err as Error).message).toMatch(/: the server asks for a password and none was given: set PGPASSWORD or add the password to the pgpass file/);
  });

  it('a database that does not exist', async () => {
    const u = new URL(db.url);
    u.pathname = '/no_such_db';
    expect(((await readWith(u.href)) as Error).message).toMatch(/postgres:\/\/postgres@127\.0\.0\.1:\d+\/no_such_db: database "no_such_db" does not exist \(SQLSTATE 3D000\)$/);
  });

  it('refuses the pooler port 6432 before connecting', () => {
    expect(() => new PgStateStore({ url: `postgres://u:${PW}@db.example:6432/app`, projectId: 'p', workspace: 'default', env: {} })).toThrow(
      'the state URL postgres://u@db.example:6432/app uses port 6432, the connection pooler\'s: the state lock is a session lock and needs a direct connection (usually port 5432)',
    );
    expect(() => new PgStateStore({ url: 'postgres://u@db.example/app', projectId: 'p', workspace: 'default', env: { PGPORT: '6432' } })).toThrow(/uses port 6432/);
  });
});
