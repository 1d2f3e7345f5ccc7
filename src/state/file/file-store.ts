// The state store over the lockfile file (the embedded default, SPEC sections 2 and 10): one file
// per workspace, history as JSON lines in .dbform/history.jsonl, the state lock as `<lockfile>.lock`
// (file-lock.ts).
import { readdir, readFile, unlink } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { describeFileError, readLockfileIfPresent, realFilePath, writeFileAtomic } from '../../lockfile/index.js';
import { DbformError, emptyLockfile, inDirectory, nextRevision, parseLockfileJson, serializeLockfile, type LocalProcess, type Lockfile } from '../../model/index.js';
import { checkWritable, newLineage } from '../document.js';
import { ownedSnapshot, OwnershipError, type OtherWorkspaces } from '../ownership.js';
import { ClaimConflictError, StateConflictError, StateLockHeldError, WorkspaceNotEmptyError } from '../errors.js';
import { countsAsApply, type HistoryRecord } from '../history.js';
import type { LockHolderInfo } from '../holder.js';
import { versionOf, type ForceUnlockOutcome, type ForeignClaim, type LockOptions, type ReadOptions, type StateLock, type StateSnapshot, type StateStore, type StateVersion, type UnlockOutcome, type WorkspaceSummary } from '../port.js';
import { DEFAULT_WORKSPACE } from '../workspace.js';
import { readExpiry, removeExpiry, writeExpiry } from './expiry-file.js';
import { acquireFileLock, fileLockPath, removeFileLock, type FileLockHolder } from './file-lock.js';
import { appendHistoryLine, readHistoryFile } from './history-file.js';
import { workspaceLockfilePath, workspaceOfFile } from './paths.js';

export interface FileStoreOptions {
  /** The default workspace's lockfile (`--lockfile`, or dbform.lock.json beside the config). */
  lockfilePath: string;
  projectId: string;
  workspace: string;
  /** `.dbform/history.jsonl` beside the config. */
  historyPath: string;
  /** How often a waiting lock looks again (--lock-timeout); default 250 ms. */
  lockPollMs?: number;
  /** The process that takes the apply lock, and judges whether a lock left on this host is stale. */
  owner: LocalProcess;
  /** Where relative paths are read from, when not the process's directory (model/run-directory.ts). */
  cwd?: string;
}

export class FileStateStore implements StateStore {
  readonly kind = 'file' as const;
  readonly location: string;
  readonly projectId: string;
  readonly workspace: string;
  private readonly o: FileStoreOptions;
  private real: Promise<string> | undefined;

  constructor(o: FileStoreOptions) {
    this.o = o;
    this.projectId = o.projectId;
    this.workspace = o.workspace;
    this.location = workspaceLockfilePath(o.lockfilePath, o.workspace);
  }

  /** `path` (as messages name it) where the file system finds it. */
  private fs(path: string): string {
    return inDirectory(this.o.cwd, path);
  }

  /**
   * The file itself, symlinks resolved: one apply per lockfile however it is spelled, and atomic
   * writes replace the file, not a symlink to it (SPEC section 2).
   */
  private path(): Promise<string> {
    this.real ??= realFilePath(this.fs(this.location)).catch((err: unknown) => {
      throw new DbformError(`cannot resolve the lockfile path ${this.location}: ${describeFileError(err)}`, { cause: err });
    });
    return this.real;
  }

  async read(options?: ReadOptions): Promise<StateSnapshot> {
    const lockfile = (await this.readFileState(await this.path())) ?? emptyLockfile(this.projectId);
    const others = await this.otherWorkspaces(lockfile.lineage);
    return ownedSnapshot({ lockfile, projectId: this.projectId, workspace: this.workspace, location: this.location, others, ...(options ? { options } : {}) });
  }

  /** The state in `path`; undefined when the file does not exist. */
  private readFileState(path: string): Promise<Lockfile | undefined> {
    return readLockfileIfPresent(this.fs(path), this.projectId);
  }

  /** The lockfiles of this project's workspaces beside this one: name -> path (as messages name it). */
  private async workspaceFiles(): Promise<Map<string, string>> {
    const dir = dirname(this.o.lockfilePath);
    const out = new Map<string, string>();
    let names: string[];
    try {
      names = await readdir(this.fs(dir));
    } catch {
      return out;
    }
    for (const name of names.sort()) {
      const ws = workspaceOfFile(this.o.lockfilePath, name);
      if (ws !== undefined) out.set(ws, join(dir, name));
    }
    return out;
  }

