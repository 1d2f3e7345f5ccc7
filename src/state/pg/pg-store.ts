// The state store on PostgreSQL (SPEC section 10): shared tables in schema `dbform`, one row per
// (project, workspace), every write a compare-and-swap on serial in one round trip.
import type pg from 'pg';
import { ConfigError, DbformError, emptyLockfile, parseLockfileJson, type Lockfile } from '../../model/index.js';
import { checkWritable, documentOf, lockfileToJson, newLineage } from '../document.js';
import { ClaimConflictError, StateConflictError, StateUnavailableError } from '../errors.js';
import { ownedSnapshot } from '../ownership.js';
import { historyFromJson, historyToJson, type HistoryRecord } from '../history.js';
import type { LockHolderInfo } from '../holder.js';
import type { ForceUnlockOutcome, ForeignClaim, LockOptions, ReadOptions, StateLock, StateSnapshot, StateStore, StateVersion, UnlockOutcome, WorkspaceSummary } from '../port.js';
import { DEFAULT_WORKSPACE } from '../workspace.js';
import { connect, describePgError, isConnectionLoss, type ConnectOptions } from './connect.js';
import { deleteEmptyWorkspace } from './delete-workspace.js';
import { acquirePgLock, unlockPg } from './pg-lock.js';
import { APPEND_HISTORY, LIST_WORKSPACES, READ_HISTORY, READ_STATE, SET_EXPIRY, WRITE_STATE } from './queries.js';
import { damagedSchemaError, isMissingSchema, isUndefinedColumn, migrateSchema, newerSchemaError, readSchemaVersion, SCHEMA_VERSION } from './schema.js';
import { parsePgTarget, refusePoolerPort, type PgTarget } from './url.js';

export interface PgStoreOptions {
  url: string;
  projectId: string;
  workspace: string;
  env: Record<string, string | undefined>;
  /** Where a relative PGPASSFILE is read from, when not the process's directory (model/run-directory.ts). */
  cwd?: string;
  /** Called while waiting for the lock (with --lock-timeout), naming the holder. */
  onLockWait?: (message: string) => void;
}

interface ReadRow {
  schema_version: number | null;
  lineage: string | null;
  created_lineage: string | null;
  serial: number | null;
  document: unknown;
  elsewhere: Array<[string, string, string]>;
  same_lineage: string[];
}

export class PgStateStore implements StateStore {
  readonly kind = 'postgres' as const;
  readonly location: string;
  readonly projectId: string;
  readonly workspace: string;
  readonly target: PgTarget;
  /** Statements sent (each one round trip); the bench and the tests count them. */
  roundTrips = 0;
  private client: pg.Client | undefined;
  private schemaChecked = false;
  private readonly connectOptions: ConnectOptions;
  private readonly onLockWait: ((message: string) => void) | undefined;

  constructor(o: PgStoreOptions) {
    this.target = parsePgTarget(o.url, o.env);
    refusePoolerPort(this.target);
    this.location = this.target.display;
    this.projectId = o.projectId;
    this.workspace = o.workspace;
    this.connectOptions = { env: o.env, applicationName: 'dbform', ...(o.cwd !== undefined ? { cwd: o.cwd } : {}) };
    this.onLockWait = o.onLockWait;
  }

  async read(options?: ReadOptions): Promise<StateSnapshot> {
    let row = await this.readRow();
    if (row === undefined || (row.schema_version ?? 0) < SCHEMA_VERSION) {
      await this.migrate();
      row = (await this.readRow())!;
    }
    if ((row.schema_version ?? 0) > SCHEMA_VERSION) throw newerSchemaError(row.schema_version!, this.location);
    this.schemaChecked = true;
    const claims = new Map<string, ForeignClaim>();
    for (const [id, workspace, address] of row.elsewhere) claims.set(id, { workspace, address });
    const sameLineage = row.same_lineage.map((workspace) => ({ workspace, location: this.location }));
    const scope = { projectId: this.projectId, workspace: this.workspace, location: this.location, others: { claims, sameLineage }, ...(options ? { options } : {}) };
    if (row.lineage === null || row.serial === null) return ownedSnapshot({ ...scope, lockfile: emptyLockfile(this.projectId) });
    const parsed = parseLockfileJson(row.document);
    if (!parsed.ok) {
      throw new ConfigError(parsed.errors.map((e) => `${this.location} (workspace "${this.workspace}"): ${e}`).join('\n'));
    }
    const lockfile = { ...parsed.value, lineage: row.lineage, serial: row.serial };
    return ownedSnapshot({ ...scope, lockfile, createdLineage: row.created_lineage });
  }

