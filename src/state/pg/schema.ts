// Schema `dbform` of the state database: created on first use and migrated forward. A schema made
// by a newer dbform is refused, never altered. Every state lives in these shared tables, one row
// per (project, workspace): not one schema per state (hashicorp/terraform#22338).
import type pg from 'pg';
import { StateSchemaError } from '../errors.js';

/** MIGRATIONS[i] takes the schema from version i to i + 1 (exported for the test that migrates a version-1 database). */
export const MIGRATIONS: readonly string[] = [
  `
CREATE SCHEMA IF NOT EXISTS dbform;
CREATE TABLE dbform.schema_version (
  version integer NOT NULL,
  migrated_at timestamptz NOT NULL DEFAULT now()
);
CREATE TABLE dbform.states (
  project_id text NOT NULL,
  workspace text NOT NULL,
  lineage text NOT NULL,
  serial bigint NOT NULL CHECK (serial > 0),
  document jsonb NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  expires_at timestamptz,
  PRIMARY KEY (project_id, workspace)
);
-- One resource ID is bound by at most one (workspace, address) of a project.
CREATE TABLE dbform.claims (
  project_id text NOT NULL,
  resource_id text NOT NULL,
  workspace text NOT NULL,
  address text NOT NULL,
  PRIMARY KEY (project_id, resource_id)
);
CREATE INDEX claims_workspace ON dbform.claims (project_id, workspace);
-- Who holds the session lock of a workspace; the lock itself is pg_advisory_lock on the holder's session.
CREATE TABLE dbform.locks (
  project_id text NOT NULL,
  workspace text NOT NULL,
  backend_pid integer NOT NULL,
  backend_start timestamptz,
  pid integer NOT NULL,
  host text NOT NULL,
  os_user text NOT NULL,
  command text NOT NULL,
  started_at timestamptz NOT NULL,
  ci_run text,
  PRIMARY KEY (project_id, workspace)
);
CREATE TABLE dbform.history (
  seq bigserial PRIMARY KEY,
  id uuid NOT NULL UNIQUE,
  project_id text NOT NULL,
  workspace text NOT NULL,
  started_at timestamptz NOT NULL,
  finished_at timestamptz,
  record jsonb NOT NULL
);
CREATE INDEX history_workspace ON dbform.history (project_id, workspace, started_at DESC, seq DESC);

-- The write of SPEC section 10 in one round trip: compare-and-swap on serial, then the claims.
CREATE FUNCTION dbform.write_state(p_project text, p_workspace text, p_lineage text, p_expected bigint,
                                   p_serial bigint, p_document jsonb, p_addresses text[], p_ids text[])
RETURNS bigint LANGUAGE plpgsql AS $fn$
DECLARE
  v_serial bigint;
  v_claimed integer;
  v_row record;
BEGIN
  IF p_expected = 0 THEN
    INSERT INTO dbform.states (project_id, workspace, lineage, serial, document)
    VALUES (p_project, p_workspace, p_lineage, p_serial, p_document)
    ON CONFLICT (project_id, workspace) DO NOTHING
    RETURNING serial INTO v_serial;
  ELSE
    UPDATE dbform.states SET serial = p_serial, document = p_document, updated_at = now()
     WHERE project_id = p_project AND workspace = p_workspace AND serial = p_expected AND lineage = p_lineage
    RETURNING serial INTO v_serial;
  END IF;
  IF v_serial IS NULL THEN
    SELECT s.lineage, s.serial INTO v_row FROM dbform.states s WHERE s.project_id = p_project AND s.workspace = p_workspace;
    RAISE EXCEPTION 'the state changed since it was read' USING ERRCODE = 'DF001',
      DETAIL = json_build_object('lineage', v_row.lineage, 'serial', coalesce(v_row.serial, 0))::text;
  END IF;
  DELETE FROM dbform.claims WHERE project_id = p_project AND workspace = p_workspace AND NOT (resource_id = ANY (p_ids));
  -- Another workspace's claim is left as it is (the WHERE), and counted below as a conflict.
  INSERT INTO dbform.claims AS c (project_id, resource_id, workspace, address)
  SELECT p_project, n.id, p_workspace, n.address FROM unnest(p_addresses, p_ids) AS n(address, id)
  ON CONFLICT (project_id, resource_id) DO UPDATE SET address = EXCLUDED.address WHERE c.workspace = EXCLUDED.workspace;
  GET DIAGNOSTICS v_claimed = ROW_COUNT;
  IF v_claimed < coalesce(array_length(p_ids, 1), 0) THEN
    SELECT c.resource_id, c.workspace, c.address INTO v_row FROM dbform.claims c
     WHERE c.project_id = p_project AND c.workspace <> p_workspace AND c.resource_id = ANY (p_ids)
     ORDER BY c.resource_id LIMIT 1;
    RAISE EXCEPTION 'a resource ID is bound by another workspace' USING ERRCODE = 'DF002',
      DETAIL = json_build_object('id', v_row.resource_id, 'workspace', v_row.workspace, 'address', v_row.address)::text;
  END IF;
  RETURN v_serial;
END
$fn$;
`,
  // 2: the lineage each row was created with, kept by the database whatever later writes or hand
  // edits put in `lineage` (SPEC section 13): a row holding another state's document is refused.
  `
ALTER TABLE dbform.states ADD COLUMN created_lineage text;
UPDATE dbform.states SET created_lineage = lineage;
ALTER TABLE dbform.states ALTER COLUMN created_lineage SET NOT NULL;
CREATE FUNCTION dbform.keep_created_lineage() RETURNS trigger LANGUAGE plpgsql AS $fn$
BEGIN
  IF TG_OP = 'INSERT' THEN
    NEW.created_lineage := NEW.lineage;
  ELSE
    NEW.created_lineage := OLD.created_lineage;
  END IF;
  RETURN NEW;
END
$fn$;
CREATE TRIGGER states_created_lineage BEFORE INSERT OR UPDATE ON dbform.states
  FOR EACH ROW EXECUTE FUNCTION dbform.keep_created_lineage();
`,
];

