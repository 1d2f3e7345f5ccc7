// The state as a run changes it (the executor's StateBindings port, src/executor/ports.ts). Every
// change lands in memory at once (so the address -> ID map is always current) and is then
// persisted: writes are serialized and each one writes the latest snapshot (atomically for the
// lockfile), so parallel actions never lose an entry and a crash at any moment leaves a whole
// document holding every ID recorded before it. Not the lockfile itself (the document) nor the
// state lock (the mutex: file/file-lock.ts, pg/pg-lock.ts).
import { writeLockfile } from '../lockfile/index.js';
import { bindRetiring, type Address, type LockEntry, type Lockfile } from '../model/index.js';

/**
 * Persists `lock` (whose lineage and serial are those of the last write) and returns the revision
 * it wrote, with its new serial; a writer that returns nothing leaves them as they were.
 */
export type StatePersister = (location: string, lock: Lockfile) => Promise<Lockfile | void>;

export class WorkingState {
  /** Where the state lives: the lockfile path, or the store's location. */
  readonly location: string;
  private readonly lock: Lockfile;
  private readonly write: StatePersister;
  /** The write in progress (or the last one); the next write chains after it. */
  private writing: Promise<void> = Promise.resolve();
  /** A write queued behind `writing`; later changes ride along with it. */
  private queued: Promise<void> | undefined;
  private readonly listeners: Array<(entries: number) => void> = [];

  constructor(location: string, lock: Lockfile, write: StatePersister = writeLockfile) {
    this.location = location;
    this.lock = { ...revisionOf(lock), version: 1, projectId: lock.projectId, resources: { ...lock.resources } };
    this.write = write;
  }

  get projectId(): string {
    return this.lock.projectId;
  }

  get(address: Address): LockEntry | undefined {
    const entry = this.lock.resources[address];
    return entry ? { ...entry } : undefined;
  }

  idOf(address: Address): string | undefined {
    return this.lock.resources[address]?.id;
  }

  /** A copy of the state as it is in memory now. */
  snapshot(): Lockfile {
    const resources: Record<Address, LockEntry> = {};
    for (const [a, e] of Object.entries(this.lock.resources)) resources[a] = { ...e };
    return { ...revisionOf(this.lock), version: 1, projectId: this.lock.projectId, resources };
  }

  /** The lockfile as it is in memory now, without a copy: for reading at once, never for keeping or changing. */
  peek(): Readonly<Lockfile> {
    return this.lock;
  }

  onWritten(listener: (entries: number) => void): void {
    this.listeners.push(listener);
  }

  /**
   * Binds `address` to `id`, keeping the entry's other fields when the ID is unchanged; an entry a
   * restore marked retires in the same write (model/restore.ts: bindRetiring).
   */
  bind(address: Address, id: string, extra: Omit<LockEntry, 'id'> = {}): Promise<void> {
    bindRetiring(this.lock.resources, address, id, extra);
    return this.persist();
  }

  /** Changes fields of an existing entry; a missing entry is left alone. */
  update(address: Address, patch: Omit<LockEntry, 'id'>): Promise<void> {
    const entry = this.lock.resources[address];
    if (!entry) return this.persist();
    this.lock.resources[address] = { ...entry, ...patch };
    return this.persist();
  }

  /**
   * Ends the entry's pending operation (SPEC section 14): seen to finish (`applied`: the values it
   * set, in the vocabulary of drift's record, merged into the entry's) or to fail (none).
   */
  endPending(address: Address, applied?: Record<string, unknown>): Promise<void> {
    const entry = this.lock.resources[address];
    if (!entry || (entry.pending === undefined && applied === undefined)) return this.flush();
    const { pending: _pending, ...rest } = entry;
    this.lock.resources[address] = applied === undefined ? rest : { ...rest, applied: { ...entry.applied, ...applied } };
    return this.persist();
  }

  remove(address: Address): Promise<void> {
    delete this.lock.resources[address];
    return this.persist();
  }

  move(from: Address, to: Address): Promise<void> {
    const entry = this.lock.resources[from];
    if (entry) {
      delete this.lock.resources[from];
      this.lock.resources[to] = entry;
    }
    return this.persist();
  }

  /** Resolves once every change made so far is on disk. */
  flush(): Promise<void> {
    return this.queued ?? this.writing;
  }

  private persist(): Promise<void> {
    if (this.queued) return this.queued;
    const next = this.writing
      .catch(() => undefined)
      .then(async () => {
        this.queued = undefined;
        const snapshot = this.snapshot();
        const written = await this.write(this.location, snapshot);
        if (written) Object.assign(this.lock, revisionOf(written));
        const count = Object.keys(snapshot.resources).length;
        for (const l of this.listeners) l(count);
      });
    this.queued = next;
    this.writing = next;
    return next;
  }
}

function revisionOf(lock: Lockfile): Pick<Lockfile, 'lineage' | 'serial'> {
  return { ...(lock.lineage !== undefined ? { lineage: lock.lineage } : {}), ...(lock.serial !== undefined ? { serial: lock.serial } : {}) };
}
