// The file store's mutex (SPEC section 5): one apply at a time per lockfile, `<lockfile>.lock` holding
// who runs. Not the lockfile (the state document) nor the working state of a run (working-state.ts).
import { randomBytes } from 'node:crypto';
import { link, mkdir, open, readFile, unlink } from 'node:fs/promises';
import { readFileSync, unlinkSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { describeFileError } from '../../lockfile/file-errors.js';
import { DbformError, type LocalProcess } from '../../model/index.js';
import { StateLockHeldError } from '../errors.js';

export interface FileLockHolder {
  pid: number;
  host: string;
  started_at: string;
  command: string;
}

export interface FileLock {
  path: string;
  holder: FileLockHolder;
  /** The dead holder whose stale lock was taken over, if any (the CLI prints a notice). */
  tookOverFrom?: FileLockHolder;
  release(): Promise<void>;
  /** For a process that is about to exit at once (a second Ctrl-C): same as release, synchronous. */
  releaseSync(): void;
}

export interface AcquireOptions {
  command: string;
  /** Who takes the lock: its pid and host go into the lock, its isAlive judges a lock left behind. */
  owner: LocalProcess;
  now?: () => Date;
}

export function fileLockPath(lockfilePath: string): string {
  return `${lockfilePath}.lock`;
}

export async function acquireFileLock(lockfilePath: string, options: AcquireOptions): Promise<FileLock> {
  const path = fileLockPath(lockfilePath);
  const holder: FileLockHolder = {
    pid: options.owner.pid,
    host: options.owner.host,
    started_at: (options.now?.() ?? new Date()).toISOString(),
    command: options.command,
  };
  const text = `${JSON.stringify(holder, null, 2)}\n`;
  let tookOverFrom: FileLockHolder | undefined;
  // Two rounds: the second follows the removal of a stale lock.
  for (let round = 0; round < 2; round++) {
    if (await createInDirectory(path, text)) {
      return {
        path,
        holder,
        ...(tookOverFrom ? { tookOverFrom } : {}),
        release: () => releaseIfOurs(path, holder),
        releaseSync: () => releaseIfOursSync(path, holder),
      };
    }
    const { holder: live, raw } = await readHolder(path);
    if (live === undefined) continue; // removed between our create and our read: try again
    if (live === null || !isStale(live, holder.host, options.owner.isAlive)) throw heldError(path, live, raw);
    // Re-read just before removing so a lock someone else took over meanwhile is left alone.
    const again = await readHolder(path);
    if (again.raw !== raw) continue;
    await unlink(path).catch(ignoreMissing);
    tookOverFrom = live;
  }
  const { holder: live, raw } = await readHolder(path);
  throw heldError(path, live ?? null, raw);
}

/** `--force-unlock`: removes the lock whoever holds it. Returns the holder that was removed. */
export async function removeFileLock(lockfilePath: string): Promise<FileLockHolder | null | undefined> {
  const path = fileLockPath(lockfilePath);
  const { holder } = await readHolder(path);
  await unlink(path).catch(ignoreMissing);
  return holder;
}

/** The lockfile's directory is created when missing (the lockfile will be written there too). */
async function createInDirectory(path: string, text: string): Promise<boolean> {
  try {
    await mkdir(dirname(path), { recursive: true });
  } catch (err) {
    throw new DbformError(`cannot create the directory ${dirname(path)} of the lockfile: ${describeFileError(err)}`, { cause: err });
  }
  try {
    return await createExclusive(path, text);
  } catch (err) {
    throw new DbformError(`cannot take the apply lock ${path}: ${describeFileError(err)}`, { cause: err });
  }
}

/**
 * Exclusive create with its content already in place: the lock is written to a temp file and
 * hard-linked to its name, which fails if the name exists (like `wx`), so a crash can never leave
 * an empty lock. Filesystems without hard links fall back to an `open(..., 'wx')`.
 */
async function createExclusive(path: string, text: string): Promise<boolean> {
  const tmp = join(dirname(path), `.${basename(path)}.${randomBytes(8).toString('hex')}`);
  const handle = await open(tmp, 'wx', 0o644);
  try {
    await handle.writeFile(text, 'utf8');
  } finally {
    await handle.close();
  }
  try {
    await link(tmp, path);
    return true;
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'EEXIST') return false;
    if (code !== 'EPERM' && code !== 'ENOTSUP' && code !== 'EOPNOTSUPP' && code !== 'ENOSYS') throw err;
    return createWithWx(path, text);
  } finally {
    await unlink(tmp).catch(ignoreMissing);
  }
}

async function createWithWx(path: string, text: string): Promise<boolean> {
  try {
    const handle = await open(path, 'wx', 0o644);
    try {
      await handle.writeFile(text, 'utf8');
    } finally {
      await handle.close();
    }
    return true;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw err;
  }
}

/** holder: undefined when the file is missing, null when unreadable. */
async function readHolder(path: string): Promise<{ holder: FileLockHolder | null | undefined; raw: string }> {
  let raw: string;
  try {
    raw = await readFile(path, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return { holder: undefined, raw: '' };
    throw err;
  }
  try {
    const data = JSON.parse(raw) as Partial<FileLockHolder>;
    if (typeof data.pid !== 'number' || typeof data.host !== 'string') return { holder: null, raw };
    return {
      holder: { pid: data.pid, host: data.host, started_at: String(data.started_at ?? '?'), command: String(data.command ?? '?') },
      raw,
    };
  } catch {
    return { holder: null, raw };
  }
}

/** Only a lock of this host whose process is gone is stale; another host's lock never is. */
function isStale(holder: FileLockHolder, host: string, isAlive: (pid: number) => boolean): boolean {
  return holder.host === host && !isAlive(holder.pid);
}

function heldError(path: string, holder: FileLockHolder | null, raw: string): StateLockHeldError {
  const who =
    holder === null
      ? `an unreadable lock (${JSON.stringify(raw.slice(0, 80))})`
      : `pid ${holder.pid} on ${holder.host} (${holder.command}, started ${holder.started_at})`;
  return new StateLockHeldError(
    `another dbform apply holds the lock ${path}: ${who}. Wait for it to finish; if it is no longer running, remove the lock with --force-unlock`,
  );
}

async function releaseIfOurs(path: string, holder: FileLockHolder): Promise<void> {
  const { holder: live } = await readHolder(path).catch(() => ({ holder: undefined }));
  if (live && live.pid === holder.pid && live.host === holder.host && live.started_at === holder.started_at) {
    await unlink(path).catch(ignoreMissing);
  }
}

function releaseIfOursSync(path: string, holder: FileLockHolder): void {
  try {
    const live = JSON.parse(readFileSync(path, 'utf8')) as Partial<FileLockHolder>;
    if (live.pid === holder.pid && live.host === holder.host && live.started_at === holder.started_at) unlinkSync(path);
  } catch {
    // Missing or unreadable: not ours to remove.
  }
}

function ignoreMissing(err: unknown): void {
  if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
}
