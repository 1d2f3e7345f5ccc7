// The one name of a lockfile, whatever spelling reached it: the apply lock and the atomic
// writes must act on the file itself, not on a symlink to it (SPEC section 5).
import { lstat, readlink, realpath } from 'node:fs/promises';
import { basename, dirname, join, resolve } from 'node:path';

const MAX_LINKS = 40;

/**
 * `path` with every symlink resolved, for a file that may not exist yet: a missing file's
 * directory is resolved (it may itself be a symlink, or not exist yet either), and a symlink
 * to a missing file resolves to where the file will be.
 */
export async function realFilePath(path: string): Promise<string> {
  let current = resolve(path);
  for (let hops = 0; hops < MAX_LINKS; hops++) {
    try {
      return await realpath(current);
    } catch (err) {
      if (!isMissing(err)) throw err;
    }
    const link = await readLinkIfAny(current);
    if (link === undefined) return join(await realDirectory(dirname(current)), basename(current));
    current = resolve(dirname(current), link);
  }
  return current;
}

async function realDirectory(dir: string): Promise<string> {
  if (dirname(dir) === dir) return dir;
  return realFilePath(dir);
}

/** The target of `path` when it is a symlink (dangling: its target is missing), else undefined. */
async function readLinkIfAny(path: string): Promise<string | undefined> {
  try {
    if (!(await lstat(path)).isSymbolicLink()) return undefined;
    return await readlink(path);
  } catch (err) {
    if (isMissing(err)) return undefined;
    throw err;
  }
}

function isMissing(err: unknown): boolean {
  const code = (err as NodeJS.ErrnoException).code;
  return code === 'ENOENT' || code === 'ENOTDIR';
}
