// A run's directory when it is not the process's own: a test runs the CLI inside its own process,
// one run per directory, where a real run of dbform has the process's. Every file a run touches by
// a relative path (a config, the lockfile beside it, a saved plan, a policy, the pgpass file) is
// then joined to that directory; messages keep the path as the user wrote it.

/**
 * `path` as the file system is to be asked for it: as written when `dir` is unset (the process's
 * own directory) or the path is absolute, else joined to `dir` the way the kernel joins a relative
 * path to the working directory (no `..` folded away, so a symlinked folder leads where it would).
 */
export function inDirectory(dir: string | undefined, path: string): string {
  if (dir === undefined || path === '' || isAbsolutePath(path)) return path;
  return dir.endsWith('/') ? `${dir}${path}` : `${dir}/${path}`;
}

/** POSIX `/x`, or a Windows drive (`C:\x`, `C:/x`) or UNC (`\\host\share`) path. */
function isAbsolutePath(path: string): boolean {
  return path.startsWith('/') || /^[A-Za-z]:[\\/]/.test(path) || path.startsWith('\\\\');
}
