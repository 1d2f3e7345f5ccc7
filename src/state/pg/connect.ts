// Opening a connection to the state database, and the words for when that fails: host, port and
// the server's (or the network's) reason, never the password.
import type pg from 'pg';
import { parse } from 'pg-connection-string';
import { StateUnavailableError } from '../errors.js';
import { lookupPgpass } from './pgpass-lookup.js';
import type { PgTarget } from './url.js';

export interface ConnectOptions {
  env: Record<string, string | undefined>;
  /** Shown in pg_stat_activity, so an operator can tell dbform's sessions apart. */
  applicationName: string;
  /** Where a relative PGPASSFILE is read from, when not the process's directory (model/run-directory.ts). */
  cwd?: string;
}

function connectTimeoutMs(env: Record<string, string | undefined>): number {
  const s = Number(env.PGCONNECT_TIMEOUT);
  return Number.isFinite(s) && s > 0 ? Math.max(2, s) * 1000 : 10_000;
}

/** The password: the URL's, else PGPASSWORD, else the pgpass file; undefined lets the server decide. */
export function resolvePassword(target: PgTarget, env: Record<string, string | undefined>, cwd?: string): string | undefined {
  return target.urlPassword ?? (env.PGPASSWORD || undefined) ?? lookupPgpass(target, env, cwd);
}

/** pg is loaded on the first connection: a state in a file (the default) never pays for it (~20 modules at start-up). */
async function newClient(target: PgTarget, o: ConnectOptions): Promise<pg.Client> {
  const { default: driver } = await import('pg');
  const parsed = parse(target.url);
  const password = resolvePassword(target, o.env, o.cwd);
  return new driver.Client({
    host: target.host,
    port: target.port,
    user: target.user,
    database: target.database,
    ...(password !== undefined ? { password } : {}),
    ...(parsed.ssl !== undefined ? { ssl: parsed.ssl as pg.ClientConfig['ssl'] } : {}),
    ...(parsed.options ? { options: parsed.options } : {}),
    application_name: parsed.application_name || o.applicationName,
    connectionTimeoutMillis: connectTimeoutMs(o.env),
    keepAlive: true,
  });
}

/** A connected client whose later errors (a terminated session) never crash the process. */
export async function connect(target: PgTarget, o: ConnectOptions): Promise<pg.Client> {
  const client = await newClient(target, o);
  client.on('error', () => undefined);
  try {
    await client.connect();
  } catch (err) {
    await client.end().catch(() => undefined);
    throw new StateUnavailableError(`cannot connect to the state database ${target.display}: ${describePgError(err, target)}`, { cause: err });
  }
  return client;
}

const NETWORK_REASONS: Record<string, string> = {
  ECONNREFUSED: 'connection refused (is PostgreSQL running and listening on that host and port?)',
  ENOTFOUND: 'host not found',
  EAI_AGAIN: 'host name lookup failed (temporary DNS failure)',
  ETIMEDOUT: 'timed out',
  EHOSTUNREACH: 'host unreachable',
  ENETUNREACH: 'network unreachable',
  ECONNRESET: 'connection reset by the server',
  EPIPE: 'connection closed by the server',
};

/** The reason in words: the server's message (with its SQLSTATE) or the network error's. */
export function describePgError(err: unknown, target: PgTarget): string {
  const e = err as { code?: string; message?: string } | null;
  const message = e?.message ?? String(err);
  let reason: string;
  if (e?.code && NETWORK_REASONS[e.code]) reason = NETWORK_REASONS[e.code]!;
  else if (/client password must be a string/i.test(message) || /password authentication.*no password/i.test(message)) {
    reason = 'the server asks for a password and none was given: set PGPASSWORD or add the password to the pgpass file (PGPASSFILE, default ~/.pgpass)';
  } else if (/connection timeout/i.test(message)) reason = 'timed out while connecting';
  else if (e?.code && /^[0-9A-Z]{5}$/.test(e.code)) reason = `${message} (SQLSTATE ${e.code})`;
  else reason = message;
  return redactSecret(reason, target);
}

/** Belt and braces: no message ever carries the password, however a library words its error. */
export function redactSecret(text: string, target: PgTarget): string {
  const secrets = [target.urlPassword, encodeURIComponent(target.urlPassword ?? '')].filter((s): s is string => !!s && s.length > 0);
  let out = text;
  for (const s of secrets) out = out.split(s).join('***');
  return out;
}

/** Errors that mean the connection is gone (as opposed to a refused statement). */
export function isConnectionLoss(err: unknown): boolean {
  const e = err as { code?: string; message?: string } | null;
  if (!e) return false;
  if (e.code && (NETWORK_REASONS[e.code] || /^(08|57P0)/.test(e.code))) return true;
  return /Connection terminated|Client has encountered a connection error|not queryable|Client was closed/i.test(e.message ?? '');
}
