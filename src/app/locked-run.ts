// The state side of apply and destroy (SPEC section 10): take the store's lock, push a pending
// journal, read the state (its ownership checked by the read), run the body, and whatever happens
// append one history record. When the state cannot be written any more, nothing new starts and
// the error says where the IDs are.
import { setMaxListeners } from 'node:events';
import { DbformError, InterruptedError } from '../model/index.js';
import { ClaimConflictError, describeHolder, formatHolder, newHistoryId, StateUnavailableError, type LockHolderInfo } from '../state/index.js';
import { pushJournal } from '../state/journal-push.js';
import { historyActions } from './history-actions.js';
import type { RunHost } from './host.js';
import type { FlowOptions, RunState } from './run-plan.js';

export async function runLocked(o: FlowOptions, host: RunHost, body: (signal: AbortSignal, run: RunState) => Promise<number>): Promise<number> {
  if (o.forceUnlock) await forceUnlockState(o, host);
  const holder = describeHolder(host.owner, host.env, `dbform ${o.command}`);
  const lock = await o.state.lock(holder, { timeoutMs: o.lockTimeoutMs }).catch(async (err: unknown) => {
    await o.state.close().catch(() => undefined);
    throw err;
  });
  if (lock.tookOverFrom) {
    const t = lock.tookOverFrom;
    host.note(`notice: took over the stale apply lock of pid ${t.pid} on ${t.host} (started ${t.startedAt}); that process is no longer running`);
  }
  const interrupts = host.interrupts(() => lock.releaseSync());
  const stateLost = new AbortController();
  const lostReason: { error?: Error } = {};
  const stop = (error: Error) => {
    lostReason.error ??= error;
    stateLost.abort(new InterruptedError('the state can no longer be written'));
  };
  lock.lost.addEventListener('abort', () => stop(new StateUnavailableError(`lost the connection that holds the state lock on ${o.state.location}`)));
  const signal = AbortSignal.any([interrupts.signal, stateLost.signal]);
  setMaxListeners(0, signal);
  let run: RunState | undefined;
  let exitCode = 1;
  try {
    await o.underLock?.(o.state);
    const pushed = await pushJournal(o.state, o.journal);
    if (pushed > 0) host.note(`note: pushed ${pushed} binding(s) kept in ${o.journal.path} by an earlier run into ${o.state.location}`);
    // The state is read (and its ownership checked) before the expiry is written into it.
    let snapshot = await o.state.read();
    if (o.ttlMs !== undefined) {
      await recordExpiry(o, host, o.ttlMs);
      snapshot = await o.state.read();
    }
    run = { lock: snapshot.lockfile, claimedElsewhere: snapshot.claimedElsewhere, stateLost, onStateError: stop };
    exitCode = await body(signal, run);
    const lost = stateLostError(o, run, lostReason.error);
    if (lost) throw lost;
    return exitCode;
  } catch (err) {
    const failure = (run && stateLostError(o, run, lostReason.error)) ?? err;
    exitCode = failure instanceof DbformError ? failure.exitCode : 1;
    throw failure;
  } finally {
    interrupts.dispose();
    if (run) await recordHistory(o, host, run, holder, exitCode);
    await lock.release().catch(() => undefined);
    await o.state.close().catch(() => undefined);
  }
}

function stateLostError(o: FlowOptions, run: RunState, reason: Error | undefined): DbformError | undefined {
  if (!run.stateLost.signal.aborted) return undefined;
  if (reason instanceof ClaimConflictError) {
    return new DbformError(
      `${o.command} stopped: ${reason.message.replace(/\. Nothing was written.*$/s, '')}, so this workspace does not bind it. ` +
        'Nothing new was started; every other ID it bound is in the state. Run `dbform plan` again to see what is left',
    );
  }
  const why = reason?.message ?? 'the state database became unreachable';
  const where = run.journaled
    ? `every ID it bound is in the state or kept in ${o.journal.path}, which the next run pushes before it plans`
    : 'every ID it bound is in the state';
  return new StateUnavailableError(`${o.command} stopped: ${why}. Nothing new was started; ${where}. Run the same command again once the state database is reachable.`);
}

async function recordHistory(o: FlowOptions, host: RunHost, run: RunState, holder: LockHolderInfo, exitCode: number): Promise<void> {
  try {
    await o.state.appendHistory({
      id: newHistoryId(),
      workspace: o.state.workspace,
      state: o.state.location,
      user: holder.user,
      host: holder.host,
      ciRun: holder.ciRun,
      command: host.commandLine,
      startedAt: holder.startedAt,
      finishedAt: new Date().toISOString(),
      configHash: o.configHash,
      serialBefore: run.lock.serial ?? 0,
      serialAfter: run.serialAfter ?? run.lock.serial ?? 0,
      exitCode,
      actions: run.result ? historyActions(run.result) : [],
    });
  } catch (err) {
    host.note(`warning: could not record this ${o.command} in the history of ${o.state.location}: ${(err as Error).message}`);
  }
}

/**
 * Before the plan runs, so resources created by an apply that is killed half-way still expire.
 * Each `apply --ttl` sets it anew: pushing to a pull request keeps its preview alive.
 */
async function recordExpiry(o: FlowOptions, host: RunHost, ttlMs: number): Promise<void> {
  const at = new Date(Date.now() + ttlMs);
  await o.state.setExpiry(at);
  host.note(`Workspace "${o.state.workspace}" expires at ${at.toISOString()}; \`dbform sweep\` destroys it after that.`);
}

/** --force-unlock: the file lock is removed whoever holds it; a PostgreSQL lock lives with its session. */
async function forceUnlockState(o: FlowOptions, host: RunHost): Promise<void> {
  const outcome = await o.state.forceUnlock();
  if (outcome.kind === 'removed') {
    const h = outcome.holder;
    host.note(`notice: removed the apply lock ${outcome.lock}${h ? ` of pid ${h.pid} on ${h.host} (started ${h.startedAt})` : ''}`);
  } else if (outcome.kind === 'cleared') host.note(`notice: cleared the lock holder row of ${formatHolder(outcome.holder)}, whose session is gone`);
  else if (outcome.kind === 'alive') {
    host.note(`notice: --force-unlock cannot break the lock of a live session (${formatHolder(outcome.holder)}); the lock ends with that session`);
  }
}
