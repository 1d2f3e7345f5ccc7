// Vitest global setup: the run gets a TMPDIR of its own, and fails if anything is left in it at
// the end. Every test removes what it makes, failed ones included (test/support/temp-dir.ts), and
// spawned CLIs and emulators write only inside their test's folder.
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

// Vitest runs a root globalSetup once per project (seed, tiger), possibly from separate module
// instances: the first makes the folder, and the last to finish checks and removes it.
interface Shared {
  users: number;
  finish: () => void;
}
const KEY = Symbol.for('dbform.test.tmpdir');
const registry = globalThis as unknown as Record<symbol, Shared | undefined>;

export default function setup(): () => void {
  const shared = (registry[KEY] ??= { users: 0, finish: guardRun() });
  shared.users++;
  return () => {
    if (--shared.users > 0) return;
    registry[KEY] = undefined;
    shared.finish();
  };
}

function guardRun(): () => void {
  const previous = process.env.TMPDIR;
  const system = tmpdir();
  const dir = mkdtempSync(join(system, 'dbform-test-run-'));
  // For what must live outside the run's private folder (the test PostgreSQL server's data).
  process.env.DBFORM_TEST_SYSTEM_TMPDIR = system;
  // Read by os.tmpdir() in the workers, which inherit this process's environment.
  process.env.TMPDIR = dir;
  process.env.TEST_RUN_TMPDIR = dir;
  return () => {
    const left = readdirSync(dir).sort();
    rmSync(dir, { recursive: true, force: true });
    delete process.env.TEST_RUN_TMPDIR;
    delete process.env.DBFORM_TEST_SYSTEM_TMPDIR;
    if (previous === undefined) delete process.env.TMPDIR;
    else process.env.TMPDIR = previous;
    if (left.length > 0) {
      process.exitCode = 1;
      const shown = left.slice(0, 10).join(', ') + (left.length > 10 ? ', ...' : '');
      throw new Error(`the tests left ${left.length} entr${left.length === 1 ? 'y' : 'ies'} in their temp directory (${shown}); each test must remove what it makes (see test/support/temp-dir.ts)`);
    }
  };
}
