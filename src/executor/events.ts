// Progress of an apply as plain events. The engine emits them to an injected Reporter and never
// prints; the CLI's views (src/cli/progress/) turn the same events into TTY or plain output.
import type { Action, Address, Binding, OperationId } from '../model/index.js';
import type { ApplyResult } from './result.js';

/**
 * What a step does: an API operation of the plan, or `settle`, the wait for a managed resource
 * still changing when the plan was made (SPEC section 5), which sends nothing.
 */
export type StepOp = OperationId | 'settle';

/** What a view needs to know about an action (or a settle step: id `s1`, `s2`, ...), without its request body. */
export interface ActionRef {
  id: string;
  address: Address;
  op: StepOp;
}

export type ApplyEvent =
  | { type: 'plan-start'; at: number; actions: number; bindings: number; parallelism: number; settling?: number }
  | { type: 'binding'; at: number; binding: Binding }
  | { type: 'action-start'; at: number; action: ActionRef }
  /** A status observed on the API (the 202 body's transitional status, then each poll's). */
  | { type: 'action-status'; at: number; action: ActionRef; status: string }
  /** A wait whose observed status has not changed for a while (60 s by default): what it waits for. */
  | { type: 'action-waiting'; at: number; action: ActionRef; waitingFor: string; status?: string; forMs: number; knownStatus: boolean }
  | { type: 'action-done'; at: number; action: ActionRef; elapsedMs: number; resourceId?: string; adopted?: boolean; note?: string }
  | { type: 'action-failed'; at: number; action: ActionRef; elapsedMs: number; message: string }
  | { type: 'action-skipped'; at: number; action: ActionRef; reason: SkipReason; root?: ActionRef; started?: boolean }
  /** Interrupted after the API accepted the action's request: the cloud carries on, the wait is abandoned. */
  | { type: 'action-abandoned'; at: number; action: ActionRef; elapsedMs: number; resourceId?: string }
  | { type: 'lockfile-written'; at: number; path: string; entries: number }
  | { type: 'warning'; at: number; message: string; address?: Address }
  | { type: 'summary'; at: number; result: ApplyResult };

export type SkipReason = 'upstream-failed' | 'upstream-blocked' | 'interrupted';

/** Distributes an event without its `at`, which the engine stamps. */
export type ApplyEventBody = ApplyEvent extends infer E ? (E extends ApplyEvent ? Omit<E, 'at'> : never) : never;

export interface Reporter {
  emit(event: ApplyEvent): void;
}

export const silentReporter: Reporter = { emit: () => undefined };

export function refOf(action: Action): ActionRef {
  return { id: action.id, address: action.address, op: action.op };
}
