// `dbform sweep` (SPEC section 11): destroy every workspace of the project whose expiry passed (or
// whose last apply is older than --older-than), one after another, each as `dbform destroy
// --workspace NAME` would: its plan first, the approval, its lock, its history record. A workspace
// whose destroy finished is deleted from the state. Never the default workspace.
import { DbformError, InterruptedError } from '../model/index.js';
import { DEFAULT_WORKSPACE, type StateStore, type WorkspaceSummary } from '../state/index.js';
import { loadDesired, openStore, type Selection } from './context.js';
import { destroyAll } from './destroy.js';
import type { RunHost } from './host.js';
import type { RunSettings } from './run-plan.js';
import type { RunRecord, SweepEntry, SweepRecord } from './run-record.js';

export interface SweepRequest extends Selection {
  /** `--older-than` in milliseconds, and as given (for messages). */
  olderThanMs?: number;
  olderThan?: string;
  policies?: string[];
  run: RunSettings;
  /** Whether stdin is a terminal: without one and --auto-approve, the first refusal stops the sweep. */
  interactive: boolean;
  /** Filled as the sweep goes, for `--json`. */
  record?: SweepRecord;
}

/** A sweep reports each workspace's failure as the CLI would, and goes on to the next. */
export interface SweepHost extends RunHost {
  /** Prints `err` as the command's error would be and returns its exit code. */
  reportError(err: unknown): number;
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

/** The project's workspaces as the state of the default workspace's config lists them. */
async function listWorkspaces(req: SweepRequest, host: SweepHost) {
  const desired = await loadDesired(req.files, host, DEFAULT_WORKSPACE, host.note);
  const store = openStore(req, host, desired, DEFAULT_WORKSPACE);
  try {
    return { desired, store, list: await store.listWorkspaces() };
  } finally {
    await store.close();
  }
}

export async function sweepWorkspaces(req: SweepRequest, host: SweepHost): Promise<number> {
  const { desired, store, list } = await listWorkspaces(req, host);
  if (req.record) Object.assign(req.record, { projectId: desired.projectId, state: store.location });
  const others = list.filter((w) => w.workspace !== DEFAULT_WORKSPACE);
  if (store.kind === 'file' && others.length === 0) {
    throw new DbformError(
      `there is nothing to sweep: the state is the lockfile ${store.location} with no workspace beside it; sweep destroys expired workspaces (\`dbform apply --workspace NAME --ttl 72h\`), kept in a shared state (--state postgres://...)`,
    );
  }
  const due = chooseDue(list, Date.now(), req.olderThanMs, req.olderThan);
  if (due.length === 0) {
    host.say(`No workspace of project ${desired.projectId} in ${store.location} is due (${others.length} other than default); nothing to sweep.`);
    return 0;
  }
  if (req.record) req.record.due = due.map((d) => d.workspace);
  host.say(`Sweeping ${due.length} workspace(s) of project ${desired.projectId}: ${due.map((d) => d.workspace).join(', ')}`);
  const outcomes: Array<number | 'skipped'> = [];
  for (const d of due) {
    const outcome = await sweepOne(req, host, d);
    outcomes.push(outcome);
    // Without a terminal and --auto-approve the first one that needs approval refuses; so would the rest.
    if (outcome === 1 && !req.run.autoApprove && !req.interactive) break;
  }
  host.say(`\n${sweepSummary(outcomes, due.length)}\nState: ${store.location}.`);
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
async function sweepOne(req: SweepRequest, host: SweepHost, d: Due): Promise<number | 'skipped'> {
  host.say(`\nWorkspace "${d.workspace}" (${d.why}):`);
  const run: RunRecord = { command: 'destroy' };
  const entry: SweepEntry = { workspace: d.workspace, why: d.why, outcome: 'failed', exitCode: 1, run };
  req.record?.entries.push(entry);
  const sel = { files: req.files, state: { ...req.state, workspace: d.workspace } };
  try {
    const question = (where: { state: string }) => `Destroy workspace "${d.workspace}" and all the resources above (state: ${where.state})?`;
    const underLock = stillDue(d, req.olderThanMs, req.olderThan);
    const code = await destroyAll({ ...sel, targets: [], ...(req.policies ? { policies: req.policies } : {}), run: req.run, record: run }, host, { confirmAs: { command: 'sweep', question }, underLock });
    settle(entry, code);
    if (code !== 0) return code;
    await deleteWorkspace(sel, host, d.workspace);
    host.say(`Swept workspace "${d.workspace}": its resources are destroyed and its state is deleted.`);
    entry.outcome = 'swept';
    return 0;
  } catch (err) {
    if (err instanceof InterruptedError) throw err;
    if (err instanceof NoLongerDueError) {
      host.say(err.message);
      Object.assign(entry, { outcome: 'skipped', exitCode: 0, error: err.message });
      delete entry.run;
      return 'skipped';
    }
    const code = host.reportError(err);
    settle(entry, code, err instanceof Error ? err.message : String(err));
    return code;
  }
}

function settle(entry: SweepEntry, code: number, error?: string): void {
  entry.exitCode = code;
  entry.outcome = code === 0 ? 'swept' : code === 3 ? 'blocked' : 'failed';
  if (error !== undefined) entry.error = error;
}

async function deleteWorkspace(sel: Selection, host: SweepHost, workspace: string): Promise<void> {
  const desired = await loadDesired(sel.files, host, workspace, host.note);
  const store = openStore(sel, host, desired, workspace);
  try {
    await store.deleteWorkspace(workspace);
  } finally {
    await store.close();
  }
}
