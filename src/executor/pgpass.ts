// A created service's initial password goes to a pgpass file and nowhere else (SPEC section 5).
import { constants } from 'node:fs';
import { access, mkdir, open, stat } from 'node:fs/promises';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';
import { describeFileError } from '../lockfile/file-errors.js';

export interface PgpassEntry {
  host: string;
  port: number;
  database: string;
  user: string;
  password: string;
}

/** `--pgpass PATH`, else `PGPASSFILE`, else `~/.pgpass`. */
export function resolvePgpassPath(explicit: string | undefined, env: NodeJS.ProcessEnv): string {
  if (explicit) return explicit;
  if (env.PGPASSFILE) return env.PGPASSFILE;
  return join(homedir(), '.pgpass');
}

/** pgpass fields escape `\` and `:` with a backslash. */
export function escapePgpassField(value: string): string {
  return value.replace(/[\\:]/g, (c) => `\\${c}`);
}

export function formatPgpassLine(entry: PgpassEntry): string {
  return [entry.host, String(entry.port), entry.database, entry.user, entry.password].map(escapePgpassField).join(':');
}

/**
 * Appends lines one writer at a time (parallel creates share one file). The file is created with
 * mode 0600 and tightened to 0600 when it is looser, since libpq ignores a group/world-readable one.
 */
export class PgpassWriter {
  readonly path: string;
  private chain: Promise<void> = Promise.resolve();

  constructor(path: string) {
    this.path = path;
  }

  append(entry: PgpassEntry): Promise<void> {
    const next = this.chain.catch(() => undefined).then(() => this.appendNow(formatPgpassLine(entry)));
    this.chain = next;
    return next;
  }

  private async appendNow(line: string): Promise<void> {
    await mkdir(dirname(this.path), { recursive: true, mode: 0o700 });
    const handle = await open(this.path, 'a+', 0o600);
    try {
      const info = await handle.stat();
      if ((info.mode & 0o077) !== 0) await handle.chmod(0o600);
      let prefix = '';
      if (info.size > 0) {
        const last = Buffer.alloc(1);
        await handle.read(last, 0, 1, info.size - 1);
        if (last.toString('utf8') !== '\n') prefix = '\n';
      }
      await handle.appendFile(`${prefix}${line}\n`, 'utf8');
    } finally {
      await handle.close();
    }
  }
}

/**
 * Before an apply that creates services: can the pgpass file be created or appended to? The
 * initial password is only in the create response, so a file that cannot be written would lose
 * it. Creates a missing directory (as the writer would) but never the file, so a refused or
 * cancelled apply leaves no empty file behind. Returns the reason when the file cannot be written.
 */
export async function checkPgpassWritable(path: string): Promise<string | undefined> {
  try {
    await mkdir(dirname(path), { recursive: true, mode: 0o700 });
  } catch (err) {
    return `cannot create its directory ${dirname(path)}: ${describeFileError(err)}`;
  }
  // Never create (and then remove) the file to find out: another apply appending its own new
  // password at that moment would lose it. An existing file is opened for appending, which
  // changes nothing; a missing one needs a directory this process may write.
  try {
    const exists = await stat(path).then(
      () => true,
      (err: NodeJS.ErrnoException) => {
        if (err.code === 'ENOENT') return false;
        throw err;
      },
    );
    if (!exists) {
      await access(dirname(path), constants.W_OK | constants.X_OK);
      return undefined;
    }
    const handle = await open(path, 'a', 0o600);
    await handle.close();
    return undefined;
  } catch (err) {
    return describeFileError(err);
  }
}
