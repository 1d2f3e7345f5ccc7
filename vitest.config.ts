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
    // Tests run against real emulators on loopback ports; keep CPU use bounded on 2-core machines.
    maxWorkers: 2,
  },
});
