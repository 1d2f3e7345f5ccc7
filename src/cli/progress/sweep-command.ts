// `dbform sweep` (SPEC section 11): destroy every workspace of the project whose expiry passed (or
// whose last apply is older than --older-than), one after another, each as `dbform destroy
// --workspace NAME` would: its plan first, the approval, its lock, its history record. A workspace
// whose destroy finished is deleted from the state. Never the default workspace.
import { DbformError, InterruptedError } from '../../model/index.js';
import { DEFAULT_WORKSPACE, type StateStore, type WorkspaceSummary } from '../../state/index.js';
import { reportError, isDebug } from '../errors.js';
import { parseAge } from '../expiry.js';
import { configFiles } from '../options.js';
import { openStateStore } from '../state-context.js';
import { defaultIo, loadDesired, parseRunOptions } from './apply-command.js';
import type { FlowIo } from './apply-flow.js';
import { runDestroy, type DestroyCommandOptions } from './destroy-command.js';

export interface SweepCommandOptions extends Omit<DestroyCommandOptions, 'workspace'> {
  olderThan?: string;
}

interface Due {
  workspace: string;
  why: string;
}

/** The workspaces to sweep, with why: expired, or not applied for longer than `olderThanMs`. */
export function chooseDue(list: readonly WorkspaceSummary[], now: number, olderThanMs: number | undefined, olderThan?: string): Due[] {
  const due: Due[] = [];
  for (const w of list) {
    if (w.workspace === DEFAULT_WORKSPACE) continue;
    if (w.expiresAt !== null && Date.parse(w.expiresAt) <= now) due.push({ workspace: w.workspace, why: `expired at ${w.expiresAt}` });
    else if (olderThanMs !== undefined && w.lastApply !== null && now - Date.parse(w.lastApply) > olderThanMs) {
      due.push({ workspace: w.workspace, why: `last applied at ${w.lastApply}, more than ${olderThan} ago` });
    }
  }
  return due;
}

async function listWorkspaces(opts: SweepCommandOptions, io: FlowIo, files: string[]) {
  const desired = await loadDesired(files, io, DEFAULT_WORKSPACE);
  const store = openStateStore({ flags: opts, env: io.env, files, projectId: desired.projectId, workspace: DEFAULT_WORKSPACE, ...(desired.state ? { configState: desired.state } : {}) });
  try {
    return { desired, store, list: await store.listWorkspaces() };
  } finally {
    await store.close();
  }
}

export async function runSweep(opts: SweepCommandOptions, io: FlowIo = defaultIo()): Promise<number> {
  const olderThanMs = opts.olderThan === undefined ? undefined : parseAge(opts.olderThan, '--older-than');
  parseRunOptions(opts, io.env);
  const files = configFiles(opts);
  const { desired, store, list } = await listWorkspaces(opts, io, files);
  const others = list.filter((w) => w.workspace !== DEFAULT_WORKSPACE);
  if (store.kind === 'file' && others.length === 0) {
    throw new DbformError(
      `there is nothing to sweep: the state is the lockfile ${store.location} with no workspace beside it; sweep destroys expired workspaces (\`dbform apply --workspace NAME --ttl 72h\`), kept in a shared state (--state postgres://...)`,
    );
  }
  const due = chooseDue(list, Date.now(), olderThanMs, opts.olderThan);
  if (due.length === 0) {
    io.stdout.write(`No workspace of project ${desired.projectId} in ${store.location} is due (${others.length} other than default); nothing to sweep.\n`);
    return 0;
  }
  io.stdout.write(`Sweeping ${due.length} workspace(s) of project ${desired.projectId}: ${due.map((d) => d.workspace).join(', ')}\n`);
  const outcomes: Array<number | 'skipped'> = [];
  for (const d of due) {
    const outcome = await sweepOne(opts, io, files, d, olderThanMs);
    outcomes.push(outcome);
    // Without a terminal and --auto-approve the first one that needs approval refuses; so would the rest.
    if (outcome === 1 && opts.autoApprove !== true && io.stdin.isTTY !== true) break;
  }
  io.stdout.write(`\n${sweepSummary(outcomes, due.length)}\n`);
  const codes = outcomes.filter((c): c is number => c !== 'skipped');
  return codes.some((c) => c !== 0 && c !== 3) ? 1 : codes.includes(3) ? 3 : 0;
}

function sweepSummary(outcomes: Array<number | 'skipped'>, due: number): string {
  const count = (p: (c: number | 'skipped') => boolean) => outcomes.filter(p).length;
  const swept = count((c) => c === 0);
  const skipped = count((c) => c === 'skipped');
  const rest = swept + skipped < due ? `, ${count((c) => c === 3)} blocked, ${count((c) => c !== 0 && c !== 3 && c !== 'skipped')} failed or not approved` : '';
  return `Sweep: ${swept} of ${due} workspace(s) swept${skipped > 0 ? `, ${skipped} no longer due` : ''}${rest}.`;
}

/** A workspace that was due when sweep listed them, and is not once sweep holds its lock. */
class NoLongerDueError extends DbformError {}

/**
 * Under the workspace's lock, before its state is read: is it still due? An apply --ttl that
 * renewed it while sweep waited for the lock, or a workspace deleted meanwhile, is skipped.
 */
function stillDue(d: Due, olderThanMs: number | undefined, olderThan: string | undefined): (state: StateStore) => Promise<void> {
  return async (state) => {
    const now = (await state.listWorkspaces()).find((w) => w.workspace === d.workspace);
    if (now === undefined) throw new NoLongerDueError(`Skipped workspace "${d.workspace}": it no longer exists.`);
    if (chooseDue([now], Date.now(), olderThanMs, olderThan).length > 0) return;
    const expiry = now.expiresAt === null ? 'it has no expiry' : `it now expires at ${now.expiresAt}`;
    throw new NoLongerDueError(`Skipped workspace "${d.workspace}": no longer due (${expiry}, last applied ${now.lastApply ?? 'never'}); it was renewed while sweep waited for its lock.`);
  };
}

/** Destroys one workspace and deletes its state; the exit code it would have had alone, or 'skipped'. */
async function sweepOne(opts: SweepCommandOptions, io: FlowIo, files: string[], d: Due, olderThanMs: number | undefined): Promise<number | 'skipped'> {
  io.stdout.write(`\nWorkspace "${d.workspace}" (${d.why}):\n`);
  try {
    const question = `Destroy workspace "${d.workspace}" and all the resources above?`;
    const underLock = stillDue(d, olderThanMs, opts.olderThan);
    const code = await runDestroy({ ...opts, workspace: d.workspace }, io, { confirmAs: { command: 'sweep', question }, underLock });
    if (code !== 0) return code;
    await deleteWorkspace(opts, io, files, d.workspace);
    io.stdout.write(`Swept workspace "${d.workspace}": its resources are destroyed and its state is deleted.\n`);
    return 0;
  } catch (err) {
    if (err instanceof InterruptedError) throw err;
    if (err instanceof NoLongerDueError) {
      io.stdout.write(`${err.message}\n`);
      return 'skipped';
    }
    return reportError(err, isDebug(), io.stderr);
  }
}

async function deleteWorkspace(opts: SweepCommandOptions, io: FlowIo, files: string[], workspace: string): Promise<void> {
  const desired = await loadDesired(files, io, workspace);
  const store = openStateStore({ flags: opts, env: io.env, files, projectId: desired.projectId, workspace, ...(desired.state ? { configState: desired.state } : {}) });
  try {
    await store.deleteWorkspace(workspace);
  } finally {
    await store.close();
  }
}
