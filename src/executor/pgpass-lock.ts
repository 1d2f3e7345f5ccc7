// Several dbform processes may share one pgpass file (~/.pgpass): each rewrite of it happens
// under `<file>.lock`, so two applies never rewrite it from the same old content and lose a line.
import { open, readFile, stat, unlink } from 'node:fs/promises';
import { setTimeout as sleep } from 'node:timers/promises';
import { DbformError, type LocalProcess } from '../model/index.js';

export interface PgpassLockOptions {
  /** Who takes the lock: its pid and host go into it, its isAlive judges a lock left behind. */
  owner: LocalProcess;
  /** How long to wait for a live holder; default 10 s (a rewrite takes milliseconds). */
  waitMs?: number;
}

/** A lock file older than this is stale whoever wrote it: no rewrite takes that long. */
const STALE_AFTER_MS = 60_000;
/** A lock without a readable holder (killed between create and write) is stale after this. */
const UNREADABLE_STALE_AFTER_MS = 2_000;
const RETRY_MS = 15;

/** Runs `work` holding `<path>.lock`; a lock left by a killed process is taken over. */
export async function withPgpassLock<T>(path: string, work: () => Promise<T>, options: PgpassLockOptions): Promise<T> {
  const lockPath = `${path}.lock`;
  const release = await acquire(lockPath, options);
  try {
    return await work();
  } finally {
    await release();
  }
}

async function acquire(lockPath: string, options: PgpassLockOptions): Promise<() => Promise<void>> {
  const me = `${options.owner.pid} ${options.owner.host}\n`;
  const deadline = Date.now() + (options.waitMs ?? 10_000);
  for (;;) {
    if (await createLock(lockPath, me)) return () => releaseIfOurs(lockPath, me);
    const stale = await staleHolder(lockPath, options.owner);
    if (stale !== undefined) {
      // Re-read just before removing, so a lock another process took over meanwhile stays.
      if ((await readFile(lockPath, 'utf8').catch(() => undefined)) === stale) await unlink(lockPath).catch(ignoreMissing);
      continue;
    }
    if (Date.now() >= deadline) {
      const holder = (await readFile(lockPath, 'utf8').catch(() => '')).trim() || 'an unknown process';
      throw new DbformError(
        `the pgpass file is locked by ${holder} (${lockPath}); if no dbform is running, remove that file and run the command again`,
      );
    }
    await sleep(RETRY_MS);
  }
}

async function createLock(lockPath: string, text: string): Promise<boolean> {
  let handle;
  try {
    handle = await open(lockPath, 'wx', 0o600);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw err;
  }
  try {
    await handle.writeFile(text, 'utf8');
  } finally {
    await handle.close();
  }
  return true;
}

/**
 * The content of a stale lock, undefined when the lock is live (or gone). Stale: its process (on
 * this host) is gone, it names no holder after a moment, or it is older than any rewrite.
 */
async function staleHolder(lockPath: string, owner: LocalProcess): Promise<string | undefined> {
  let text: string;
  let age: number;
  try {
    [text, age] = await Promise.all([readFile(lockPath, 'utf8'), stat(lockPath).then((s) => Date.now() - s.mtimeMs)]);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined; // released meanwhile: try again
    throw err;
  }
  const match = /^(\d+) (\S+)\n?$/.exec(text);
  const stale = age > STALE_AFTER_MS || (match ? match[2] === owner.host && !owner.isAlive(Number(match[1])) : age > UNREADABLE_STALE_AFTER_MS);
  return stale ? text : undefined;
}

async function releaseIfOurs(lockPath: string, me: string): Promise<void> {
  const text = await readFile(lockPath, 'utf8').catch(() => undefined);
  if (text === me) await unlink(lockPath).catch(ignoreMissing);
}

function ignoreMissing(err: unknown): void {
  if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
}
