import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { isPidAlive, thisProcess } from '../../../src/cli/local-process.js';
import { acquireFileLock, fileLockPath, removeFileLock } from '../../../src/state/file/file-lock.js';
import { removeTempDirs, tempDir } from '../../support/temp-dir.js';

afterAll(removeTempDirs);

const lockfileIn = () => join(tempDir('dbform-applylock-'), 'dbform.lock.json');

/** A pid that certainly no longer runs: a child that already exited. */
function deadPid(): number {
  const child = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' });
  return Number(child.stdout);
}

describe('apply lock', () => {
  it('writes pid, host, start time and command, and removes the lock on release', async () => {
    const lockfile = lockfileIn();
    const lock = await acquireFileLock(lockfile, { command: 'apply', owner: thisProcess() });
    const content = JSON.parse(readFileSync(fileLockPath(lockfile), 'utf8'));
    expect(content).toMatchObject({ pid: process.pid, host: hostname(), command: 'apply' });
    expect(new Date(content.started_at).toString()).not.toBe('Invalid Date');
    await lock.release();
    expect(existsSync(fileLockPath(lockfile))).toBe(false);
  });

  it('refuses a second holder, naming pid, host and start time and mentioning --force-unlock', async () => {
    const lockfile = lockfileIn();
    const first = await acquireFileLock(lockfile, { command: 'apply', owner: thisProcess() });
    const second = acquireFileLock(lockfile, { command: 'apply', owner: { ...thisProcess(), pid: process.pid + 1 } });
    await expect(second).rejects.toThrow(new RegExp(`pid ${process.pid} on ${hostname()}.*started ${first.holder.started_at}.*--force-unlock`));
    await first.release();
  });

  it('takes over the stale lock of a dead local process, with the old holder reported', async () => {
    const lockfile = lockfileIn();
    const pid = deadPid();
    expect(isPidAlive(pid)).toBe(false);
    writeFileSync(fileLockPath(lockfile), JSON.stringify({ pid, host: hostname(), started_at: '2026-01-01T00:00:00.000Z', command: 'apply' }));
    const lock = await acquireFileLock(lockfile, { command: 'apply', owner: thisProcess() });
    expect(lock.tookOverFrom).toMatchObject({ pid, host: hostname() });
    expect(JSON.parse(readFileSync(fileLockPath(lockfile), 'utf8')).pid).toBe(process.pid);
    await lock.release();
  });

  it('never takes over the lock of another host, even with a dead-looking pid', async () => {
    const lockfile = lockfileIn();
    writeFileSync(fileLockPath(lockfile), JSON.stringify({ pid: deadPid(), host: 'ci-runner-7', started_at: 'x', command: 'apply' }));
    await expect(acquireFileLock(lockfile, { command: 'apply', owner: thisProcess() })).rejects.toThrow(/on ci-runner-7/);
  });

  it('refuses an unreadable lock and --force-unlock removes any lock', async () => {
    const lockfile = lockfileIn();
    writeFileSync(fileLockPath(lockfile), 'garbage');
    await expect(acquireFileLock(lockfile, { command: 'apply', owner: thisProcess() })).rejects.toThrow(/unreadable lock.*--force-unlock/);
    expect(await removeFileLock(lockfile)).toBeNull();
    const lock = await acquireFileLock(lockfile, { command: 'apply', owner: thisProcess() });
    await lock.release();
  });

  it('release leaves a lock that is no longer ours alone', async () => {
    const lockfile = lockfileIn();
    const lock = await acquireFileLock(lockfile, { command: 'apply', owner: thisProcess() });
    await removeFileLock(lockfile);
    const other = await acquireFileLock(lockfile, { command: 'apply', owner: { ...thisProcess(), pid: process.pid + 1 } });
    await lock.release();
    expect(existsSync(fileLockPath(lockfile))).toBe(true);
    await other.release();
    expect(existsSync(fileLockPath(lockfile))).toBe(false);
  });
});
