// A test file's own database on the run's PostgreSQL and its own in-process emulator (time scale
// 0.01), made before its tests and removed after them with the temp folders the file made.
import { afterAll, beforeAll } from 'vitest';
import { startEmulator, type EmulatorHandle } from '../../src/emulator/index.js';
import { createTestDatabase, type TestDatabase } from './pg.js';
import { removeTempDirs } from './temp-dir.js';

export interface DatabaseAndEmulator {
  db: TestDatabase;
  emulator: EmulatorHandle;
}

/** Call at the top of a test file; the fields are set once its beforeAll ran. */
export function useDatabaseAndEmulator(): DatabaseAndEmulator {
  const world = {} as DatabaseAndEmulator;
  beforeAll(async () => {
    world.db = await createTestDatabase();
    world.emulator = await startEmulator({ timeScale: 0.01 });
  });
  afterAll(async () => {
    await world.emulator?.close();
    await world.db?.drop();
    removeTempDirs();
  });
  return world;
}
