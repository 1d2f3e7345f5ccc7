// Per-test-file databases on the run's shared test server, started on first use (pg-shared.ts).
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { sharedServerUrl } from './pg-shared.js';
import { PASSWORD_ROLE } from './postgres-server.js';

export { PASSWORD_ROLE };

export interface TestDatabase {
  /** Superuser URL of this database. */
  url: string;
  name: string;
  host: string;
  port: number;
  /** URL of the password-only role (no password in it: give it through PGPASSWORD). */
  passwordRoleUrl: string;
  /** Runs SQL as the superuser on this database. */
  query<R extends pg.QueryResultRow = pg.QueryResultRow>(sql: string, params?: unknown[]): Promise<pg.QueryResult<R>>;
  drop(): Promise<void>;
}

/** Superuser URL of the run's server (trust auth on loopback); starts it if no file did yet. */
export function adminUrl(): Promise<string> {
  return sharedServerUrl();
}

/** Creates an empty database owned by the password role (so both roles can create schema dbform). */
export async function createTestDatabase(): Promise<TestDatabase> {
  const admin = new URL(await adminUrl());
  const name = `dbform_t_${randomBytes(6).toString('hex')}`;
  await withClient(admin.href, (c) => c.query(`CREATE DATABASE ${name} OWNER ${PASSWORD_ROLE.user}`));
  const url = new URL(admin.href);
  url.pathname = `/${name}`;
  const pw = new URL(url.href);
  pw.username = PASSWORD_ROLE.user;
  return {
    url: url.href,
    name,
    host: url.hostname,
    port: Number(url.port),
    passwordRoleUrl: pw.href,
    query: (sql, params) => withClient(url.href, (c) => c.query(sql, params)),
    drop: () => withClient(admin.href, (c) => c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)).then(() => undefined),
  };
}

async function withClient<T>(url: string, fn: (c: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}