  /** The read statement; undefined when the schema does not exist yet. */
  private async readRow(): Promise<ReadRow | undefined> {
    try {
      const { rows } = await this.query<ReadRow>(READ_STATE, [this.projectId, this.workspace], { schemaMayBeMissing: true });
      return rows[0];
    } catch (err) {
      if (!isMissingSchema(err) && !isUndefinedColumn(err)) throw err;
      // A newer dbform may have reshaped the tables: say so rather than report a missing column.
      const version = await this.schemaVersion();
      if (version > SCHEMA_VERSION) throw newerSchemaError(version, this.location);
      if (version === SCHEMA_VERSION) throw damagedSchemaError(this.location, describePgError(err, this.target), err);
      return undefined;
    }
  }

  private async migrate(): Promise<void> {
    const client = await this.connection();
    try {
      await migrateSchema(client, this.location);
    } catch (err) {
      if (err instanceof DbformError) throw err;
      throw this.unavailable(`cannot create or migrate schema dbform in ${this.location}`, err);
    }
  }

  /** The installed schema version; a refusal (no permission on it, ...) in words. */
  private async schemaVersion(): Promise<number> {
    const client = await this.connection();
    try {
      return await readSchemaVersion(client);
    } catch (err) {
      throw this.refused(err);
    }
  }

  private async ensureSchema(): Promise<void> {
    if (this.schemaChecked) return;
    const version = await this.schemaVersion();
    if (version > SCHEMA_VERSION) throw newerSchemaError(version, this.location);
    if (version < SCHEMA_VERSION) await this.migrate();
    this.schemaChecked = true;
  }

  async write(next: Lockfile, expected: StateVersion): Promise<void> {
    const { lineage, serial } = checkWritable(next, this.location);
    await this.ensureSchema();
    const addresses = Object.keys(next.resources).sort();
    const params = [
      this.projectId,
      this.workspace,
      lineage,
      expected.serial,
      serial,
      JSON.stringify(documentOf(next)),
      addresses,
      addresses.map((a) => next.resources[a]!.id),
    ];
    try {
      await this.query(WRITE_STATE, params);
    } catch (err) {
      const failure = await this.writeError(err, next, expected);
      if (failure) throw failure;
    }
  }

  /** A refused write in words; a CAS loss that was our own write (its answer lost, then resent) is success. */
  private async writeError(err: unknown, next: Lockfile, expected: StateVersion): Promise<Error | undefined> {
    const e = err as { code?: string; detail?: string };
    if (e.code === 'DF002') {
      const clash = JSON.parse(e.detail ?? '{}') as { id: string; workspace: string; address: string };
      const ours = Object.entries(next.resources).find(([, v]) => v.id === clash.id)?.[0] ?? '?';
      return new ClaimConflictError(
        `resource ID ${clash.id} (${ours}) is already bound to ${clash.address} in workspace "${clash.workspace}" of project ${this.projectId}; ` +
          `a resource belongs to one workspace only. Nothing was written to ${this.location}`,
        { resourceId: clash.id, workspace: clash.workspace, address: clash.address },
      );
    }
    if (e.code === 'DF001') {
      const now = JSON.parse(e.detail ?? '{}') as { lineage: string | null; serial: number };
      if (now.lineage === next.lineage && now.serial === next.serial && (await this.holds(next))) return undefined;
      return new StateConflictError(
        `the state of workspace "${this.workspace}" in ${this.location} changed while dbform was using it ` +
          `(expected serial ${expected.serial}, found ${now.serial}${now.lineage && now.lineage !== next.lineage ? ` of another lineage ${now.lineage}` : ''}): ` +
          'another run wrote it; nothing was overwritten',
      );
    }
    return this.refused(err);
  }

  /** A statement the server refused (permissions, ...): its reason, as one line. */
  private refused(err: unknown): Error {
    if (err instanceof DbformError) return err;
    return new DbformError(`the state database ${this.location} refused a request: ${describePgError(err, this.target)}`, { cause: err });
  }

  /** Whether the stored document is exactly `doc` (after a write whose answer was lost). */
  private async holds(next: Lockfile): Promise<boolean> {
    const snap = await this.read();
    return JSON.stringify(lockfileToJson(snap.lockfile)) === JSON.stringify(lockfileToJson(next));
  }

  async lock(holder: LockHolderInfo, options: LockOptions): Promise<StateLock> {
    await this.ensureSchema();
    return acquirePgLock(this.target, this.connectOptions, this.scope(), holder, { ...options, ...(this.onLockWait ? { onWaiting: this.onLockWait } : {}) });
  }

  async appendHistory(r: HistoryRecord): Promise<void> {
    await this.ensureSchema();
    await this.query(APPEND_HISTORY, [r.id, this.projectId, r.workspace, r.startedAt, r.finishedAt || null, JSON.stringify(historyToJson(r))]);
  }

