// The state lock on PostgreSQL: a session-level advisory lock per (project, workspace), held on a
// connection of its own for the whole apply, with a row saying who holds it. The key is derived
// from both names, never one global key (hashicorp/terraform#33217), and a failure names the
// holder (#32075). A holder that dies ends its session, and the server releases the lock with it.
import { createHash } from 'node:crypto';
import type pg from 'pg';
import { DbformError } from '../../model/index.js';
import { StateLockHeldError, StateUnavailableError } from '../errors.js';
import { formatHolder, type LockHolderInfo } from '../holder.js';
import type { LockOptions, StateLock, UnlockOutcome } from '../port.js';
import { connect, describePgError, isConnectionLoss, type ConnectOptions } from './connect.js';
import { damagedSchemaError, isMissingSchema, isUndefinedColumn } from './schema.js';
import type { PgTarget } from './url.js';

export interface LockScope {
  projectId: string;
  workspace: string;
}

/** A signed 64-bit key (as text, for ::bigint) from the project and the workspace. */
export function stateLockKey(scope: LockScope): string {
  const digest = createHash('sha256').update(`dbform-state\0${scope.projectId}\0${scope.workspace}`).digest();
  return digest.readBigInt64BE(0).toString();
}

const TAKE = `
WITH got AS (SELECT pg_try_advisory_lock($1::bigint) AS ok)
INSERT INTO dbform.locks AS l (project_id, workspace, backend_pid, backend_start, pid, host, os_user, command, started_at, ci_run)
SELECT $2, $3, pg_backend_pid(), (SELECT backend_start FROM pg_stat_activity WHERE pid = pg_backend_pid()), $4, $5, $6, $7, $8, $9
  FROM got WHERE got.ok
ON CONFLICT (project_id, workspace) DO UPDATE SET backend_pid = EXCLUDED.backend_pid, backend_start = EXCLUDED.backend_start,
  pid = EXCLUDED.pid, host = EXCLUDED.host, os_user = EXCLUDED.os_user, command = EXCLUDED.command,
  started_at = EXCLUDED.started_at, ci_run = EXCLUDED.ci_run
RETURNING 1`;

const RECORD = TAKE.replace('pg_try_advisory_lock($1::bigint) AS ok', '$1::bigint IS NOT NULL AS ok');

/**
 * The row of this workspace, and whether the session that wrote it still holds the lock. When
 * the lock is held by a session that has not written its row yet, `owner_pid` says which one.
 */
const HOLDER = `
SELECT l.pid, l.host, l.os_user, l.command, l.started_at, l.ci_run, l.backend_pid,
       (SELECT k.pid FROM pg_locks k WHERE k.locktype = 'advisory' AND k.granted AND k.objsubid = 1
           AND k.database = (SELECT oid FROM pg_database WHERE datname = current_database())
           AND ((k.classid::bigint << 32) | k.objid::bigint) = $1::bigint
         LIMIT 1) AS owner_pid
  FROM (SELECT 1) one LEFT JOIN dbform.locks l ON l.project_id = $2 AND l.workspace = $3`;

interface HolderRow {
  pid: number | null;
  host: string | null;
  os_user: string | null;
  command: string | null;
  started_at: Date | null;
  ci_run: string | null;
  backend_pid: number | null;
  owner_pid: number | null;
}

function holderOf(row: HolderRow): LockHolderInfo | null {
  if (row.pid === null) return null;
  return {
    pid: row.pid,
    host: row.host ?? '?',
    user: row.os_user ?? '?',
    command: row.command ?? '?',
    startedAt: row.started_at ? row.started_at.toISOString() : '?',
    ciRun: row.ci_run,
  };
}

function holderParams(key: string, scope: LockScope, h: LockHolderInfo): unknown[] {
  return [key, scope.projectId, scope.workspace, h.pid, h.host, h.user, h.command, h.startedAt, h.ciRun];
}

async function readHolder(client: pg.Client, key: string, scope: LockScope): Promise<HolderRow> {
  const { rows } = await client.query<HolderRow>(HOLDER, [key, scope.projectId, scope.workspace]);
  return rows[0]!;
}

function heldMessage(row: HolderRow, scope: LockScope, display: string, waitedMs: number): string {
  const holder = holderOf(row);
  const who =
    holder && row.backend_pid === row.owner_pid
      ? formatHolder(holder)
      : `a session (server pid ${row.owner_pid ?? '?'}) that has not recorded who it is yet`;
  const waited = waitedMs > 0 ? ` after waiting ${Math.round(waitedMs / 1000)}s` : '';
  return (
    `the state of workspace "${scope.workspace}" of project ${scope.projectId} in ${display} is locked by ${who}${waited}. ` +
    'Wait for it to finish, or give --lock-timeout to wait for it'
  );
}

