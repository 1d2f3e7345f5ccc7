// The next run after a lost state database: push the journal into the state before planning.
import { DbformError, nextRevision, type Lockfile } from '../model/index.js';
import { newLineage } from './document.js';
import { mergeJournal, type StateJournal } from './journal.js';
import { versionOf, type StateSnapshot, type StateStore } from './port.js';

const keyOf = (store: StateStore) => ({ state: store.location, projectId: store.projectId, workspace: store.workspace });

/** The state with the journal's bindings applied in memory (for plan, which writes nothing). */
export async function readWithJournal(store: StateStore, journal: StateJournal): Promise<{ snapshot: StateSnapshot; pending: number }> {
  const [snapshot, entry] = await Promise.all([store.read(), journal.find(keyOf(store))]);
  if (!entry) return { snapshot, pending: 0 };
  const { merged, changed } = checkedMerge(snapshot.lockfile, entry, journal.path);
  return { snapshot: { ...snapshot, lockfile: merged }, pending: changed };
}

/** Writes the journal's bindings into the state (under the run's lock) and removes the entry. */
export async function pushJournal(store: StateStore, journal: StateJournal): Promise<number> {
  const entry = await journal.find(keyOf(store));
  if (!entry) return 0;
  const current = (await store.read()).lockfile;
  const { merged, changed } = checkedMerge(current, entry, journal.path);
  if (changed > 0) await store.write(nextRevision(merged, newLineage()), versionOf(current));
  await journal.remove(keyOf(store));
  return changed;
}

function checkedMerge(current: Lockfile, entry: Parameters<typeof mergeJournal>[1], path: string) {
  if (current.lineage !== undefined && entry.base.lineage !== undefined && current.lineage !== entry.base.lineage) {
    throw new DbformError(
      `the state journal ${path} holds bindings of lineage ${entry.base.lineage}, but the state of workspace "${entry.workspace}" now has lineage ${current.lineage}; ` +
        'nothing was pushed: compare them by hand (the journal lists every ID it kept)',
    );
  }
  const result = mergeJournal(current, entry);
  if (result.conflicts.length > 0) {
    throw new DbformError(
      `the state journal ${path} cannot be pushed: these addresses changed in the state since it was written:\n  ${result.conflicts.join('\n  ')}\n` +
        'nothing was pushed; keep the journal, resolve them by hand (dbform import), then remove their entries from it',
    );
  }
  return result;
}
