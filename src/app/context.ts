// The one way in for every use case (STYLE.md "A use case is one function, written once"): the
// config (the only call of loadConfig outside validate), the workspace, and the state store the
// flags, environment and `state:` select, with its journal. The ownership authority runs inside
// the store's read (src/state/ownership.ts); lineage, readiness, policies and credentials are
// checked where the plan is made (pipeline.ts), before anything is planned, sent or printed.
import { loadConfig } from '../config/index.js';
import { DiagnosticsError, formatDiagnostic, type DesiredState, type Result } from '../model/index.js';
import { resolveWorkspace, type StateStore } from '../state/index.js';
import type { StateJournal } from '../state/journal.js';
import type { AppHost, Env } from './host.js';
import { openJournal, openStateStore, type StateFlags } from './state-choice.js';

/** The flags that say which config and which state a command is about. */
export interface Selection {
  files: string[];
  state: StateFlags;
}

export function workspaceOf(flags: StateFlags, env: Env): string {
  return resolveWorkspace(flags.workspace, env);
}

/** The environment and directory a config is read in (an AppHost is one). */
export interface ReadWhere {
  env: Env;
  cwd?: string;
}

/** The config of `files` in `workspace` (`${workspace}` expands to it): the one loadConfig of the use cases. */
export function readConfig(files: string[], where: ReadWhere, workspace: string): Promise<Result<DesiredState>> {
  return loadConfig(files, { env: where.env, workspace, ...(where.cwd !== undefined ? { cwd: where.cwd } : {}) });
}

/** The config, or a DiagnosticsError of its errors (exit 1); warnings go to `note` either way. */
export async function loadDesired(files: string[], where: ReadWhere, workspace: string, note: (line: string) => void): Promise<DesiredState> {
  const loaded = await readConfig(files, where, workspace);
  if (!loaded.ok) {
    // A failed load carries its warnings along with the errors; only the errors are the failure.
    for (const w of loaded.errors.filter((d) => d.severity === 'warning')) note(formatDiagnostic(w));
    throw new DiagnosticsError(loaded.errors.filter((d) => d.severity === 'error'));
  }
  for (const w of loaded.warnings) note(formatDiagnostic(w));
  return loaded.value;
}

/** A command's config and the state it selects, open until `close`. */
export interface AppContext {
  files: string[];
  workspace: string;
  desired: DesiredState;
  store: StateStore;
  journal: StateJournal;
  env: Env;
}

export interface OpenOptions {
  /** The desired state when the caller loaded it already (or made one: destroy without a config). */
  desired?: DesiredState;
  /** Where a wait for the state lock is told (`--lock-timeout`). */
  onLockWait?: (message: string) => void;
  /** The config's warnings are not told (commands about the state, not the config). */
  quiet?: boolean;
}

/** Opens the store of `desired`'s project in `workspace`: where the flags, env or `state:` say. */
export function openStore(sel: Selection, host: AppHost, desired: Pick<DesiredState, 'projectId' | 'state'>, workspace: string, onLockWait?: (message: string) => void): StateStore {
  return openStateStore({
    flags: sel.state,
    env: host.env,
    cwd: host.cwd,
    owner: host.owner,
    files: sel.files,
    projectId: desired.projectId,
    workspace,
    ...(desired.state ? { configState: desired.state } : {}),
    ...(onLockWait ? { onLockWait } : {}),
  });
}

/** Config, workspace, store and journal of a command (the store is opened, not yet read). */
export async function openContext(sel: Selection, host: AppHost, o: OpenOptions = {}): Promise<AppContext> {
  const workspace = workspaceOf(sel.state, host.env);
  const desired = o.desired ?? (await loadDesired(sel.files, host, workspace, o.quiet ? () => undefined : host.note));
  const store = openStore(sel, host, desired, workspace, o.onLockWait);
  return { files: sel.files, workspace, desired, store, journal: openJournal(sel.files, host.cwd), env: host.env };
}

/** Runs `fn` with the command's context, and closes its store whatever happens. */
export async function withContext<T>(sel: Selection, host: AppHost, fn: (ctx: AppContext) => Promise<T>, o: OpenOptions = {}): Promise<T> {
  const ctx = await openContext(sel, host, o);
  try {
    return await fn(ctx);
  } finally {
    await ctx.store.close();
  }
}
