// A postgres:// state URL: what it points at (for messages, without the password) and the checks
// made before connecting.
import { parse } from 'pg-connection-string';
import { DbformError } from '../../model/index.js';

export interface PgTarget {
  /** The URL as given: it may hold a password, so it is never printed. */
  url: string;
  host: string;
  port: number;
  database: string;
  user: string;
  /** The password written in the URL, if any (redacted from every message). */
  urlPassword: string | undefined;
  /** postgres://user@host:port/database: safe to print. */
  display: string;
}

/** The pooler's port: a transaction pooler hands each statement to any server session, so a session lock would not hold. */
export const POOLER_PORT = 6432;

export function isPostgresUrl(url: string): boolean {
  return /^postgres(ql)?:\/\//i.test(url);
}

/** Parses with libpq's defaults from the environment (PGHOST, PGPORT, PGUSER, PGDATABASE). */
export function parsePgTarget(url: string, env: Record<string, string | undefined>): PgTarget {
  let parsed: ReturnType<typeof parse>;
  try {
    parsed = parse(url);
  } catch (err) {
    throw new DbformError(`the state URL ${redactUrl(url)} cannot be read: ${(err as Error).message}`);
  }
  const host = parsed.host || env.PGHOST || 'localhost';
  const portText = parsed.port || env.PGPORT || '5432';
  const port = Number(portText);
  if (!Number.isInteger(port) || port <= 0 || port > 65535) {
    throw new DbformError(`the state URL ${redactUrl(url)} has an invalid port ${JSON.stringify(portText)}`);
  }
  const user = parsed.user || env.PGUSER || env.USER || 'postgres';
  const database = parsed.database || env.PGDATABASE || user;
  const urlPassword = parsed.password ? parsed.password : undefined;
  const shownHost = host.includes(':') && !host.startsWith('/') ? `[${host}]` : host;
  const display = `postgres://${encodeURIComponent(user)}@${host.startsWith('/') ? encodeURIComponent(host) : shownHost}:${port}/${encodeURIComponent(database)}`;
  return { url, host, port, database, user, urlPassword, display };
}

/** Session advisory locks need a direct connection: refuse the pooler's port. */
export function refusePoolerPort(target: PgTarget): void {
  if (target.port === POOLER_PORT) {
    throw new DbformError(
      `the state URL ${target.display} uses port ${POOLER_PORT}, the connection pooler's: the state lock is a session lock and needs a direct connection (usually port 5432)`,
    );
  }
}

/** The URL with any password replaced by ***: for messages about a URL that could not even be parsed. */
export function redactUrl(url: string): string {
  return url.replace(/^(postgres(?:ql)?:\/\/[^:@/?#]*):[^@/?#]*@/i, '$1:***@').replace(/([?&]password=)[^&#]*/gi, '$1***');
}

/** Whether a URL carries a password (in the authority or as ?password=). */
export function urlHasPassword(url: string): boolean {
  return redactUrl(url) !== url;
}
