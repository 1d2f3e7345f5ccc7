// Where the state lives (SPEC section 10): --state, else DBFORM_STATE, else the config's
// `state:`, else the lockfile file; and which workspace. Opens the matching store. What it needs
// of the process (the environment, the working directory, who runs) the CLI hands in.
import { dirname, isAbsolute, join, resolve } from 'node:path';
import { resolveLockfilePath } from '../lockfile/index.js';
import { DbformError, inDirectory, type LocalProcess, type SourceRef } from '../model/index.js';
import { FileStateStore, isPostgresUrl, PgStateStore, redactUrl, resolveWorkspace, urlHasPassword, type StateStore } from '../state/index.js';
import { StateJournal } from '../state/journal.js';

export interface StateFlags {
  state?: string;
  workspace?: string;
  lockfile?: string;
}

/** Where a state URL came from: messages about it say so. */
interface StateChoice {
  url: string | undefined;
  /** A file: URL in the config is relative to the config file's directory (undefined: the process's). */
  baseDir: string | undefined;
  origin: string;
}

export function workspaceOf(flags: StateFlags, env: Record<string, string | undefined>): string {
  return resolveWorkspace(flags.workspace, env);
}

/** A password in --state would show in process lists and shell history: refused. */
export function checkStateFlag(flags: StateFlags): void {
  if (flags.state !== undefined && urlHasPassword(flags.state)) {
    throw new DbformError(
      `--state ${redactUrl(flags.state)}: a password in a command-line flag would be visible to other users and kept in shell history; give it with PGPASSWORD or the pgpass file (or DBFORM_STATE)`,
    );
  }
}

function chooseState(flags: StateFlags, env: Record<string, string | undefined>, cwd: string | undefined, configState: { value: string; source: SourceRef } | undefined): StateChoice {
  checkStateFlag(flags);
  if (flags.state !== undefined) return { url: flags.state, baseDir: cwd, origin: '--state' };
  if (env.DBFORM_STATE) return { url: env.DBFORM_STATE, baseDir: cwd, origin: 'DBFORM_STATE' };
  if (configState) {
    const { file, line, col } = configState.source;
    return { url: configState.value, baseDir: inDirectory(cwd, dirname(file)), origin: `${file}:${line}:${col}: state` };
  }
  return { url: undefined, baseDir: cwd, origin: 'the lockfile' };
}

export interface OpenStateInput {
  flags: StateFlags;
  env: Record<string, string | undefined>;
  /**
   * The run's directory when it is not the process's own (model/run-directory.ts): a relative
   * --state or DBFORM_STATE file: URL, the lockfile and the history are read from it.
   */
  cwd?: string;
  /** The process that takes the file store's lock (and judges a lock left on this host). */
  owner: LocalProcess;
  files: string[];
  projectId: string;
  workspace: string;
  configState?: { value: string; source: SourceRef };
  onLockWait?: (message: string) => void;
}

/** `.dbform/<name>` beside the first config file. */
export function besideConfig(files: string[], name: string): string {
  return join(dirname(files[0] ?? 'dbform.yaml'), '.dbform', name);
}

export function openStateStore(input: OpenStateInput): StateStore {
  const choice = chooseState(input.flags, input.env, input.cwd, input.configState);
  const common = { projectId: input.projectId, workspace: input.workspace };
  const historyPath = besideConfig(input.files, 'history.jsonl');
  const owner = input.owner;
  if (choice.url === undefined) {
    return new FileStateStore({ ...common, lockfilePath: resolveLockfilePath(input.files, input.flags.lockfile), historyPath, owner, ...(input.cwd !== undefined ? { cwd: input.cwd } : {}) });
  }
  if (choice.url.startsWith('file:')) {
    const path = choice.url.slice('file:'.length).replace(/^\/\/(?=\/)/, '');
    if (path === '') throw new DbformError(`${choice.origin}: file: needs a path, e.g. file:dbform.lock.json`);
    return new FileStateStore({ ...common, lockfilePath: isAbsolute(path) ? path : resolve(choice.baseDir ?? '', path), historyPath, owner, ...(input.cwd !== undefined ? { cwd: input.cwd } : {}) });
  }
  if (isPostgresUrl(choice.url)) {
    try {
      return new PgStateStore({ ...common, url: choice.url, env: input.env, ...(input.cwd !== undefined ? { cwd: input.cwd } : {}), ...(input.onLockWait ? { onLockWait: input.onLockWait } : {}) });
    } catch (err) {
      if (err instanceof DbformError) throw new DbformError(`${choice.origin}: ${err.message}`);
      throw err;
    }
  }
  throw new DbformError(`${choice.origin}: the state URL ${redactUrl(choice.url)} is not one dbform knows; use postgres://..., postgresql://... or file:PATH`);
}

/** `cwd`: the run's directory when it is not the process's own. */
export function openJournal(files: string[], cwd?: string): StateJournal {
  return new StateJournal(besideConfig(files, 'state-journal.json'), cwd);
}
