// vitest globalSetup: names the folder of the run's one PostgreSQL server, which the first test
// file that needs a database starts (pg-shared.ts), and stops and removes it at the end of the run.
// A run of files that need no database starts no server.
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { removeServerDir, SERVER_DIR_PREFIX, serverRoot } from './postgres-server.js';

// Vitest runs a root globalSetup once per project (seed, tiger), possibly from separate module
// instances: the folder and its users are counted on the process, so both projects share one
// server, removed after the last project is done.
interface Shared {
  dir: string;
  users: number;
}
const KEY = Symbol.for('dbform.test.postgres');
const registry = globalThis as unknown as Record<symbol, Shared | undefined>;

export default function setup(project: TestProject): () => Promise<void> {
  const shared = (registry[KEY] ??= { dir: join(serverRoot(), `${SERVER_DIR_PREFIX}${process.pid}-${randomBytes(4).toString('hex')}`), users: 0 });
  shared.users++;
  project.provide('pgServerDir', shared.dir);
  project.provide('pgOwnerPid', process.pid);
  return async () => {
    if (--shared.users > 0) return;
    registry[KEY] = undefined;
    await removeServerDir(shared.dir);
  };
}
