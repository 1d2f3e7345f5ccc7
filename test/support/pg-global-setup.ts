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

let server: PostgresServer | undefined;

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  server = await startPostgres();
  project.provide('pgAdminUrl', server.url);
  return async () => {
    await server?.destroy();
    server = undefined;
  };
}
