// vitest globalSetup: one PostgreSQL server for the whole run; each test file makes its own
// database on it (test/support/pg.ts), so files stay independent and the server starts once.
import type { TestProject } from 'vitest/node';
import { startPostgres, type PostgresServer } from './postgres-server.js';

declare module 'vitest' {
  export interface ProvidedContext {
    /** Superuser URL of the shared test server (trust auth on loopback). */
    pgAdminUrl: string;
  }
}

// Vitest runs a root globalSetup once per project (seed, tiger), possibly from separate module
// instances: the server and its users are counted on the process, so it starts once and stops
// after the last project is done.
interface Shared {
  server: Promise<PostgresServer>;
  users: number;
}
const KEY = Symbol.for('dbform.test.postgres');
const registry = globalThis as unknown as Record<symbol, Shared | undefined>;

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const shared = (registry[KEY] ??= { server: startPostgres(), users: 0 });
  shared.users++;
  const server = await shared.server;
  project.provide('pgAdminUrl', server.url);
  return async () => {
    if (--shared.users > 0) return;
    registry[KEY] = undefined;
    await server.destroy();
  };
}
