// What apply and destroy (and sweep, per workspace) share once they know how to make their plan:
// the state's lock (locked-run.ts), the plan on screen, the refusals, the approval naming the
// workspace and state, the engine with a progress view, the summary, the exit status.
import { pollMsFromEnv, stallNoticeMsFromEnv, StatusPoller } from '../api/waiters.js';
import { applyPlan } from '../executor/apply-plan.js';
import { checkPgpassWritable } from '../executor/pgpass.js';
import { describeMissingPasswordEnv, findMissingPasswordEnv, planCreatesServices } from '../executor/preflight.js';
import type { ApplyResult } from '../executor/result.js';
import { BlockedPlanError, DbformError, InterruptedError, planHasChanges, type Address, type DesiredState, type Lockfile, type Plan, type PlanWhere } from '../model/index.js';
import { appliedRecorder, type ClaimedElsewhere } from '../planner/index.js';
import { createStoreWriter, WorkingState, type StateStore } from '../state/index.js';
import type { StateJournal } from '../state/journal.js';
import type { ApiSession, RunHost } from './host.js';
import type { PlanReader } from './pipeline.js';
import { recordApplied } from './record-applied.js';
import { describeFailure } from './run-record.js';
import type { RunRecord } from './run-record.js';

/** What the plan of a run is made from, once the lock is held and the state read. */
export interface PlanInput {
  client: PlanReader;
  lock: Lockfile;
  /** IDs that other workspaces of the state bind: never adopted by this one. */
  claimedElsewhere: ReadonlyMap<string, ClaimedElsewhere>;
  where: PlanWhere;
  signal: AbortSignal;
}

/** How a run paces and guards its actions (apply, destroy and sweep's flags). */
export interface RunSettings {
  autoApprove: boolean;
  parallelism: number;
  timeoutMs: number;
  pgpassPath: string;
  /** --lock-timeout in milliseconds (0: fail at once naming the holder), and as given (for the wait note). */
  lockTimeoutMs: number;
  lockTimeout: string;
  forceUnlock: boolean;
}

export interface FlowOptions {
  command: 'apply' | 'destroy';
  projectId: string;
  state: StateStore;
  journal: StateJournal;
  lockTimeoutMs: number;
  /** sha256 of the config files, for the history record; null when the config could not be read. */
  configHash: string | null;
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
  confirmAs?: { command: string; question: (where: PlanWhere) => string };
  /**
   * Called once the lock is held, before the state is read: what was decided before the lock
   * (sweep: that the workspace is due) is decided again here, and a throw stops the run.
   */
  underLock?: (state: StateStore) => Promise<void>;
  /** `apply --ttl`: recorded as the workspace's expiry (now + this) under the lock, before anything changes. */
  ttlMs?: number;
  /** Filled as the run goes: what `--json` reports when it ends. */
  record?: RunRecord;
  makePlan(input: PlanInput): Promise<Plan>;
}

export async function runPlanFlow(o: FlowOptions, host: RunHost): Promise<number> {
  const { runLocked } = await import('./locked-run.js');
  return runLocked(o, host, (signal, run) => withApi(host, (api) => planAndApply(o, host, api, signal, run)));
}

async function withApi<T>(host: RunHost, fn: (api: ApiSession) => Promise<T>): Promise<T> {
  const api = await host.connect();
  try {
    return await fn(api);
  } finally {
    await api.close().catch(() => undefined);
  }
}

/** What the state run (locked-run.ts) gives the flow, and learns back from it. */
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

/** `Apply these changes to workspace "pr-1" (state: dbform.pr-1.lock.json)?` */
function approvalQuestion(o: FlowOptions, where: PlanWhere): string {
  if (o.confirmAs) return o.confirmAs.question(where);
  const state = `workspace "${where.workspace}" (state: ${where.state})`;
  return o.command === 'destroy' ? `Destroy all the resources above in ${state}?` : `Apply these changes to ${state}?`;
}

async function planAndApply(o: FlowOptions, host: RunHost, api: ApiSession, signal: AbortSignal, run: RunState): Promise<number> {
  const where = { workspace: o.state.workspace, state: o.state.location };
  // A saved plan names the state it was made from; the one it runs against is this one.
  const plan = { ...(await o.makePlan({ client: api.client, lock: run.lock, claimedElsewhere: run.claimedElsewhere, where, signal })), where };
  if (o.record) o.record.plan = plan;
  throwIfInterrupted(signal);
  host.showPlan(plan);
  // Settling alone changes nothing, so it needs no approval; but success waits for it (SPEC section 5).
  const changes = planHasChanges(plan);
  if (!changes && plan.settling.length === 0) {
    // Nothing to do, but a state from before drift was recorded (or from another config) records it now.
    if (o.desired && !signal.aborted) await withWorkingState(o, run, (state) => recordApplied(state, o.desired!, plan, undefined, o.targets ?? []));
    return 0;
  }
  refuseToStart(host, plan);
  if (planCreatesServices(plan)) await requireWritablePgpass(o.pgpassPath);
  if (o.confirm && changes) {
    const yes = o.autoApprove || (await host.confirm({ question: approvalQuestion(o, where), command: o.confirmAs?.command ?? o.command, signal }));
    if (!yes) {
      if (o.record) o.record.cancelled = true;
      host.say(`${o.command === 'destroy' ? 'Destroy' : 'Apply'} cancelled; nothing was changed.`);
      return 1;
    }
  }
  throwIfInterrupted(signal);
  run.result = await execute(o, host, api, plan, run, signal);
  if (o.record) o.record.result = run.result;
  return exitCodeOf(o.command, run.result, host.summaryOnScreen);
}

