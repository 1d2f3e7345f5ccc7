export { writeFileAtomic } from './atomic-write.js';
export { LOCKFILE_NAME, readLockfile, readLockfileIfPresent, resolveLockfilePath, writeLockfile } from './lockfile-file.js';
export { describeFileError } from './file-errors.js';
export { realFilePath } from './real-path.js';
