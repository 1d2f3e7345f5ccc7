// A run's working state (working-state.ts) writes through the state port: each write is the next revision,
// compare-and-swapped on the serial of the last one. When the state cannot be written (the
// database is unreachable, or the state changed under the run), the writer switches to the local
// journal for the rest of the run and reports it once: the caller stops starting new work.
// A binding refused because another workspace claimed the ID meanwhile (a race between two
// adoptions by name) is left out of this state, and reported the same way.
import { nextRevision, type Lockfile } from '../model/index.js';
import { newLineage } from './document.js';
import { ClaimConflictError, StateConflictError, StateUnavailableError } from './errors.js';
import type { StateJournal } from './journal.js';
import { versionOf, type StateStore } from './port.js';
import type { StatePersister } from './working-state.js';

export interface StoreWriter {
  write: StatePersister;
  /** The error that sent writes to the journal, if any. */
  failure(): Error | undefined;
}

/** `lock` without the bindings of IDs that another workspace holds. */
function without(lock: Lockfile, ids: ReadonlySet<string>): Lockfile {
  if (ids.size === 0) return lock;
  return { ...lock, resources: Object.fromEntries(Object.entries(lock.resources).filter(([, e]) => !ids.has(e.id))) };
}

export function createStoreWriter(o: {
  store: StateStore;
  journal: StateJournal;
  /** The state as read before the run. */
  base: Lockfile;
  onUnavailable: (err: Error) => void;
  /** Another workspace bound this ID first: this state does not bind it (the run should stop). */
  onClaimRefused: (err: ClaimConflictError) => void;
  now?: () => Date;
}): StoreWriter {
  let failure: Error | undefined;
  let base = o.base;
  const refused = new Set<string>();
  const key = { state: o.store.location, projectId: o.store.projectId, workspace: o.store.workspace };
  const write: StatePersister = async (_location, lock) => {
    while (failure === undefined) {
      const next = nextRevision(without(lock, refused), newLineage());
      try {
        await o.store.write(next, versionOf(lock));
        base = next;
        return next;
      } catch (err) {
        if (err instanceof ClaimConflictError && !refused.has(err.resourceId)) {
          refused.add(err.resourceId);
          o.onClaimRefused(err);
          continue;
        }
        if (!(err instanceof StateUnavailableError || err instanceof StateConflictError)) throw err;
        failure = err;
        o.onUnavailable(err);
      }
    }
    await o.journal.save({ ...key, base, resources: without(lock, refused), savedAt: (o.now?.() ?? new Date()).toISOString() });
    return undefined;
  };
  return { write, failure: () => failure };
}
