import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // A fresh TMPDIR per run, which must be empty again at the end (test/support/tmpdir-guard.ts).
    globalSetup: ['test/support/tmpdir-guard.ts'],
    // ...and one per test file inside it, which the file must leave empty (tmpdir-per-file.ts).
    setupFiles: ['test/support/tmpdir-per-file.ts'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // A worker runs its files one after another in one process, with one module cache: a fresh
    // process and module graph per file cost about a quarter of the suite's CPU (168 -> 128 s).
    // So a test file must leave no global state behind (env, listeners, fake timers, servers):
    // restore what it changes in afterEach/afterAll, as the temp-dir guard already demands of files.
    isolate: false,
    // Tests run against real emulators on loopback ports; keep CPU use bounded on 2-core machines.
    maxWorkers: 2,
  },
});