/**
 * The lock of `scope`, held on a connection of its own. Every failure is one readable line, as on
 * the store's other statements (SPEC section 13): a refused statement names the server's reason.
 */
export async function acquirePgLock(
  target: PgTarget,
  connectOptions: ConnectOptions,
  scope: LockScope,
  holder: LockHolderInfo,
  options: LockOptions & { onWaiting?: (message: string) => void },
): Promise<StateLock> {
  try {
    return await takeLock(target, connectOptions, scope, holder, options);
  } catch (err) {
    if (err instanceof DbformError) throw err;
    const reason = describePgError(err, target);
    if (isConnectionLoss(err)) throw new StateUnavailableError(`lost the connection to the state database ${target.display} while taking the state lock: ${reason}`, { cause: err });
    if (isMissingSchema(err) || isUndefinedColumn(err)) throw damagedSchemaError(target.display, reason, err);
    throw new DbformError(`cannot take the state lock of workspace "${scope.workspace}" in ${target.display}: ${reason}`, { cause: err });
  }
}

async function takeLock(
  target: PgTarget,
  connectOptions: ConnectOptions,
  scope: LockScope,
  holder: LockHolderInfo,
  options: LockOptions & { onWaiting?: (message: string) => void },
): Promise<StateLock> {
  const key = stateLockKey(scope);
  const client = await connect(target, { ...connectOptions, applicationName: 'dbform-lock' });
  const lost = new AbortController();
  const onLost = () => lost.abort(new Error('the state lock connection was lost'));
  try {
    const took = await client.query(TAKE, holderParams(key, scope, holder));
    if (took.rowCount !== 1) await waitForLock(client, key, scope, holder, options, target.display);
  } catch (err) {
    await client.end().catch(() => undefined);
    throw err;
  }
  client.on('error', onLost);
  client.on('end', onLost);
  let released = false;
  return {
    holder,
    lost: lost.signal,
    release: async () => {
      if (released) return;
      released = true;
      client.off('end', onLost);
      client.off('error', onLost);
      await client
        .query('DELETE FROM dbform.locks WHERE project_id = $1 AND workspace = $2 AND backend_pid = pg_backend_pid()', [scope.projectId, scope.workspace])
        .catch(() => undefined);
      // Ending the session releases the advisory lock.
      await client.end().catch(() => undefined);
    },
    // The process exits at once: its socket closes and the server ends the session and the lock.
    releaseSync: () => undefined,
  };
}

async function waitForLock(
  client: pg.Client,
  key: string,
  scope: LockScope,
  holder: LockHolderInfo,
  options: LockOptions & { onWaiting?: (message: string) => void },
  display: string,
): Promise<void> {
  const first = await readHolder(client, key, scope);
  if (options.timeoutMs <= 0) throw new StateLockHeldError(heldMessage(first, scope, display, 0));
  options.onWaiting?.(heldMessage(first, scope, display, 0).replace(/\. Wait for it.*$/, ''));
  const started = Date.now();
  try {
    await client.query(`SELECT set_config('lock_timeout', $1, false)`, [`${Math.ceil(options.timeoutMs)}ms`]);
    await client.query('SELECT pg_advisory_lock($1::bigint)', [key]);
    await client.query(`SELECT set_config('lock_timeout', '0', false)`);
  } catch (err) {
    if ((err as { code?: string }).code !== '55P03') throw err;
    const now = await readHolder(client, key, scope);
    throw new StateLockHeldError(heldMessage(now, scope, display, Date.now() - started));
  }
  await client.query(RECORD, holderParams(key, scope, holder));
}

/** `state unlock`: the holder, and its row removed when the session that wrote it is gone. */
export async function unlockPg(client: pg.Client, scope: LockScope): Promise<UnlockOutcome> {
  const key = stateLockKey(scope);
  const row = await readHolder(client, key, scope);
  const holder = holderOf(row);
  if (!holder) return { holder: null, alive: row.owner_pid !== null, cleared: false };
  const alive = row.owner_pid !== null && row.owner_pid === row.backend_pid;
  if (alive) return { holder, alive, cleared: false };
  const del = await client.query('DELETE FROM dbform.locks WHERE project_id = $1 AND workspace = $2 AND backend_pid = $3', [
    scope.projectId,
    scope.workspace,
    row.backend_pid,
  ]);
  return { holder, alive, cleared: (del.rowCount ?? 0) > 0 };
}
