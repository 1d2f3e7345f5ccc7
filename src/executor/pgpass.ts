// A created service's initial password goes to a pgpass file and nowhere else (SPEC section 5);
// a configured password replaces it there, its line follows the service's endpoint when an attach
// or detach moves it (SPEC section 15), and a deleted service's lines leave with it.
import { constants } from 'node:fs';
import { access, mkdir, open, readdir, readFile, realpath, stat, unlink } from 'node:fs/promises';
import { homedir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { writeFileAtomic } from '../lockfile/atomic-write.js';
import { describeFileError } from '../lockfile/file-errors.js';
import type { LocalProcess, PgpassEntry } from '../model/index.js';
import { PgpassLines } from './pgpass-lines.js';
import { withPgpassLock } from './pgpass-lock.js';

export { escapePgpassField, formatPgpassLine, parsePgpassLine, type PgpassEntry } from '../model/index.js';

/** `--pgpass PATH`, else `PGPASSFILE`, else `~/.pgpass` (the HOME of `env`, which os.homedir() reads for this process). */
export function resolvePgpassPath(explicit: string | undefined, env: NodeJS.ProcessEnv): string {
  if (explicit) return explicit;
  if (env.PGPASSFILE) return env.PGPASSFILE;
  return join(env.HOME ?? homedir(), '.pgpass');
}

type Change = (lines: PgpassLines) => void;

/**
 * The pgpass file as dbform changes it: a created service's initial password, the configured
 * password that replaces it, and the removal of the lines of a deleted service. Every change is a
 * whole rewrite (temp file, fsync, rename; mode 0600), one at a time within this process and under
 * `<file>.lock` across processes, so parallel creates never lose a line and a kill at any moment
 * leaves the old file or the new one, never a torn or empty one. A symlinked file is rewritten
 * where it points.
 */
export class PgpassWriter {
  readonly path: string;
  private readonly owner: LocalProcess;
  /** Changes not yet written, in order; the next rewrite applies them all at once. */
  private pending: Array<{ change: Change; settle: (error?: unknown) => void }> = [];
  private writing = false;
  /** Rewrites started so far (for tests and the bench). */
  rewrites = 0;

  /** `owner`: the process that rewrites, as `<file>.lock` records it. */
  constructor(path: string, owner: LocalProcess) {
    this.path = path;
    this.owner = owner;
  }

  /** Sets the password of the entry's login: its line is replaced in place, or added at the end. */
  save(entry: PgpassEntry): Promise<void> {
    return this.enqueue((lines) => lines.save(entry));
  }

  /** Removes the `tsdb`/`tsdbadmin` lines dbform writes for `host` (a deleted service), any port. */
  removeHost(host: string): Promise<void> {
    return this.enqueue((lines) => lines.removeHost(host));
  }

  /** Moves the lines dbform writes for `from` (any port) to the endpoint the service moved to. */
  moveHost(from: string, to: { host: string; port: number }): Promise<void> {
    return this.enqueue((lines) => lines.moveHost(from, to));
  }

  /** Whether the file exists (a delete looks up its service's host only when there are lines to remove). */
  async exists(): Promise<boolean> {
    return stat(this.path).then(
      () => true,
      () => false,
    );
  }

  /**
   * Changes wait for the rewrite in progress, then go together in the next one: 2,000 creates
   * answered within a second cost a few rewrites, not 2,000 in a row. A failed rewrite fails
   * exactly the changes it carried.
   */
  private enqueue(change: Change): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      this.pending.push({ change, settle: (error) => (error === undefined ? resolve() : reject(error)) });
      if (!this.writing) void this.drain();
    });
  }

  private async drain(): Promise<void> {
    this.writing = true;
    while (this.pending.length > 0) {
      const batch = this.pending.splice(0);
      this.rewrites++;
      try {
        await this.rewrite((lines) => {
          for (const b of batch) b.change(lines);
        });
        for (const b of batch) b.settle();
      } catch (err) {
        for (const b of batch) b.settle(err ?? new Error('pgpass rewrite failed'));
      }
    }
    this.writing = false;
  }

  private async rewrite(change: Change): Promise<void> {
    await mkdir(dirname(this.path), { recursive: true, mode: 0o700 });
    const path = await realpath(this.path).catch(() => this.path);
    await withPgpassLock(path, async () => {
      await removeLeftoverTempFiles(path);
      const text = await readFile(path, 'utf8').catch((err: NodeJS.ErrnoException) => {
        if (err.code === 'ENOENT') return undefined;
        throw err;
      });
      const lines = new PgpassLines(text === undefined || text === '' ? [] : text.replace(/\n$/, '').split('\n'));
      change(lines);
      const out = lines.text();
      // Nothing to change: a missing file is not created, a private one not rewritten.
      if (out === (text ?? '') && (text === undefined || (await isPrivate(path)))) return;
      await writeFileAtomic(path, out, 0o600);
    }, { owner: this.owner });
  }
}

async function isPrivate(path: string): Promise<boolean> {
  return ((await stat(path)).mode & 0o077) === 0;
}

/**
 * A rewrite killed between its temp file and the rename leaves `.<name>.<hex>.tmp` (earlier
 * versions: `.<name>.<pid>.<hex>.tmp`), which holds passwords. Under the lock no other rewrite is in
 * progress, so every such file is a leftover.
 */
async function removeLeftoverTempFiles(path: string): Promise<void> {
  const prefix = `.${basename(path)}.`;
  const names = await readdir(dirname(path)).catch(() => [] as string[]);
  for (const name of names) {
    if (name.startsWith(prefix) && /^(\d+\.)?[0-9a-f]+\.tmp$/.test(name.slice(prefix.length))) {
      await unlink(join(dirname(path), name)).catch(() => undefined);
    }
  }
}

/**
 * Before an apply that creates services: can the pgpass file be rewritten? The initial password
 * is only in the create response, so a file that cannot be written would lose it. Creates a
 * missing directory (as the writer would) but never the file, so a refused or cancelled apply
 * leaves no empty file behind. Returns the reason when the file cannot be written.
 */
export async function checkPgpassWritable(path: string): Promise<string | undefined> {
  try {
    await mkdir(dirname(path), { recursive: true, mode: 0o700 });
  } catch (err) {
    return `cannot create its directory ${dirname(path)}: ${describeFileError(err)}`;
  }
  // Never create (and then remove) the file to find out: another apply rewriting it at that
  // moment would be disturbed. An existing file is opened for reading and writing, which changes
  // nothing; the rewrite (temp file, rename, lock file) needs a directory this process may write.
  try {
    const real = await realpath(path).catch(() => path);
    const exists = await stat(real).then(
      () => true,
      (err: NodeJS.ErrnoException) => {
        if (err.code === 'ENOENT') return false;
        throw err;
      },
    );
    if (exists) await (await open(real, 'r+')).close();
    await access(dirname(real), constants.W_OK | constants.X_OK);
    return undefined;
  } catch (err) {
    return describeFileError(err);
  }
}
