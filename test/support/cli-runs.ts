// What an in-process run of the CLI (test/support/cli.ts) must not do, checked for every test
// file (a setup file, vitest.config.ts):
// - write after it was over: a real process would still have printed it (it waits for its pending
//   work, or a second after an error: src/cli/errors.ts), so the run did not answer as the spawned
//   CLI would; the test that sees such output fails;
// - outlive its test file (a test that timed out while a run waited): its timers and requests
//   would go on in this worker, into the next file's fake timers or servers; the file fails,
//   naming the command.
import { afterAll, afterEach, expect } from 'vitest';

interface Registry {
  late: string[];
  running: Set<string>;
}

// On the process, not in this module: vitest runs a setup file again for each test file, while
// test/support/cli.ts stays loaded (isolate: false), so both must reach the same lists.
const KEY = Symbol.for('dbform.test.cli-runs');
const registry = ((globalThis as unknown as Record<symbol, Registry | undefined>)[KEY] ??= { late: [], running: new Set() });

/** Notes text that the run `command` wrote after it was over. */
export function noteLateOutput(command: string, text: string): void {
  registry.late.push(`${command}: ${JSON.stringify(text)}`);
}

/** Marks `command` as running until the returned function is called. */
export function noteRunning(command: string): () => void {
  const entry = `${command} (started ${new Date().toISOString()})`;
  registry.running.add(entry);
  return () => void registry.running.delete(entry);
}

afterEach(() => {
  // A run that keeps printing after it was over needs a real process: runCli(..., { spawn: true }).
  expect(registry.late.splice(0), 'output written by an in-process dbform run after it was over').toEqual([]);
});

afterAll(() => {
  const running = [...registry.running];
  registry.running.clear();
  expect(running, 'in-process dbform runs still running when their test file ended').toEqual([]);
});
