// A create whose outcome is unknown is never re-sent blindly (SPEC section 5): list, adopt the
// resource with the desired name if it is there, and only otherwise send again (bounded).
import { AmbiguousCreateError, ApiError, DbformError, type Action } from '../model/index.js';
import type { ActionContext } from './action-context.js';
import { ActionInputError, isConflict } from './errors.js';

/** `adoptedStatus`: the status the adopted resource showed when it was found, when it has one. */
export type CreateOutcome<R> = { created: R } | { adoptedId: string; adoptedStatus?: string };

export interface CreateSpec<R> {
  send(): Promise<R>;
  /** The live resources this create would have made (matched by name or identity). */
  find(): Promise<Array<{ id: string; status?: string }>>;
  /** What the resource is called, for messages: `service "metrics"`. */
  describe: string;
  /** A 409 may mean the resource already exists (names unique within a parent, one per identity). */
  conflictMayMeanExists?: boolean;
  /** After a 409 that no existing resource explains: wait for the parent to settle; true to send again. */
  retryAfterConflict?: () => Promise<boolean>;
  /**
   * After a 409 that no existing resource explains, before `retryAfterConflict`: a refusal whose
   * words say only time ends it (a parent without a backup yet); true after a pause, to send
   * again. Bounded by the action's --timeout, not by a count of sends.
   */
  pauseAfterConflict?: (err: unknown) => Promise<boolean>;
}

const MAX_CONFLICT_RETRIES = 12;

/** Whether a failed create may have been processed by the API (or, for 409, may mean it exists). */
function mayExist(err: unknown, conflictMayMeanExists: boolean): { mayExist: boolean; provedNothing: boolean } {
  if (err instanceof AmbiguousCreateError) return { mayExist: true, provedNothing: false };
  if (err instanceof ApiError) {
    // The client already re-sent what provably did nothing (429, 503, refused connections).
    if (err.status === 0 || err.status >= 500) return { mayExist: true, provedNothing: false };
    if (err.status === 409 && conflictMayMeanExists) return { mayExist: true, provedNothing: true };
    return { mayExist: false, provedNothing: true };
  }
  if (err instanceof DbformError) return { mayExist: false, provedNothing: true };
  // Not an API answer at all (a bug, a socket error the client did not classify): be careful.
  return { mayExist: true, provedNothing: false };
}

/** A create's final error says the API refused it (a 4xx answer): nothing was made. */
export function createdNothing(err: unknown): boolean {
  return err instanceof ApiError && err.status >= 400 && err.status < 500;
}

export async function createOrAdopt<R>(ctx: ActionContext, action: Action, spec: CreateSpec<R>): Promise<CreateOutcome<R>> {
  let sends = 0;
  let conflicts = 0;
  for (;;) {
    try {
      sends++;
      return { created: await spec.send() };
    } catch (err) {
      const verdict = mayExist(err, spec.conflictMayMeanExists ?? false);
      if (verdict.mayExist) {
        const found = await spec.find();
        if (found.length === 1) {
          ctx.emit({
            type: 'warning',
            address: action.address,
            message: `the outcome of ${action.op} was unknown; adopted the live ${spec.describe} (${found[0]!.id}) instead of sending it again`,
          });
          const status = found[0]!.status;
          return status === undefined ? { adoptedId: found[0]!.id } : { adoptedId: found[0]!.id, adoptedStatus: status };
        }
        if (found.length > 1) {
          throw new ActionInputError(
            `the outcome of the create was unknown and ${found.length} live resources match ${spec.describe} (${found.map((f) => f.id).join(', ')}); ` +
              'bind the right one with `dbform import` and delete the others',
            { cause: err },
          );
        }
      }
      // A refusal that says what ends it comes first: the looks for other reasons would not see it.
      if (isConflict(err) && spec.pauseAfterConflict && (await spec.pauseAfterConflict(err))) {
        sends--;
        continue;
      }
      if (isConflict(err) && spec.retryAfterConflict && conflicts < MAX_CONFLICT_RETRIES && (await spec.retryAfterConflict())) {
        conflicts++;
        sends--;
        continue;
      }
      // A refusal not explained by an existing resource is the API's real answer.
      if (!verdict.mayExist || verdict.provedNothing || sends >= ctx.createAttempts) throw err;
      ctx.emit({
        type: 'warning',
        address: action.address,
        message: `the outcome of ${action.op} was unknown and no ${spec.describe} exists; sending it again (attempt ${sends + 1} of ${ctx.createAttempts})`,
      });
    }
  }
}
