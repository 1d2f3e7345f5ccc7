// Vitest setup file: each test file gets a TMPDIR of its own inside the run's (tmpdir-guard.ts),
// set before the file is loaded, and fails if it leaves anything there. Naming the file is the
// point: the run-wide guard can only say that something leaked.
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll } from 'vitest';
import { removeTempDirs } from './temp-dir.js';

// Inside the run's folder, not inside the TMPDIR an earlier file of this worker set.
const dir = mkdtempSync(join(process.env.TEST_RUN_TMPDIR ?? tmpdir(), 'file-'));
process.env.TMPDIR = dir;

afterAll(() => {
  // What tempDir() made is removed by every file anyway; anything else left here is a leak.
  removeTempDirs();
  const left = readdirSync(dir).sort();
  rmSync(dir, { recursive: true, force: true });
  if (left.length > 0) {
    const shown = left.slice(0, 10).join(', ') + (left.length > 10 ? ', ...' : '');
    throw new Error(`this test file left ${left.length} entr${left.length === 1 ? 'y' : 'ies'} in its temp directory (${shown}); remove what a test makes in afterEach/afterAll (see test/support/temp-dir.ts)`);
  }
});
