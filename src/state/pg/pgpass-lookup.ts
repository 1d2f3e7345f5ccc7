// libpq's password file (PGPASSFILE, else ~/.pgpass), read the way libpq reads it: the first line
// whose host:port:database:user match (each may be *), fields escaped with backslash, a file that
// group or others can read is ignored. pg's own pgpass support is deprecated, so dbform reads it.
import { readFileSync, statSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { inDirectory, splitPgpassLine } from '../../model/index.js';

export interface PgpassQuery {
  host: string;
  port: number;
  database: string;
  user: string;
}

/** libpq: "localhost" also matches a connection over the default Unix socket. */
function hostMatches(pattern: string, host: string): boolean {
  return pattern === '*' || pattern === host || (pattern === 'localhost' && host.startsWith('/'));
}

/** `env`'s PGPASSFILE, else `~/.pgpass` of its HOME; a relative path is read from `cwd` when given. */
export function lookupPgpass(q: PgpassQuery, env: Record<string, string | undefined>, cwd?: string): string | undefined {
  // os.homedir() reads this process's HOME; the environment given is the run's.
  const path = inDirectory(cwd, env.PGPASSFILE || join(env.HOME ?? homedir(), '.pgpass'));
  let text: string;
  try {
    if ((statSync(path).mode & 0o077) !== 0) return undefined;
    text = readFileSync(path, 'utf8');
  } catch {
    return undefined;
  }
  for (const raw of text.split(/\r?\n/)) {
    const fields = splitPgpassLine(raw);
    if (!fields) continue;
    const [host, port, database, user, password] = fields;
    if (!hostMatches(host, q.host)) continue;
    if (port !== '*' && port !== String(q.port)) continue;
    if (database !== '*' && database !== q.database) continue;
    if (user !== '*' && user !== q.user) continue;
    return password;
  }
  return undefined;
}
