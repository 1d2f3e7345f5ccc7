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
  'test/chaos/sigkill.test.ts',
  'test/e2e/convergence/convergence.test.ts',
];

export default defineConfig({
  test: {
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // Tests run against real emulators on loopback ports; keep CPU use bounded on 2-core machines.
    maxWorkers: 2,
    projects: [
      { extends: true, test: { name: 'seed', include: ['test/**/*.test.ts'] } },
      { extends: true, test: { name: 'tiger', include: TIGER_SCENARIOS, env: { DBFORM_TEST_DIALECT: 'tiger' } } },
    ],
  },
});