  /**
   * What the sibling lockfiles bind, and which of them has `lineage` (a copied lockfile). A sibling
   * that cannot be read leaves ownership unknown: an error, never skipped. A lockfile of another
   * project beside this one is not a workspace of it.
   */
  private async otherWorkspaces(lineage?: string): Promise<OtherWorkspaces> {
    const claims = new Map<string, ForeignClaim>();
    const sameLineage: OtherWorkspaces['sameLineage'] = [];
    for (const [workspace, path] of await this.workspaceFiles()) {
      if (workspace === this.workspace) continue;
      const state = await readSibling(path, this.fs(path), this.projectId);
      if (state === undefined) continue;
      if (lineage !== undefined && state.lineage === lineage) sameLineage.push({ workspace, location: path });
      for (const [address, entry] of Object.entries(state.resources)) claims.set(entry.id, { workspace, address });
    }
    return { claims, sameLineage };
  }

  /**
   * Compare-and-swap by reading the file just before replacing it. Two writers of one workspace
   * are kept apart by the apply lock; this catches a file changed behind dbform's back.
   */
  async write(next: Lockfile, expected: StateVersion): Promise<void> {
    checkWritable(next, this.location);
    const real = await this.path();
    const now = await this.readFileState(real);
    const nowVersion = now ? versionOf(now) : { lineage: null, serial: 0 };
    // A lockfile of before lineage/serial reads as serial 0 of no lineage; its first write upgrades it.
    if (nowVersion.serial !== expected.serial || (now !== undefined && nowVersion.lineage !== expected.lineage)) {
      throw new StateConflictError(
        `${this.location} changed while dbform was using it (expected serial ${expected.serial}, found ${nowVersion.serial}); nothing was overwritten`,
      );
    }
    const others = (await this.otherWorkspaces()).claims;
    for (const [address, entry] of Object.entries(next.resources).sort(([a], [b]) => a.localeCompare(b))) {
      const clash = others.get(entry.id);
      if (clash) {
        throw new ClaimConflictError(
          `resource ID ${entry.id} (${address}) is already bound to ${clash.address} in workspace "${clash.workspace}"; ` +
            `a resource belongs to one workspace only. Nothing was written to ${this.location}`,
          { resourceId: entry.id, ...clash },
        );
      }
    }
    await writeFileAtomic(real, serializeLockfile(next));
  }

  async lock(holder: LockHolderInfo, options: LockOptions): Promise<StateLock> {
    const deadline = Date.now() + Math.max(0, options.timeoutMs);
    for (;;) {
      try {
        const taken = await acquireFileLock(await this.path(), { command: holder.command, owner: this.o.owner });
        const never = new AbortController();
        return {
          holder,
          ...(taken.tookOverFrom ? { tookOverFrom: holderInfo(taken.tookOverFrom) } : {}),
          lost: never.signal,
          release: () => taken.release(),
          releaseSync: () => taken.releaseSync(),
        };
      } catch (err) {
        if (!(err instanceof StateLockHeldError) || Date.now() >= deadline) throw err;
        await new Promise((r) => setTimeout(r, Math.min(this.o.lockPollMs ?? 250, Math.max(1, deadline - Date.now()))));
      }
    }
  }

  appendHistory(record: HistoryRecord): Promise<void> {
    return appendHistoryLine(this.o.historyPath, record, this.o.cwd);
  }

  async readHistory(limit?: number): Promise<HistoryRecord[]> {
    const all = (await readHistoryFile(this.o.historyPath, this.o.cwd)).filter((r) => r.workspace === this.workspace);
    return limit === undefined ? all : all.slice(0, limit);
  }

  async listWorkspaces(): Promise<WorkspaceSummary[]> {
    const history = await readHistoryFile(this.o.historyPath, this.o.cwd);
    const out: WorkspaceSummary[] = [];
    for (const [workspace, path] of await this.workspaceFiles()) {
      const state = await this.readFileState(path);
      if (!state) continue;
      const last = history.find((r) => r.workspace === workspace && countsAsApply(r));
      out.push({
        workspace,
        resources: Object.keys(state.resources).length,
        serial: state.serial ?? 0,
        lastApply: last ? last.finishedAt || last.startedAt : null,
        expiresAt: await readExpiry(path, this.o.cwd),
      });
    }
    return out.sort((a, b) => (a.workspace < b.workspace ? -1 : a.workspace > b.workspace ? 1 : 0));
  }

