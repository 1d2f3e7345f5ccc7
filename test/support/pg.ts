// Per-test-file databases on the shared test server (see pg-global-setup.ts).
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { inject } from 'vitest';
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

export function adminUrl(): string {
  return inject('pgAdminUrl');
}

/** Creates an empty database owned by the password role (so both roles can create schema dbform). */
export async function createTestDatabase(): Promise<TestDatabase> {
  const admin = new URL(adminUrl());
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
