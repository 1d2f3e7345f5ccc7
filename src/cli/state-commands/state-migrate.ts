// `dbform state migrate --to URL`: copy this workspace's state (same lineage, same serial) and its
// history to another store, under both stores' locks. A target that holds another lineage, or a
// later serial of this one, is refused and left as it is.
import { DbformError, nextRevision, serializeLockfile, type Lockfile } from '../../model/index.js';
import { describeHolder, versionOf, type StateLock, type StateStore } from '../../state/index.js';
import { newLineage } from '../../state/document.js';
import { checkStateFlag, openStateStore } from '../../app/state-choice.js';
import { printJson, withStateCommand, type StateCommandFlags } from './context.js';
import { thisProcess } from '../local-process.js';
import { cliProcess, runDirectory } from '../process.js';

export interface MigrateFlags extends StateCommandFlags {
  to: string;
}

const sameBindings = (a: Lockfile, b: Lockfile) =>
  serializeLockfile({ version: 1, projectId: a.projectId, resources: a.resources }) === serializeLockfile({ version: 1, projectId: b.projectId, resources: b.resources });

export async function runStateMigrate(flags: MigrateFlags): Promise<number> {
  checkStateFlag({ state: flags.to });
  return withStateCommand(flags, async ({ store: source, files, desired, workspace, env }) => {
    const target = openStateStore({ flags: { state: flags.to }, env, cwd: runDirectory(), owner: thisProcess(), files, projectId: desired.projectId, workspace });
    if (target.location === source.location) throw new DbformError(`--to ${target.location} is where the state already is; nothing to migrate`);
    const locks: StateLock[] = [];
    try {
      const holder = describeHolder(thisProcess(), env, 'dbform state migrate');
      locks.push(await source.lock(holder, { timeoutMs: 0 }));
      locks.push(await target.lock(holder, { timeoutMs: 0 }));
      const outcome = await copyState(source, target);
      const history = await copyHistory(source, target);
      report(flags, source, target, outcome, history);
      return 0;
    } finally {
      for (const l of locks.reverse()) await l.release().catch(() => undefined);
      await target.close();
    }
  });
}

interface CopyOutcome {
  lock: Lockfile;
  written: boolean;
  note?: string;
}

async function copyState(source: StateStore, target: StateStore): Promise<CopyOutcome> {
  let lock = (await source.read()).lockfile;
  const there = (await target.read()).lockfile;
  let note: string | undefined;
  if (lock.lineage === undefined) {
    if (Object.keys(lock.resources).length === 0) throw new DbformError(`workspace "${source.workspace}" of ${source.location} holds no state yet; nothing to migrate`);
    // A lockfile of an older dbform: the copy is its first revision with an identity.
    lock = nextRevision(lock, newLineage());
    note = `${source.location} had no lineage yet (written by an older dbform); the copy starts lineage ${lock.lineage} at serial ${lock.serial}`;
  }
  if (there.lineage !== undefined && there.lineage !== lock.lineage) {
    throw new DbformError(
      `${target.location} already holds another state for workspace "${target.workspace}" of project ${target.projectId} (lineage ${there.lineage}, not ${lock.lineage}); nothing was copied. ` +
        'Migrate to an empty place, or delete that state first if it is not needed',
    );
  }
  if ((there.serial ?? 0) > (lock.serial ?? 0)) {
    throw new DbformError(
      `${target.location} holds a later revision of this state (serial ${there.serial}, here ${lock.serial}); nothing was copied: migrate from there instead`,
    );
  }
  if (there.serial === lock.serial && sameBindings(there, lock)) return { lock, written: false, ...(note ? { note } : {}) };
  await target.write(lock, versionOf(there));
  return { lock, written: true, ...(note ? { note } : {}) };
}

/** Oldest first, so the target lists them in the same order; a record already there is skipped. */
async function copyHistory(source: StateStore, target: StateStore): Promise<number> {
  const records = (await source.readHistory()).reverse();
  for (const r of records) await target.appendHistory(r);
  return records.length;
}

function report(flags: MigrateFlags, source: StateStore, target: StateStore, o: CopyOutcome, history: number): void {
  const count = Object.keys(o.lock.resources).length;
  if (flags.json) {
    printJson({
      from: source.location,
      to: target.location,
      workspace: source.workspace,
      lineage: o.lock.lineage,
      serial: o.lock.serial,
      resources: count,
      history_records: history,
      written: o.written,
    });
    return;
  }
  if (o.note) cliProcess().stderr.write(`note: ${o.note}\n`);
  const what = o.written ? 'Copied' : 'Already there:';
  cliProcess().stdout.write(
    `${what} the state of workspace "${source.workspace}" (lineage ${o.lock.lineage}, serial ${o.lock.serial}, ${count} binding(s)) and ${history} history record(s) ` +
      `from ${source.location} to ${target.location}.\nPoint dbform at it with --state, DBFORM_STATE or the config's state: key.\n`,
  );
}
