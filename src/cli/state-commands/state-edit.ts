// `dbform state rm ADDR...` and `dbform state mv FROM TO` (SPEC section 14): change bindings, never
// a live resource. Under the state lock, as one compare-and-swap write and one history record, in
// whichever store the flags, env or `state:` select. `rm` forgets a binding with everything the
// state keeps for it (its claim, drift record and protect mark): the resource becomes unmanaged.
// `mv` is the command-line twin of a `moved:` entry.
import { addressForms, DbformError, isProtectedInState, kindOf, nextRevision, type Address, type Lockfile } from '../../model/index.js';
import { describeHolder, newHistoryId, newLineage, versionOf, type HistoryAction, type ReadOptions, type StateStore } from '../../state/index.js';
import { parseDuration } from '../../executor/duration.js';
import { commandLine } from '../host.js';
import { thisProcess } from '../local-process.js';
import { printJson, withStateCommand, type StateCommandFlags } from './context.js';
import { cliProcess } from '../process.js';

export interface StateEditFlags extends StateCommandFlags {
  force?: boolean;
  lockTimeout?: string;
}

type Edit = (lock: Lockfile, where: string) => { resources: Lockfile['resources']; actions: HistoryAction[] };

export async function runStateRm(addresses: Address[], flags: StateEditFlags): Promise<number> {
  const unique = [...new Set(addresses)];
  return editState(flags, 'state rm', (lock, where) => {
    const problems: string[] = [];
    for (const address of unique) {
      const entry = lock.resources[address];
      if (!entry) problems.push(`${address} is not bound in ${where}; \`dbform state list\` shows what is`);
      else if (isProtectedInState(lock, address) && flags.force !== true) {
        problems.push(`${address} is protected (protect: true); forgetting it would drop that protection too. Run again with --force if that is what you mean`);
      }
    }
    if (problems.length > 0) throw new DbformError(`nothing was removed: ${problems.join('; ')}`);
    const resources = { ...lock.resources };
    for (const address of unique) delete resources[address];
    return { resources, actions: unique.map((address) => ({ address, op: 'stateRm', outcome: 'done' as const, id: lock.resources[address]!.id })) };
  }, (n, where) => `Removed ${n} binding(s) from ${where}; the resources are untouched and now unmanaged (a plan counts them, never touches them).`, { foreignBindings: 'allow' });
}

export async function runStateMv(from: Address, to: Address, flags: StateEditFlags): Promise<number> {
  const fromKind = kindOf(from);
  const toKind = kindOf(to);
  if (!fromKind || !toKind) throw new DbformError(`state mv ${from} ${to}: both must be addresses (${addressForms('short')})`);
  if (fromKind !== toKind) throw new DbformError(`state mv ${from} ${to}: a ${fromKind} cannot become a ${toKind}`);
  if (from === to) throw new DbformError(`state mv ${from} ${to}: the two addresses are the same`);
  return editState(flags, 'state mv', (lock, where) => {
    const entry = lock.resources[from];
    if (!entry) throw new DbformError(`nothing was moved: ${from} is not bound in ${where}; \`dbform state list\` shows what is`);
    if (lock.resources[to]) throw new DbformError(`nothing was moved: ${to} is already bound (to ${lock.resources[to]!.id}) in ${where}; \`dbform state rm ${to}\` first if it should go`);
    const { [from]: _moved, ...rest } = lock.resources;
    return { resources: { ...rest, [to]: entry }, actions: [{ address: to, op: 'stateMv', outcome: 'done', id: entry.id }] };
  }, () => `Moved ${from} to ${to}; the resource is untouched. Rename its block in the config to match, or the next plan deletes ${to}.`);
}

/**
 * `read`: `state rm` reads a state that binds another workspace's ID, the one repair of it that
 * needs no hand edit; the write still refuses any such binding that is left (SPEC section 13).
 */
async function editState(flags: StateEditFlags, verb: string, edit: Edit, done: (n: number, where: string) => string, read: ReadOptions = {}): Promise<number> {
  const timeoutMs = parseDuration(flags.lockTimeout ?? '0');
  if (timeoutMs === undefined || timeoutMs < 0) throw new DbformError(`--lock-timeout must be a duration such as 5m, 90s, or 0 (got "${flags.lockTimeout}")`);
  return withStateCommand(flags, async ({ store, env }) => {
    const holder = describeHolder(thisProcess(), env, `dbform ${verb}`);
    const lock = await store.lock(holder, { timeoutMs });
    try {
      const { lockfile } = await store.read(read);
      const where = describeState(store);
      const { resources, actions } = edit(lockfile, where);
      const next = nextRevision({ ...lockfile, resources }, newLineage());
      await store.write(next, versionOf(lockfile));
      await store.appendHistory({
        id: newHistoryId(),
        workspace: store.workspace,
        state: store.location,
        user: holder.user,
        host: holder.host,
        ciRun: holder.ciRun,
        command: commandLine(),
        startedAt: holder.startedAt,
        finishedAt: new Date().toISOString(),
        configHash: null,
        serialBefore: lockfile.serial ?? 0,
        serialAfter: next.serial ?? 0,
        exitCode: 0,
        actions,
      });
      if (flags.json) printJson({ state: store.location, workspace: store.workspace, serial: next.serial, changed: actions.map((a) => ({ address: a.address, id: a.id })) });
      else cliProcess().stdout.write(`${done(actions.length, where)}\n`);
      return 0;
    } finally {
      await lock.release();
    }
  });
}

const describeState = (store: StateStore) => `workspace "${store.workspace}" of ${store.location}`;
