import type { Action, SettlingResource } from '../model/index.js';
import type { ActionError } from './errors.js';
import type { ActionRef, SkipReason } from './events.js';

export interface DoneAction {
  action: Action;
  /** The ID of the resource created or adopted by this action, when it made one. */
  resourceId?: string;
  /** True when a create's outcome was unknown and the live resource was adopted instead. */
  adopted?: boolean;
  /** What a person should know beyond its ID (awaiting acceptance by another account). */
  note?: string;
}

export interface SkippedAction {
  action: Action;
  reason: SkipReason;
  /** The failed or blocked action that caused the skip (the root cause, never an intermediate). */
  root?: ActionRef;
  /** Interrupted after it started, before the API accepted any change of it. */
  started?: boolean;
}

/** Interrupted while waiting: its request was accepted (the cloud carries on), its wait abandoned. */
export interface AbandonedAction {
  action: Action;
  /** The ID of the resource a create made (already in the lockfile). */
  resourceId?: string;
}

/** A managed resource that was still changing when planned (SPEC section 5), and what became of the wait. */
export interface SettleOutcome {
  resource: SettlingResource;
  /**
   * settled: seen out of its transitional status; abandoned: interrupted while waiting;
   * not-started: an action on it did not finish, or Ctrl-C came first. A failed wait (timeout,
   * the resource failed or went away) is under `failed` instead.
   */
  outcome: 'settled' | 'abandoned' | 'not-started';
  /** The last status seen. */
  status: string;
}

/** The outcome of applyPlan: every action of the plan lands in exactly one list. */
export interface ApplyResult {
  done: DoneAction[];
  /** Sent and accepted, but the wait for its result was abandoned at Ctrl-C. */
  abandoned: AbandonedAction[];
  failed: ActionError[];
  skipped: SkippedAction[];
  blocked: Action[];
  /** The plan's settling resources that were waited for (or were not, and why). */
  settling: SettleOutcome[];
  /** Bindings (adopt, move, protect, forget) written to the lockfile. */
  bindingsApplied: number;
  /** True when the signal aborted the apply before every action settled. */
  interrupted: boolean;
}

export function emptyResult(): ApplyResult {
  return { done: [], abandoned: [], failed: [], skipped: [], blocked: [], settling: [], bindingsApplied: 0, interrupted: false };
}

/** True when the apply did everything it was asked to. */
export function isSuccess(result: ApplyResult): boolean {
  const unsettled = result.settling.some((s) => s.outcome !== 'settled');
  return result.failed.length === 0 && result.abandoned.length === 0 && result.skipped.length === 0 && result.blocked.length === 0 && !unsettled && !result.interrupted;
}