  async readHistory(limit?: number): Promise<HistoryRecord[]> {
    await this.ensureSchema();
    const { rows } = await this.query<{ record: unknown }>(READ_HISTORY, [this.projectId, this.workspace, limit ?? null]);
    return rows.flatMap((r) => historyFromJson(r.record) ?? []);
  }

  async listWorkspaces(): Promise<WorkspaceSummary[]> {
    await this.ensureSchema();
    const { rows } = await this.query<{ workspace: string; serial: number; resources: number; last_apply: Date | null; expires_at: Date | null }>(
      LIST_WORKSPACES,
      [this.projectId],
    );
    return rows.map((r) => ({
      workspace: r.workspace,
      resources: r.resources,
      serial: r.serial,
      lastApply: r.last_apply ? r.last_apply.toISOString() : null,
      expiresAt: r.expires_at ? r.expires_at.toISOString() : null,
    }));
  }

  async setExpiry(expiresAt: Date): Promise<void> {
    await this.ensureSchema();
    const empty = documentOf(emptyLockfile(this.projectId));
    await this.query(SET_EXPIRY, [this.projectId, this.workspace, newLineage(), JSON.stringify(empty), expiresAt.toISOString()]);
  }

  async deleteWorkspace(workspace: string): Promise<void> {
    if (workspace === DEFAULT_WORKSPACE) throw new DbformError('the default workspace cannot be deleted');
    await this.ensureSchema();
    const client = await this.connection();
    await deleteEmptyWorkspace(client, { projectId: this.projectId, workspace }, this.location).catch((err: unknown) => {
      throw err instanceof DbformError ? err : this.statementError(err, false);
    });
  }

  async unlock(): Promise<UnlockOutcome> {
    await this.ensureSchema();
    const client = await this.connection();
    return unlockPg(client, this.scope()).catch((err: unknown) => {
      throw this.statementError(err, false);
    });
  }

  /** A lock here lives with its session: only the row of a session that is gone can be cleared. */
  async forceUnlock(): Promise<ForceUnlockOutcome> {
    const o = await this.unlock();
    if (o.cleared && o.holder) return { kind: 'cleared', holder: o.holder };
    if (o.alive && o.holder) return { kind: 'alive', holder: o.holder };
    return { kind: 'none' };
  }

  async close(): Promise<void> {
    const c = this.client;
    this.client = undefined;
    await c?.end().catch(() => undefined);
  }

  private scope() {
    return { projectId: this.projectId, workspace: this.workspace };
  }

  private async connection(): Promise<pg.Client> {
    if (this.client) return this.client;
    const client = await connect(this.target, this.connectOptions);
    // A session ended by the server (pg_terminate_backend, a restart) is replaced on next use.
    const drop = () => {
      if (this.client === client) this.client = undefined;
    };
    client.on('error', drop);
    client.on('end', drop);
    this.client = client;
    return client;
  }

  /**
   * One statement. A connection lost before or during it is reconnected once (safe for writes
   * too: the compare-and-swap refuses a second application, and history ignores a known ID); a
   * second loss, or a failed reconnect, is StateUnavailableError.
   */
  private async query<R extends pg.QueryResultRow>(sql: string, params: unknown[], o: { schemaMayBeMissing?: boolean } = {}): Promise<pg.QueryResult<R>> {
    for (let attempt = 0; ; attempt++) {
      const client = await this.connection();
      this.roundTrips++;
      try {
        return await client.query<R>(sql, params);
      } catch (err) {
        if (!isConnectionLoss(err)) throw this.statementError(err, o.schemaMayBeMissing === true);
        if (this.client === client) this.client = undefined;
        await client.end().catch(() => undefined);
        if (attempt > 0) throw this.unavailable(`lost the connection to the state database ${this.location}`, err);
      }
    }
  }

  /**
   * A refused statement: the write's own codes (DF001, DF002) and, where the caller migrates, a
   * missing schema are left for the caller; a part of the schema gone otherwise was removed by hand.
   */
  private statementError(err: unknown, schemaMayBeMissing: boolean): unknown {
    const code = (err as { code?: string }).code ?? '';
    if (code === 'DF001' || code === 'DF002') return err;
    if (isMissingSchema(err) || isUndefinedColumn(err)) return schemaMayBeMissing ? err : damagedSchemaError(this.location, describePgError(err, this.target), err);
    return this.refused(err);
  }

  private unavailable(what: string, err: unknown): StateUnavailableError {
    if (err instanceof StateUnavailableError) return err;
    return new StateUnavailableError(`${what}: ${describePgError(err, this.target)}`, { cause: err });
  }
}


