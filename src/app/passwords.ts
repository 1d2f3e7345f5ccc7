// `dbform output --with-password` (SPEC section 11): the password comes only from the configured
// `password.from_env` or from the pgpass file that apply writes (--pgpass, PGPASSFILE, ~/.pgpass),
// never from the API, the state or a flag.
import { statSync } from 'node:fs';
import { resolvePgpassPath } from '../executor/pgpass.js';
import { DbformError, inDirectory } from '../model/index.js';
import { lookupPgpass } from '../state/pg/pgpass-lookup.js';
import { DATABASE, USER, type Connection } from './connections.js';

/** Why the pgpass file `path` (at `file`) cannot be used, or undefined when it can. */
function pgpassProblem(path: string, file: string): string | undefined {
  try {
    const mode = statSync(file).mode;
    // libpq ignores such a file, and so does dbform: the password would be readable by others.
    if ((mode & 0o077) !== 0) return `${path} is readable by group or others (mode ${(mode & 0o777).toString(8)}); chmod 600 it`;
    return undefined;
  } catch {
    return `${path} does not exist`;
  }
}

/** `cwd`: where a relative pgpass path is read from, when not the process's directory (model/run-directory.ts). */
export function findPassword(c: Connection, env: NodeJS.ProcessEnv, pgpassFlag: string | undefined, cwd?: string): string {
  const fromEnv = c.passwordEnv !== undefined ? env[c.passwordEnv] : undefined;
  const path = resolvePgpassPath(pgpassFlag, env);
  let password = fromEnv !== undefined && fromEnv !== '' ? fromEnv : undefined;
  const problem = password === undefined ? pgpassProblem(path, inDirectory(cwd, path)) : undefined;
  if (password === undefined && problem === undefined) {
    for (const login of c.logins) {
      password = lookupPgpass({ host: login.host, port: login.port, database: DATABASE, user: USER }, { PGPASSFILE: path }, cwd);
      if (password !== undefined) break;
    }
  }
  if (password === undefined) {
    const login = c.logins[0]!;
    const configured = c.passwordEnv !== undefined ? `password.from_env ${c.passwordEnv} is not set here` : 'the config sets no password.from_env';
    const file = problem ?? `${path} has no line for ${login.host}:${login.port}:${DATABASE}:${USER}`;
    throw new DbformError(`no password for ${c.address}: ${configured}, and ${file} (give the file with --pgpass PATH or PGPASSFILE)`);
  }
  // A line break would end the mask early and print the rest of the password in the log.
  if (/[\r\n]/.test(password)) throw new DbformError(`the password of ${c.address} contains a line break; dbform will not print it`);
  return password;
}

/** The connections with a `password` field after `uri`. */
export function withPasswords(connections: readonly Connection[], env: NodeJS.ProcessEnv, pgpassFlag: string | undefined, cwd?: string): Connection[] {
  return connections.map((c) => ({ ...c, fields: [...c.fields, { name: 'password', value: findPassword(c, env, pgpassFlag, cwd) }] }));
}
