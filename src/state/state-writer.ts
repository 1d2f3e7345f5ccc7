// The executor's LockStore writes through the state port: each write is the next revision,
// compare-and-swapped on the serial of the last one. When the state cannot be written (the
// database is unreachable, or the state changed under the run), the writer switches to the local
// journal for the rest of the run and reports it once: the caller stops starting new work.
import type { LockWriter } from '../executor/lock-store.js';
import { nextRevision, type Lockfile } from '../model/index.js';
import { newLineage } from './document.js';
import { ClaimConflictError, StateConflictError, StateUnavailableError } from './errors.js';
import type { StateJournal } from './journal.js';
import { versionOf, type StateStore } from './port.js';

export interface StoreWriter {
  write: LockWriter;
  /** The error that sent writes to the journal, if any. */
  failure(): Error | undefined;
}

export function createStoreWriter(o: {
  store: StateStore;
  journal: StateJournal;
  /** The state as read before the run. */
  base: Lockfile;
  onUnavailable: (err: Error) => void;
  now?: () => Date;
}): StoreWriter {
  let failure: Error | undefined;
  let base = o.base;
  const key = { state: o.store.location, projectId: o.store.projectId, workspace: o.store.workspace };
  const write: LockWriter = async (_path, lock) => {
    if (failure === undefined) {
      const next = nextRevision(lock, newLineage());
      try {
        await o.store.write(next, versionOf(lock));
        base = next;
        return next;
      } catch (err) {
        if (!(err instanceof StateUnavailableError || err instanceof StateConflictError || err instanceof ClaimConflictError)) throw err;
        failure = err;
        o.onUnavailable(err);
      }
    }
    await o.journal.save({ ...key, base, resources: lock, savedAt: (o.now?.() ?? new Date()).toISOString() });
    return undefined;
  };
  return { write, failure: () => failure };
}
