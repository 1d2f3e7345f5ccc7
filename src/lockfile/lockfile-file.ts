import { randomUUID } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { ConfigError } from '../model/errors.js';
import { emptyLockfile, nextRevision, parseLockfileJson, serializeLockfile, type Lockfile } from '../model/lockfile.js';
import { writeFileAtomic } from './atomic-write.js';
import { realFilePath } from './real-path.js';

export const LOCKFILE_NAME = 'dbform.lock.json';

/** `--lockfile PATH` when given, else `dbform.lock.json` beside the first config file (SPEC section 2). */
export function resolveLockfilePath(configFiles: string[], explicit?: string): string {
  if (explicit) return explicit;
  const first = configFiles[0] ?? 'dbform.yaml';
  return join(dirname(first), LOCKFILE_NAME);
}

/**
 * Reads the lockfile. A missing file is an empty lockfile for `projectId`; a malformed one is a
 * ConfigError naming the file and every problem (never silently replaced: that would lose IDs).
 */
export async function readLockfile(path: string, projectId: string): Promise<Lockfile> {
  return (await readLockfileIfPresent(path, projectId)) ?? emptyLockfile(projectId);
}

/** The same, undefined when the file does not exist (the file state store's workspaces). */
export async function readLockfileIfPresent(path: string, projectId: string): Promise<Lockfile | undefined> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw new ConfigError(`${path}: cannot read the lockfile: ${(err as Error).message}`);
  }
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (err) {
    throw new ConfigError(`${path}: the lockfile is not valid JSON (${(err as Error).message}); fix or restore it from version control`);
  }
  const parsed = parseLockfileJson(data);
  if (!parsed.ok) throw new ConfigError(parsed.errors.map((e) => `${path}: ${e}`).join('\n'));
  if (parsed.value.projectId !== projectId) {
    throw new ConfigError(
      `${path}: the lockfile belongs to project "${parsed.value.projectId}" but the config targets "${projectId}"; use --lockfile to point at the right one`,
    );
  }
  return parsed.value;
}

/**
 * Writes the next revision of `lock` (its lineage, or a new one for a state that has none yet;
 * its serial plus one), sorted and atomic (temp file + rename), and returns what was written.
 * A symlinked lockfile is written where it points: a rename over the link would replace it.
 */
export async function writeLockfile(path: string, lock: Lockfile): Promise<Lockfile> {
  const next = nextRevision(lock, randomUUID());
  await writeFileAtomic(await realFilePath(path), serializeLockfile(next));
  return next;
}