/** A blocked plan, or passwords that cannot be read here: nothing is sent. */
function refuseToStart(host: RunHost, plan: Plan): void {
  const blocked = plan.actions.filter((a) => a.blocked !== undefined);
  if (blocked.length > 0) {
    throw new BlockedPlanError(
      `the plan is blocked; nothing was changed:\n${blocked.map((a) => `  ${a.address} ${a.op}: ${a.blocked}`).join('\n')}`,
    );
  }
  const missing = findMissingPasswordEnv(plan, host.env);
  if (missing.length > 0) {
    throw new DbformError(`nothing was changed: the plan sets passwords that are not available:\n  ${describeMissingPasswordEnv(missing)}`);
  }
}

async function requireWritablePgpass(path: string): Promise<void> {
  const problem = await checkPgpassWritable(path);
  if (problem === undefined) return;
  throw new DbformError(
    `nothing was changed: the initial password of each service this apply creates is saved only to the pgpass file ${path}, ` +
      `which cannot be written (${problem}). Make it writable, or choose another file with --pgpass PATH or PGPASSFILE.`,
  );
}

/** The working state of a run: the executor's view of the state, written through the state port. */
function newWorkingState(o: FlowOptions, run: RunState): WorkingState {
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
  return new WorkingState(o.state.location, run.lock, writer.write);
}

async function withWorkingState(o: FlowOptions, run: RunState, fn: (state: WorkingState) => Promise<void>): Promise<void> {
  const state = newWorkingState(o, run);
  try {
    await fn(state);
    await state.flush();
  } finally {
    run.serialAfter = state.snapshot().serial ?? 0;
  }
}

async function execute(o: FlowOptions, host: RunHost, api: ApiSession, plan: Plan, run: RunState, signal: AbortSignal): Promise<ApplyResult> {
  const pollMs = pollMsFromEnv(host.env);
  const poller = new StatusPoller(api.client, { projectId: o.projectId, pollMs, defaultTimeoutMs: o.timeoutMs, stallNoticeMs: stallNoticeMsFromEnv(host.env) });
  const view = host.progress({ verb: o.command === 'destroy' ? 'Destroy' : 'Apply', where: plan.where ?? { workspace: o.state.workspace, state: o.state.location } });
  const working = newWorkingState(o, run);
  try {
    const result = await applyPlan(plan, {
      api: api.client,
      poller,
      bindings: working,
      reporter: view,
      parallelism: o.parallelism,
      timeoutMs: o.timeoutMs,
      signal,
      pgpass: { path: o.pgpassPath, owner: host.owner },
      env: host.env,
      pollMs,
      ...(o.desired ? { appliedOf: appliedRecorder(o.desired) } : {}),
    });
    if (o.desired && !result.interrupted && !run.stateLost.signal.aborted) {
      await recordApplied(working, o.desired, plan, result, o.targets ?? []);
      await working.flush();
    }
    return result;
  } finally {
    run.serialAfter = working.snapshot().serial ?? 0;
    view.close();
    poller.close();
  }
}

/** Throws the abort reason when the signal fired: checkpoints between the stages of a command. */
export function throwIfInterrupted(signal: AbortSignal): void {
  if (signal.aborted) throw signal.reason instanceof Error ? signal.reason : new InterruptedError();
}

/**
 * The summary is already printed; the error says in one message what went wrong. On a terminal
 * the summary's Failed: list is on screen just above, so the error does not repeat it; in a log
 * (stdout redirected) stderr may be read on its own, so it names each failure once more.
 */
export function exitCodeOf(command: string, result: ApplyResult, summaryOnScreen = false): number {
  if (result.interrupted) throw new InterruptedError(`${command} interrupted; every created ID is in the state. Run the same command again to resume.`);
  if (result.blocked.length > 0) throw new BlockedPlanError(`the plan is blocked; nothing was changed`);
  if (result.failed.length > 0) {
    const skipped = result.skipped.length > 0 ? ` (${result.skipped.length} dependent action(s) skipped)` : '';
    if (summaryOnScreen) throw new DbformError(`${command} failed: ${result.failed.length} action(s) failed, listed under Failed: above${skipped}`);
    const lines = result.failed.map((f) => `  ${describeFailure(f)}`);
    throw new DbformError(`${command} failed: ${result.failed.length} action(s) failed${skipped}:\n${lines.join('\n')}`);
  }
  return 0;
}
