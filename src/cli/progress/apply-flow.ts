// What `apply` and `destroy` share once they know how to make their plan: the apply lock,
// signals, the plan on screen, the approval, the engine with a progress view, the exit code.
// Loaded with `await import()` by the command files (it pulls in the client and the engine).
import type { ApiClient } from '../../api/client.js';
import { pollMsFromEnv, stallNoticeMsFromEnv, StatusPoller } from '../../api/waiters.js';
import { applyPlan } from '../../executor/apply-plan.js';
import { LockStore } from '../../executor/lock-store.js';
import { checkPgpassWritable } from '../../executor/pgpass.js';
import { describeMissingPasswordEnv, findMissingPasswordEnv, planCreatesServices } from '../../executor/preflight.js';
import type { ApplyResult } from '../../executor/result.js';
import { BlockedPlanError, DbformError, InterruptedError, planHasChanges, type Address, type DesiredState, type Lockfile, type Plan } from '../../model/index.js';
import { appliedRecorder, type ClaimedElsewhere } from '../../planner/index.js';
import type { StateStore } from '../../state/index.js';
import type { StateJournal } from '../../state/journal.js';
import { createStoreWriter } from '../../state/state-writer.js';
import { openApiContext, type ApiContextInput } from '../api-context.js';
import { thisProcess } from '../local-process.js';
import { credentialValues } from '../credential-guard.js';
import { confirmChanges } from './confirm.js';
import { createProgressView } from './index.js';
import { printPlan } from './plan-output.js';
import { recordApplied } from './record-applied.js';
import { describeFailure } from './summary.js';
import { throwIfInterrupted } from './signals.js';

export interface FlowIo {
  stdout: NodeJS.WriteStream;
  stderr: NodeJS.WriteStream;
  stdin: NodeJS.ReadStream;
  env: NodeJS.ProcessEnv;
}

export interface PlanInput {
  client: ApiClient;
  lock: Lockfile;
  /** IDs that other workspaces of the state bind: never adopted by this one. */
  claimedElsewhere: ReadonlyMap<string, ClaimedElsewhere>;
  signal: AbortSignal;
}

export interface FlowOptions {
  command: 'apply' | 'destroy';
  projectId: string;
  state: StateStore;
  journal: StateJournal;
  /** --lock-timeout in milliseconds (0: fail at once naming the holder). */
  lockTimeoutMs: number;
  /** sha256 of the config files, for the history record; null when the config could not be read. */
  configHash: string | null;
  api: ApiContextInput;
  color: boolean;
  autoApprove: boolean;
  /** False for a saved plan: it was reviewed when it was made. */
  confirm: boolean;
  parallelism: number;
  timeoutMs: number;
  pgpassPath: string;
  forceUnlock: boolean;
  /** apply: the config, whose managed fields the state records for drift once applied (SPEC section 11). */
  desired?: DesiredState;
  /** apply --target: only these (and what the plan did) are recorded. */
  targets?: Address[];
  /** The approval in another command's words: `sweep` runs a destroy per workspace. */
  confirmAs?: { command: string; question: string };
  /**
   * Called once the lock is held, before the state is read: what was decided before the lock
   * (sweep: that the workspace is due) is decided again here, and a throw stops the run.
   */
  underLock?: (state: StateStore) => Promise<void>;
  /** `apply --ttl`: recorded as the workspace's expiry (now + this) under the lock, before anything changes. */
  ttlMs?: number;
  makePlan(input: PlanInput): Promise<Plan>;
}

export async function runApplyFlow(o: FlowOptions, io: FlowIo): Promise<number> {
  const { runLocked } = await import('./state-run.js');
  return runLocked(o, io, (signal, run) => withApi(o, io, (client) => planAndApply(o, io, client, signal, run)));
}

async function withApi<T>(o: FlowOptions, io: FlowIo, fn: (client: ApiClient) => Promise<T>): Promise<T> {
  const context = await openApiContext(o.api, io.env, io.stderr);
  try {
    return await fn(context.client);
  } finally {
    await context.close().catch(() => undefined);
  }
}

/** What the state run (state-run.ts) gives the flow, and learns back from it. */
export interface RunState {
  /** The state as read under the lock (after pushing the journal). */
  lock: Lockfile;
  claimedElsewhere: ReadonlyMap<string, ClaimedElsewhere>;
  /** Aborted when the state can no longer be written: nothing new may start. */
  stateLost: AbortController;
  /** Reports that the state can no longer be written (with why). */
  onStateError: (err: Error) => void;
  /** True once a write went to the local journal instead of the state. */
  journaled?: boolean;
  result?: ApplyResult;
  /** Serial of the last revision written by this run. */
  serialAfter?: number;
}

