import { defineConfig } from 'vitest/config';

// The end-to-end scenarios that also run against the emulator's `tiger` dialect (SPEC section 12):
// the same files, whose harnesses read DBFORM_TEST_DIALECT (test/support/dialect.ts). They are the
// ones whose requests or answers the dialect changes: plan reads, apply with its waits, destroy,
// export round trip, import, logs, the convergence property and the SIGKILL chaos runs (a smaller
// sample). Tests of the CLI's
// own behaviour (rendering, flags, config errors), of the seed emulator itself and of the client's
// retries under injected faults (sigkill-faults: dialect-blind, and the suite's heaviest file) run
// once, in `seed`; the contract test runs both dialects itself.
const TIGER_SCENARIOS = [
  'test/e2e/plan/plan.test.ts',
  'test/e2e/apply/cli-apply.test.ts',
  'test/e2e/apply/engine.test.ts',
  'test/e2e/apply/engine-waits.test.ts',
  'test/e2e/apply/field-changes.test.ts',
  'test/e2e/apply/destroy.test.ts',
  'test/e2e/export/round-trip.test.ts',
  'test/e2e/export/apply-export.test.ts',
  'test/e2e/export/import.test.ts',
  'test/e2e/cli-projects-logs/logs.test.ts',
  'test/e2e/output/output.test.ts',
  'test/e2e/plan/drift.test.ts',
  'test/chaos/sigkill.test.ts',
  'test/e2e/convergence/convergence.test.ts',
];

export default defineConfig({
  test: {
    // A fresh TMPDIR per run, which must be empty again at the end (test/support/tmpdir-guard.ts),
    // and one real PostgreSQL for the run (the state store's tests; each file makes its own database).
    globalSetup: ['test/support/tmpdir-guard.ts', 'test/support/pg-global-setup.ts'],
    // ...and one TMPDIR per test file inside it, which the file must leave empty (tmpdir-per-file.ts).
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
    projects: [
      { extends: true, test: { name: 'seed', include: ['test/**/*.test.ts'] } },
      { extends: true, test: { name: 'tiger', include: TIGER_SCENARIOS, env: { DBFORM_TEST_DIALECT: 'tiger' } } },
    ],
  },
});
