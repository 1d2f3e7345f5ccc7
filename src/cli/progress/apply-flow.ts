// What `apply` and `destroy` share once they know how to make their plan: the apply lock,
// signals, the plan on screen, the approval, the engine with a progress view, the exit code.
// Loaded with `await import()` by the command files (it pulls in the client and the engine).
import type { ApiClient } from '../../api/client.js';
import { pollMsFromEnv, stallNoticeMsFromEnv, StatusPoller } from '../../api/waiters.js';
import { acquireApplyLock, forceUnlock } from '../../executor/apply-lock.js';
import { applyPlan } from '../../executor/apply-plan.js';
import { LockStore } from '../../executor/lock-store.js';
import { checkPgpassWritable } from '../../executor/pgpass.js';
import { describeMissingPasswordEnv, findMissingPasswordEnv, planCreatesServices } from '../../executor/preflight.js';
import type { ApplyResult } from '../../executor/result.js';
import { describeFileError, readLockfile, realFilePath } from '../../lockfile/index.js';
import { BlockedPlanError, DbformError, InterruptedError, planHasChanges, type Lockfile, type Plan } from '../../model/index.js';
import { openApiContext, type ApiContextInput } from '../api-context.js';
import { confirmChanges } from './confirm.js';
import { createProgressView } from './index.js';
import { printPlan } from './plan-output.js';
import { describeFailure } from './summary.js';
import { installInterruptHandlers, throwIfInterrupted } from './signals.js';

export interface FlowIo {
  stdout: NodeJS.WriteStream;
  stderr: NodeJS.WriteStream;
  stdin: NodeJS.ReadStream;
  env: NodeJS.ProcessEnv;
}

export interface PlanInput {
  client: ApiClient;
  lock: Lockfile;
  signal: AbortSignal;
}

export interface FlowOptions {
  command: 'apply' | 'destroy';
  projectId: string;
  lockfilePath: string;
  api: ApiContextInput;
  color: boolean;
  autoApprove: boolean;
  /** False for a saved plan: it was reviewed when it was made. */
  confirm: boolean;
  parallelism: number;
  timeoutMs: number;
  pgpassPath: string;
  forceUnlock: boolean;
  makePlan(input: PlanInput): Promise<Plan>;
}

export async function runApplyFlow(given: FlowOptions, io: FlowIo): Promise<number> {
  // One apply per lockfile, however it is spelled: lock, read and write the file a symlink names.
  const o = { ...given, lockfilePath: await realLockfilePath(given.lockfilePath) };
  if (o.forceUnlock) {
    const removed = await forceUnlock(o.lockfilePath);
    if (removed !== undefined) io.stderr.write(`notice: removed the apply lock ${o.lockfilePath}.lock${removed ? ` of pid ${removed.pid} on ${removed.host} (started ${removed.started_at})` : ''}\n`);
  }
  const lock = await acquireApplyLock(o.lockfilePath, { command: `dbform ${o.command}` });
  if (lock.tookOverFrom) {
    const t = lock.tookOverFrom;
    io.stderr.write(`notice: took over the stale apply lock of pid ${t.pid} on ${t.host} (started ${t.started_at}); that process is no longer running\n`);
  }
  const interrupts = installInterruptHandlers({ stderr: io.stderr, onForcedExit: () => lock.releaseSync() });
  let context: Awaited<ReturnType<typeof openApiContext>> | undefined;
  try {
    context = await openApiContext(o.api, io.env, io.stderr);
    return await planAndApply(o, io, context.client, interrupts.signal);
  } finally {
    interrupts.dispose();
    await context?.close().catch(() => undefined);
    await lock.release().catch(() => undefined);
  }
}

async function realLockfilePath(path: string): Promise<string> {
  try {
    return await realFilePath(path);
  } catch (err) {
    throw new DbformError(`cannot resolve the lockfile path ${path}: ${describeFileError(err)}`, { cause: err });
  }
}

async function planAndApply(o: FlowOptions, io: FlowIo, client: ApiClient, signal: AbortSignal): Promise<number> {
  const lockfile = await readLockfile(o.lockfilePath, o.projectId);
  const plan = await o.makePlan({ client, lock: lockfile, signal });
  throwIfInterrupted(signal);
  printPlan(plan, io.stdout, o.color);
  // Settling alone changes nothing, so it needs no approval; but success waits for it (SPEC section 5).
  const changes = planHasChanges(plan);
  if (!changes && plan.settling.length === 0) return 0;
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
    const question = o.command === 'destroy' ? 'Destroy all the resources above?' : 'Apply these changes?';
    const yes = await confirmChanges({ input: io.stdin, output: io.stdout, stderr: io.stderr, autoApprove: o.autoApprove, signal, question, command: o.command });
    if (!yes) {
      io.stdout.write(`${o.command === 'destroy' ? 'Destroy' : 'Apply'} cancelled; nothing was changed.\n`);
      return 1;
    }
  }
  throwIfInterrupted(signal);
  const result = await execute(o, io, client, plan, lockfile, signal);
  return exitCodeOf(o.command, result, io.stdout.isTTY === true);
}

async function execute(o: FlowOptions, io: FlowIo, client: ApiClient, plan: Plan, lockfile: Lockfile, signal: AbortSignal): Promise<ApplyResult> {
  const pollMs = pollMsFromEnv(io.env);
  const poller = new StatusPoller(client, { projectId: o.projectId, pollMs, defaultTimeoutMs: o.timeoutMs, stallNoticeMs: stallNoticeMsFromEnv(io.env) });
  const view = createProgressView(io.stdout, { color: o.color, verb: o.command === 'destroy' ? 'Destroy' : 'Apply', stderr: io.stderr });
  try {
    return await applyPlan(plan, {
      api: client,
      poller,
      lockStore: new LockStore(o.lockfilePath, lockfile),
      reporter: view,
      parallelism: o.parallelism,
      timeoutMs: o.timeoutMs,
      signal,
      pgpassPath: o.pgpassPath,
      env: io.env,
      pollMs,
    });
  } finally {
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