async function planAndApply(o: FlowOptions, io: FlowIo, client: ApiClient, signal: AbortSignal, run: RunState): Promise<number> {
  const plan = { ...(await o.makePlan({ client, lock: run.lock, claimedElsewhere: run.claimedElsewhere, signal })), where: { workspace: o.state.workspace, state: o.state.location } };
  throwIfInterrupted(signal);
  printPlan(plan, io.stdout, o.color, await credentialValues(o.api.apiKeyFile, io.env));
  // Settling alone changes nothing, so it needs no approval; but success waits for it (SPEC section 5).
  const changes = planHasChanges(plan);
  if (!changes && plan.settling.length === 0) {
    // Nothing to do, but a state from before drift was recorded (or from another config) records it now.
    if (o.desired && !signal.aborted) await withLockStore(o, run, (store) => recordApplied(store, o.desired!, plan, undefined, o.targets ?? []));
    return 0;
  }
  const blocked = plan.actions.filter((a) => a.blocked !== undefined);
  if (blocked.length > 0) {
    throw new BlockedPlanError(
      `the plan is blocked; nothing was changed:\n${blocked.map((a) => `  ${a.address} ${a.op}: ${a.blocked}`).join('\n')}`,
    );
  }
  const missing = findMissingPasswordEnv(plan, io.env);
  if (missing.length > 0) {
    throw new DbformError(`nothing was changed: the plan sets passwords that are not available:\n  ${describeMissingPasswordEnv(missing)}`);
  }
  if (planCreatesServices(plan)) {
    const problem = await checkPgpassWritable(o.pgpassPath);
    if (problem !== undefined) {
      throw new DbformError(
        `nothing was changed: the initial password of each service this apply creates is saved only to the pgpass file ${o.pgpassPath}, ` +
          `which cannot be written (${problem}). Make it writable, or choose another file with --pgpass PATH or PGPASSFILE.`,
      );
    }
  }
  if (o.confirm && changes) {
    const question = o.confirmAs?.question ?? (o.command === 'destroy' ? 'Destroy all the resources above?' : 'Apply these changes?');
    const command = o.confirmAs?.command ?? o.command;
    const yes = await confirmChanges({ input: io.stdin, output: io.stdout, stderr: io.stderr, autoApprove: o.autoApprove, signal, question, command });
    if (!yes) {
      io.stdout.write(`${o.command === 'destroy' ? 'Destroy' : 'Apply'} cancelled; nothing was changed.\n`);
      return 1;
    }
  }
  throwIfInterrupted(signal);
  run.result = await execute(o, io, client, plan, run, signal);
  return exitCodeOf(o.command, run.result, io.stdout.isTTY === true);
}

/** The lock store of a run: the executor's view of the state, written through the state port. */
function newLockStore(o: FlowOptions, run: RunState): LockStore {
  const writer = createStoreWriter({
    store: o.state,
    journal: o.journal,
    base: run.lock,
    onUnavailable: (err) => {
      run.journaled = true;
      run.onStateError(err);
    },
    onClaimRefused: (err) => run.onStateError(err),
  });
  return new LockStore(o.state.location, run.lock, writer.write);
}

async function withLockStore(o: FlowOptions, run: RunState, fn: (store: LockStore) => Promise<void>): Promise<void> {
  const store = newLockStore(o, run);
  try {
    await fn(store);
    await store.flush();
  } finally {
    run.serialAfter = store.snapshot().serial ?? 0;
  }
}

async function execute(o: FlowOptions, io: FlowIo, client: ApiClient, plan: Plan, run: RunState, signal: AbortSignal): Promise<ApplyResult> {
  const pollMs = pollMsFromEnv(io.env);
  const poller = new StatusPoller(client, { projectId: o.projectId, pollMs, defaultTimeoutMs: o.timeoutMs, stallNoticeMs: stallNoticeMsFromEnv(io.env) });
  const view = createProgressView(io.stdout, { color: o.color, verb: o.command === 'destroy' ? 'Destroy' : 'Apply', stderr: io.stderr });
  const lockStore = newLockStore(o, run);
  try {
    const result = await applyPlan(plan, {
      api: client,
      poller,
      lockStore,
      reporter: view,
      parallelism: o.parallelism,
      timeoutMs: o.timeoutMs,
      signal,
      pgpass: { path: o.pgpassPath, owner: thisProcess() },
      env: io.env,
      pollMs,
      ...(o.desired ? { appliedOf: appliedRecorder(o.desired) } : {}),
    });
    if (o.desired && !result.interrupted && !run.stateLost.signal.aborted) {
      await recordApplied(lockStore, o.desired, plan, result, o.targets ?? []);
      await lockStore.flush();
    }
    return result;
  } finally {
    run.serialAfter = lockStore.snapshot().serial ?? 0;
    view.close();
    poller.close();
  }
}

/**
 * The summary is already printed; the error says in one message what went wrong. On a terminal
 * the summary's Failed: list is on screen just above, so the error does not repeat it; in a log
 * (stdout redirected) stderr may be read on its own, so it names each failure once more.
 */
export function exitCodeOf(command: string, result: ApplyResult, summaryOnScreen = false): number {
  if (result.interrupted) throw new InterruptedError(`${command} interrupted; every created ID is in the lockfile. Run the same command again to resume.`);
  if (result.blocked.length > 0) throw new BlockedPlanError(`the plan is blocked; nothing was changed`);
  if (result.failed.length > 0) {
    const skipped = result.skipped.length > 0 ? ` (${result.skipped.length} dependent action(s) skipped)` : '';
    if (summaryOnScreen) throw new DbformError(`${command} failed: ${result.failed.length} action(s) failed, listed under Failed: above${skipped}`);
    const lines = result.failed.map((f) => `  ${describeFailure(f)}`);
    throw new DbformError(`${command} failed: ${result.failed.length} action(s) failed${skipped}:\n${lines.join('\n')}`);
  }
  return 0;
}
