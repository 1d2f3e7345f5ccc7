import { defineConfig } from 'vitest/config';

// The end-to-end scenarios that also run against the emulator's `tiger` dialect (SPEC section 12):
// the same files, whose harnesses read DBFORM_TEST_DIALECT (test/support/dialect.ts). The dialect
// changes authentication (Basic), the time-series type (TIMESCALEDB), peering statuses and their
// PENDING -> APPROVED -> ACTIVE timeline, VPCs CREATING before CREATED, 202 without a body on
// deletes, a pooler object without an endpoint while off, and services lists without replica sets
// (one replicaSets read per managed service), and the dialect's SPEC section 15 behaviours at their
// defaults (a 30 s first backup, scaled; deleted peerings DELETING a while; attached services on a
// private host). What each tiger run proves against those answers:
//   plan            the reads (2 + V + one per managed service), a fresh plan's order, --detailed-
//                   exitcode after an apply, saved-plan JSON, --emulator in the tiger dialect
//   cli-apply       a wide apply, examples/full.yaml to an empty next plan, a failed (INVALID) peering
//   engine          every op's request and wait, adoption after lost responses, 202 deletes, resume
//   engine-waits    batched waits, --parallelism, timeouts and aborts on tiger's service bodies
//   field-changes   each field change plans exactly its op and converges (pooler, VPC, sizes...)
//   destroy         deletes in reverse order (202, peerings deleting), from the lockfile alone
//   round-trip, apply-export   export of tiger answers loads, plans to zero, exports identically
//   import          lookups by ID across kinds, replica sets found through their service's list
//   output          endpoints read in 2 + V (+ replicaSets) requests, pooler_* dropped while off
//   drift           drift read from tiger answers, on a file and on a PostgreSQL state
//   sigkill         a sample of 8 SIGKILL runs resumes against tiger answers
//   convergence     a sample of 40 seeds (every op, edit and drift kind of the 120) converges
//   restore         a PITR fork of a service with a replica set and a pooler, its saved plan, a kill
//                   after the fork was sent: against tiger's services (renamed in place where the
//                   client knows the API renames) and its separate replica set lists
// Tests in those files whose requests and answers no dialect changes (refusals before any request
// or change, flags, rendering, config errors) are `itDialectBlind`: defined in the seed run only.
// `logs` is seed only: the logs route answers alike in both dialects, and Basic authentication is
// proved by every file above. Tests of the CLI's own behaviour, of the seed emulator itself and of
// the client's retries under injected faults (sigkill-faults: dialect-blind, and the suite's
// heaviest file) run once, in `seed`; the contract test runs both dialects itself.
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
  'test/e2e/output/output.test.ts',
  'test/e2e/plan/drift.test.ts',
  'test/chaos/sigkill.test.ts',
  'test/e2e/convergence/convergence.test.ts',
  'test/e2e/apply/restore.test.ts',
];

export default defineConfig({
  test: {
    // A fresh TMPDIR per run, which must be empty again at the end (test/support/tmpdir-guard.ts),
    // and one real PostgreSQL for the run (the state store's tests; each file makes its own database).
    globalSetup: ['test/support/tmpdir-guard.ts', 'test/support/pg-global-setup.ts'],
    // ...and one TMPDIR per test file inside it, which the file must leave empty (tmpdir-per-file.ts);
    // an in-process CLI run must not write after it is over, nor outlive its file (cli-runs.ts).
    setupFiles: ['test/support/tmpdir-per-file.ts', 'test/support/cli-runs.ts'],
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
