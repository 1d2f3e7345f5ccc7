// Temporary folders that a test file removes when it is done, failed tests included: every file
// that makes them calls `afterAll(removeTempDirs)` (or afterEach). vitest.config.ts's global setup
// fails the run when anything is left in the run's TMPDIR.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const made: string[] = [];

/** A fresh folder in the OS temp dir, removed by the next `removeTempDirs()`. */
export function tempDir(prefix = 'dbform-'): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  made.push(dir);
  return dir;
}

/** Removes every folder `tempDir` made in this test file so far. */
export function removeTempDirs(): void {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
}
