// `dbform workspace delete` on PostgreSQL: one transaction that holds the workspace's state lock
// (so no run is using it), refuses while the state still binds resources, and removes its rows.
import type pg from 'pg';
import { DbformError } from '../../model/index.js';
import { StateLockHeldError, WorkspaceNotEmptyError } from '../errors.js';
import { stateLockKey } from './pg-lock.js';

export async function deleteEmptyWorkspace(client: pg.Client, scope: { projectId: string; workspace: string }, location: string): Promise<void> {
  const { projectId, workspace } = scope;
  await client.query('BEGIN');
  try {
    const got = await client.query<{ ok: boolean }>('SELECT pg_try_advisory_xact_lock($1::bigint) AS ok', [stateLockKey(scope)]);
    if (!got.rows[0]!.ok) throw new StateLockHeldError(`workspace "${workspace}" is in use (its state lock is held); try again when that run has finished`);
    const { rows } = await client.query<{ n: number }>(
      `SELECT (SELECT count(*) FROM jsonb_object_keys(document -> 'resources'))::int AS n FROM dbform.states WHERE project_id = $1 AND workspace = $2 FOR UPDATE`,
      [projectId, workspace],
    );
    if (rows.length === 0) throw new DbformError(`there is no workspace "${workspace}" of project ${projectId} in ${location}`);
    if (rows[0]!.n > 0) {
      throw new WorkspaceNotEmptyError(`workspace "${workspace}" still binds ${rows[0]!.n} resource(s); run \`dbform destroy --workspace ${workspace}\` first (nothing was deleted)`);
    }
    for (const table of ['states', 'claims', 'locks']) {
      await client.query(`DELETE FROM dbform.${table} WHERE project_id = $1 AND workspace = $2`, [projectId, workspace]);
    }
    await client.query('COMMIT');
  } catch (err) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw err;
  }
}