export const SCHEMA_VERSION = MIGRATIONS.length;

/** SQLSTATEs of a schema or table that does not exist yet. */
export function isMissingSchema(err: unknown): boolean {
  const code = (err as { code?: string } | null)?.code;
  return code === '3F000' || code === '42P01' || code === '42883';
}

export function isUndefinedColumn(err: unknown): boolean {
  return (err as { code?: string } | null)?.code === '42703';
}

/** A table, column or function of the current schema is gone: someone altered it by hand. */
export function damagedSchemaError(display: string, reason: string, cause: unknown): StateSchemaError {
  return new StateSchemaError(
    `the state database ${display} has schema dbform version ${SCHEMA_VERSION}, but part of it is missing (${reason}): ` +
      'it was altered by hand; restore it from a backup (dbform does not recreate it over existing states)',
    { cause },
  );
}

export function newerSchemaError(found: number, display: string): StateSchemaError {
  return new StateSchemaError(
    `the state database ${display} has schema dbform version ${found}, made by a newer dbform (this one knows up to version ${SCHEMA_VERSION}); upgrade dbform to use it`,
  );
}

/** Installed version, or 0 when the schema or its version table does not exist. */
export async function readSchemaVersion(client: pg.Client): Promise<number> {
  try {
    const { rows } = await client.query<{ version: number | null }>('SELECT max(version) AS version FROM dbform.schema_version');
    return rows[0]?.version ?? 0;
  } catch (err) {
    if (isMissingSchema(err)) return 0;
    throw err;
  }
}

/**
 * Brings the schema to SCHEMA_VERSION. Concurrent first runs serialize on a transaction-scoped
 * advisory lock of the two-integer form (a key space that the per-state bigint locks never use),
 * held only while migrating.
 */
export async function migrateSchema(client: pg.Client, display: string): Promise<void> {
  await client.query('BEGIN');
  try {
    await client.query('SELECT pg_advisory_xact_lock(1684172405, 1)');
    const found = await readVersionInTransaction(client);
    if (found > SCHEMA_VERSION) throw newerSchemaError(found, display);
    for (let v = found; v < SCHEMA_VERSION; v++) await client.query(MIGRATIONS[v]!);
    if (found < SCHEMA_VERSION) await client.query('INSERT INTO dbform.schema_version (version) VALUES ($1)', [SCHEMA_VERSION]);
    await client.query('COMMIT');
  } catch (err) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw err;
  }
}

/** Like readSchemaVersion, inside a transaction: probes the catalog instead of failing the transaction. */
async function readVersionInTransaction(client: pg.Client): Promise<number> {
  const { rows } = await client.query<{ exists: boolean }>("SELECT to_regclass('dbform.schema_version') IS NOT NULL AS exists");
  if (!rows[0]?.exists) return 0;
  const v = await client.query<{ version: number | null }>('SELECT max(version) AS version FROM dbform.schema_version');
  return v.rows[0]?.version ?? 0;
}
