// The state port (SPEC section 10, STYLE "State is a port"): where the lockfile document lives is
// the store's business. The planner sees a Lockfile value; the executor writes through `write`.
// Two stores implement it: the lockfile file (file-store.ts) and PostgreSQL (pg/pg-store.ts).
// Modelled on Terraform's statemgr (Refresher / Persister / Locker), minus its pg backend's
// global lock key and holder-less lock errors.
import type { Lockfile } from '../model/index.js';
import type { HistoryRecord } from './history.js';
import type { LockHolderInfo } from './holder.js';

/** The state's identity and version. lineage null: no state was ever written (serial 0). */
export interface StateVersion {
  lineage: string | null;
  serial: number;
}

/** A resource ID bound by another workspace of the same project. */
export interface ForeignClaim {
  workspace: string;
  address: string;
}

export interface StateSnapshot {
  /** With the state's lineage and serial (both absent: no state was ever written). */
  lockfile: Lockfile;
  /** resource ID -> the other workspace and address that bind it (adoption must not take these). */
  claimedElsewhere: Map<string, ForeignClaim>;
}

export interface ReadOptions {
  /**
   * `state rm` only: a binding of an ID another workspace binds is returned instead of refused,
   * so that it can be removed. Every write still refuses to store such a binding, and a state of
   * another lineage is refused as always.
   */
  foreignBindings?: 'allow';
}

export function versionOf(lock: Lockfile): StateVersion {
  return { lineage: lock.lineage ?? null, serial: lock.serial ?? 0 };
}

export interface StateLock {
  holder: LockHolderInfo;
  /** A dead holder whose leftover lock was taken over (file store only: PostgreSQL never leaves one). */
  tookOverFrom?: LockHolderInfo;
  /** Aborts when the lock is lost (its session died): nothing new may start then. */
  lost: AbortSignal;
  release(): Promise<void>;
  /** For a process about to exit at once (a second Ctrl-C). */
  releaseSync(): void;
}

export interface LockOptions {
  /** 0: fail at once naming the holder; else wait up to this long. */
  timeoutMs: number;
}

export interface WorkspaceSummary {
  workspace: string;
  resources: number;
  serial: number;
  /** ISO time of the last apply or destroy recorded in history, if any. */
  lastApply: string | null;
  /** ISO time after which the workspace may be swept (SPEC section 11); null: none. */
  expiresAt: string | null;
}

/** What `state unlock` found and did. */
export interface UnlockOutcome {
  holder: LockHolderInfo | null;
  /** Whether the holder's session (or process) is still alive: then nothing is cleared. */
  alive: boolean;
  cleared: boolean;
}

/** What `--force-unlock` found and did, before the lock is taken. */
export type ForceUnlockOutcome =
  /** File store: the lock file was removed whoever held it (holder null: it was unreadable). */
  | { kind: 'removed'; lock: string; holder: LockHolderInfo | null }
  /** PostgreSQL: the holder row of a session that is gone was cleared. */
  | { kind: 'cleared'; holder: LockHolderInfo }
  /** PostgreSQL: a live session holds the lock, which ends only with that session. */
  | { kind: 'alive'; holder: LockHolderInfo }
  | { kind: 'none' };

export interface StateStore {
  readonly kind: 'file' | 'postgres';
  /** Where the state lives, printable: a path, or the URL without its password. */
  readonly location: string;
  readonly projectId: string;
  readonly workspace: string;
  /**
   * The document and the IDs other workspaces bind. PostgreSQL: one query. The ownership authority
   * (ownership.ts): a state that binds what another workspace owns is refused here.
   */
  read(options?: ReadOptions): Promise<StateSnapshot>;
  /**
   * Compare-and-swap: stores `next` (whose lineage and serial are those it is stored under) if
   * the state is still at `expected` (serial 0: absent); otherwise StateConflictError and
   * nothing is written. An ID bound by another workspace: ClaimConflictError.
   */
  write(next: Lockfile, expected: StateVersion): Promise<void>;
  lock(holder: LockHolderInfo, options: LockOptions): Promise<StateLock>;
  appendHistory(record: HistoryRecord): Promise<void>;
  /** Newest first; all records of this workspace when limit is undefined. */
  readHistory(limit?: number): Promise<HistoryRecord[]>;
  listWorkspaces(): Promise<WorkspaceSummary[]>;
  /**
   * Records when this workspace may be swept (`apply --ttl`, SPEC section 11), replacing any
   * earlier expiry. Called under the workspace's lock. PostgreSQL: the state row's expires_at (an
   * empty state is created for a workspace that has none yet); file: `<lockfile>.expiry.json`.
   */
  setExpiry(expiresAt: Date): Promise<void>;
  /** Removes an empty workspace's state; refuses (WorkspaceNotEmptyError) while it binds resources. */
  deleteWorkspace(workspace: string): Promise<void>;
  /** Shows the holder of this workspace's lock; clears it when its session or process is gone. */
  unlock(): Promise<UnlockOutcome>;
  /**
   * `--force-unlock`: the file store removes its lock file whoever holds it; PostgreSQL clears a
   * holder row whose session is gone (a live session's lock ends only with that session).
   */
  forceUnlock(): Promise<ForceUnlockOutcome>;
  close(): Promise<void>;
}
