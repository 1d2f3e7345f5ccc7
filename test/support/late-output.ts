// Output an in-process run of the CLI (test/support/cli.ts) wrote after it was over. A real
// process would still have printed it: it waits for its pending work, or a second after an error
// (src/cli/errors.ts). Such a run did not answer as the spawned CLI would, so the test that sees
// any fails (registered as a setup file in vitest.config.ts).
import { afterEach, expect } from 'vitest';

// On the process, not in this module: vitest runs a setup file again for each test file, while
// test/support/cli.ts stays loaded (isolate: false), so both must reach the same list.
const KEY = Symbol.for('dbform.test.late-output');
const registry = globalThis as unknown as Record<symbol, string[] | undefined>;
const late = (registry[KEY] ??= []);

/** Notes text that the run `command` wrote after it was over. */
export function noteLateOutput(command: string, text: string): void {
  late.push(`${command}: ${JSON.stringify(text)}`);
}

afterEach(() => {
  // A run that keeps printing after it was over needs a real process: runCli(..., { spawn: true }).
  expect(late.splice(0), 'output written by an in-process dbform run after it was over').toEqual([]);
});
