import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // One real PostgreSQL for the run (the state store's tests); each file makes its own database.
    globalSetup: ['test/support/pg-global-setup.ts'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // Tests run against real emulators on loopback ports; keep CPU use bounded on 2-core machines.
    maxWorkers: 2,
  },
});
