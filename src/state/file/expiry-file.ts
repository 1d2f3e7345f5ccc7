// The file store keeps a workspace's expiry (`apply --ttl`, SPEC section 11) beside its lockfile,
// in `<lockfile>.expiry.json` ({"expires_at": "<ISO time>"}), so the lockfile's format, which is
// committed and diffed, never changes with an expiry. The name cannot be taken for a workspace's
// lockfile: workspace names hold no dot.
import { readFile, unlink } from 'node:fs/promises';
import { describeFileError, writeFileAtomic } from '../../lockfile/index.js';
import { DbformError, inDirectory } from '../../model/index.js';

export const expiryPath = (lockfilePath: string): string => `${lockfilePath}.expiry.json`;

/** `cwd`: where a relative lockfile path is read from, when given (model/run-directory.ts). */
export async function writeExpiry(lockfilePath: string, expiresAt: Date, cwd?: string): Promise<void> {
  const path = expiryPath(lockfilePath);
  try {
    await writeFileAtomic(inDirectory(cwd, path), `${JSON.stringify({ expires_at: expiresAt.toISOString() }, null, 2)}\n`);
  } catch (err) {
    throw new DbformError(`cannot record the workspace's expiry in ${path}: ${describeFileError(err)}`, { cause: err });
  }
}

/** The recorded expiry (ISO time), or null when none is recorded or the file cannot be read as one. */
export async function readExpiry(lockfilePath: string, cwd?: string): Promise<string | null> {
  try {
    const data = JSON.parse(await readFile(inDirectory(cwd, expiryPath(lockfilePath)), 'utf8')) as { expires_at?: unknown };
    return typeof data.expires_at === 'string' && !Number.isNaN(Date.parse(data.expires_at)) ? new Date(data.expires_at).toISOString() : null;
  } catch {
    return null;
  }
}

export async function removeExpiry(lockfilePath: string, cwd?: string): Promise<void> {
  await unlink(inDirectory(cwd, expiryPath(lockfilePath))).catch((err: NodeJS.ErrnoException) => {
    if (err.code !== 'ENOENT') throw new DbformError(`cannot remove ${expiryPath(lockfilePath)}: ${describeFileError(err)}`, { cause: err });
  });
}
