// The statements of the PostgreSQL store, one round trip each.
import { MCP_CALL_PREFIX } from '../history.js';

/**
 * The document, the lineage its row was created with, what the other workspaces claim, which of
 * them share this lineage, and the schema version: every command's one state read.
 */
export const READ_STATE = `
SELECT (SELECT max(version) FROM dbform.schema_version) AS schema_version,
       s.lineage, s.created_lineage, s.serial::int AS serial, s.document,
       (SELECT coalesce(json_agg(json_build_array(c.resource_id, c.workspace, c.address)), '[]'::json)
          FROM dbform.claims c WHERE c.project_id = $1 AND c.workspace <> $2) AS elsewhere,
       (SELECT coalesce(json_agg(o.workspace ORDER BY o.workspace), '[]'::json)
          FROM dbform.states o WHERE o.project_id = $1 AND o.workspace <> $2 AND o.lineage = s.lineage) AS same_lineage
  FROM (SELECT 1) one LEFT JOIN dbform.states s ON s.project_id = $1 AND s.workspace = $2`;

export const WRITE_STATE = 'SELECT dbform.write_state($1, $2, $3, $4, $5, $6::jsonb, $7::text[], $8::text[]) AS serial';

export const APPEND_HISTORY = `
INSERT INTO dbform.history (id, project_id, workspace, started_at, finished_at, record)
VALUES ($1, $2, $3, $4, $5, $6::jsonb) ON CONFLICT (id) DO NOTHING`;

export const READ_HISTORY = `
SELECT record FROM dbform.history WHERE project_id = $1 AND workspace = $2
 ORDER BY started_at DESC, seq DESC LIMIT $3`;

/**
 * `apply --ttl`: the workspace's expiry. A workspace with no state yet gets an empty one (serial 1),
 * so the expiry holds from before the first resource is created: a killed apply still expires.
 */
export const SET_EXPIRY = `
INSERT INTO dbform.states (project_id, workspace, lineage, serial, document, expires_at)
VALUES ($1, $2, $3, 1, $4::jsonb, $5)
ON CONFLICT (project_id, workspace) DO UPDATE SET expires_at = EXCLUDED.expires_at`;

export const LIST_WORKSPACES = `
SELECT s.workspace, s.serial::int AS serial, s.expires_at,
       (SELECT count(*) FROM jsonb_object_keys(s.document -> 'resources'))::int AS resources,
       (SELECT max(h.finished_at) FROM dbform.history h WHERE h.project_id = s.project_id AND h.workspace = s.workspace
           AND coalesce(h.record ->> 'command', '') NOT LIKE '${MCP_CALL_PREFIX}%') AS last_apply
  FROM dbform.states s WHERE s.project_id = $1 ORDER BY s.workspace`;
