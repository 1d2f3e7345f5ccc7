// File-system failures in words a person can act on, instead of a bare errno.

/** Why a file could not be read or written: `permission denied`, `it is a directory`, ... */
export function describeFileError(err: unknown): string {
  const code = (err as NodeJS.ErrnoException | null)?.code;
  switch (code) {
    case 'EACCES':
    case 'EPERM':
      return 'permission denied';
    case 'EISDIR':
      return 'it is a directory';
    case 'ENOTDIR':
      return 'a part of its path is a file, not a directory';
    case 'EEXIST':
      return 'a file of that name is in the way';
    case 'ENOENT':
      return 'its directory does not exist';
    case 'EROFS':
      return 'the file system is read-only';
    case 'ENOSPC':
      return 'no space left on the device';
    case 'EDQUOT':
      return 'disk quota exceeded';
    case 'ENAMETOOLONG':
      return 'the path is too long';
    default:
      return err instanceof Error ? err.message : String(err);
  }
}