  /** As on PostgreSQL, a workspace with no state yet gets an empty one: it is listed, and swept, from now on. */
  async setExpiry(expiresAt: Date): Promise<void> {
    if ((await this.readFileState(await this.path())) === undefined) {
      await this.write(nextRevision(emptyLockfile(this.projectId), newLineage()), { lineage: null, serial: 0 });
    }
    await writeExpiry(this.location, expiresAt, this.o.cwd);
  }

  async deleteWorkspace(workspace: string): Promise<void> {
    if (workspace === DEFAULT_WORKSPACE) throw new DbformError('the default workspace cannot be deleted');
    const path = workspaceLockfilePath(this.o.lockfilePath, workspace);
    const state = await this.readFileState(path);
    if (!state) throw new DbformError(`there is no workspace "${workspace}": ${path} does not exist`);
    const count = Object.keys(state.resources).length;
    if (count > 0) {
      throw new WorkspaceNotEmptyError(
        `workspace "${workspace}" still binds ${count} resource(s); run \`dbform destroy --workspace ${workspace}\` first (nothing was deleted)`,
      );
    }
    const taken = await acquireFileLock(await realFilePath(this.fs(path)), { command: 'dbform workspace delete', owner: this.o.owner });
    try {
      await unlink(this.fs(path));
      await removeExpiry(path, this.o.cwd);
    } finally {
      await taken.release();
    }
  }

  /** `--force-unlock`: the lock file is removed whoever holds it (the holder it named, if readable). */
  async forceUnlock(): Promise<ForceUnlockOutcome> {
    const lock = fileLockPath(this.location);
    const removed = await removeFileLock(await this.path());
    if (removed === undefined) return { kind: 'none' };
    return { kind: 'removed', lock, holder: removed === null ? null : holderInfo(removed) };
  }

  async unlock(): Promise<UnlockOutcome> {
    const path = fileLockPath(await this.path());
    let data: Record<string, unknown>;
    try {
      data = JSON.parse(await readFile(path, 'utf8')) as Record<string, unknown>;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return { holder: null, alive: false, cleared: false };
      data = {};
    }
    const holder: LockHolderInfo = {
      pid: typeof data.pid === 'number' ? data.pid : 0,
      host: typeof data.host === 'string' ? data.host : '?',
      user: typeof data.user === 'string' ? data.user : '?',
      command: typeof data.command === 'string' ? data.command : '?',
      startedAt: typeof data.started_at === 'string' ? data.started_at : '?',
      ciRun: typeof data.ci_run === 'string' ? data.ci_run : null,
    };
    // Only a process of this host can be seen to be gone; another host's lock is left to --force-unlock.
    const alive = holder.host !== this.o.owner.host || (holder.pid > 0 && this.o.owner.isAlive(holder.pid));
    if (alive) return { holder, alive, cleared: false };
    await unlink(path).catch(() => undefined);
    return { holder, alive, cleared: true };
  }

  async close(): Promise<void> {}
}

/** The file lock's holder in the port's terms: the file records neither the user nor the CI run. */
function holderInfo(h: FileLockHolder): LockHolderInfo {
  return { pid: h.pid, host: h.host, user: '?', command: h.command, startedAt: h.started_at, ciRun: null };
}

/** A sibling workspace's lockfile (`path` as messages name it, at `file`); undefined when it is gone or belongs to another project. */
async function readSibling(path: string, file: string, projectId: string): Promise<Lockfile | undefined> {
  let data: unknown;
  try {
    data = JSON.parse(await readFile(file, 'utf8'));
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw unknownOwner(path, err instanceof SyntaxError ? `it is not valid JSON (${err.message})` : describeFileError(err));
  }
  const parsed = parseLockfileJson(data);
  if (!parsed.ok) throw unknownOwner(path, parsed.errors.join('; '));
  return parsed.value.projectId === projectId ? parsed.value : undefined;
}

function unknownOwner(path: string, why: string): OwnershipError {
  return new OwnershipError(
    `cannot tell which resources the workspace of ${path} binds: ${why}. Fix or remove that lockfile; nothing was planned, sent or printed`,
  );
}
