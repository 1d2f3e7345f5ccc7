// `dbform sweep` (SPEC section 11): destroy every workspace of the project whose expiry passed (or
// whose last apply is older than --older-than), one after another, each as `dbform destroy
// --workspace NAME` would: its plan first, the approval, its lock, its history record. A workspace
// whose destroy finished is deleted from the state. Never the default workspace.
import { DbformError, InterruptedError } from '../../model/index.js';
import { DEFAULT_WORKSPACE, type WorkspaceSummary } from '../../state/index.js';
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
  const codes: number[] = [];
  for (const d of due) {
    const code = await sweepOne(opts, io, files, d);
    codes.push(code);
    // Without a terminal and --auto-approve the first one that needs approval refuses; so would the rest.
    if (code === 1 && opts.autoApprove !== true && io.stdin.isTTY !== true) break;
  }
  const swept = codes.filter((c) => c === 0).length;
  io.stdout.write(`\nSweep: ${swept} of ${due.length} workspace(s) swept${swept < due.length ? `, ${codes.filter((c) => c === 3).length} blocked, ${codes.filter((c) => c !== 0 && c !== 3).length} failed or not approved` : ''}.\n`);
  return codes.some((c) => c !== 0 && c !== 3) ? 1 : codes.includes(3) ? 3 : 0;
}

/** Destroys one workspace and deletes its state; the exit code it would have had alone. */
async function sweepOne(opts: SweepCommandOptions, io: FlowIo, files: string[], d: Due): Promise<number> {
  io.stdout.write(`\nWorkspace "${d.workspace}" (${d.why}):\n`);
  try {
    const question = `Destroy workspace "${d.workspace}" and all the resources above?`;
    const code = await runDestroy({ ...opts, workspace: d.workspace }, io, { command: 'sweep', question });
    if (code !== 0) return code;
    await deleteWorkspace(opts, io, files, d.workspace);
    io.stdout.write(`Swept workspace "${d.workspace}": its resources are destroyed and its state is deleted.\n`);
    return 0;
  } catch (err) {
    if (err instanceof InterruptedError) throw err;
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
