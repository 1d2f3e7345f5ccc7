// The PostgreSQL state store against a real server (test/support/pg-global-setup.ts).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { emptyLockfile, type Lockfile } from '../../../src/model/index.js';
import {
  ClaimConflictError,
  PgStateStore,
  StateConflictError,
  StateSchemaError,
  WorkspaceNotEmptyError,
  newHistoryId,
  newLineage,
  versionOf,
  type HistoryRecord,
  type LockHolderInfo,
  type StateStore,
} from '../../../src/state/index.js';
import { MIGRATIONS } from '../../../src/state/pg/schema.js';
import { OwnershipError } from '../../../src/state/ownership.js';
import { createTestDatabase, type TestDatabase } from '../../support/pg.js';

let db: TestDatabase;
const stores: StateStore[] = [];

beforeAll(async () => {
  db = await createTestDatabase();
});
afterAll(async () => {
  for (const s of stores) await s.close();
  await db.drop();
});

function store(workspace = 'default', projectId = 'proj-a', url = db.url): PgStateStore {
  const s = new PgStateStore({ url, projectId, workspace, env: {} });
  stores.push(s);
  return s;
}

function lockWith(projectId: string, resources: Record<string, string>): Lockfile {
  const lock = emptyLockfile(projectId);
  for (const [address, id] of Object.entries(resources)) lock.resources[address] = { id };
  return lock;
}

function holder(command = 'dbform apply'): LockHolderInfo {
  return { pid: process.pid, host: 'test-host', user: 'tester', command, startedAt: new Date().toISOString(), ciRun: 'https://ci.example/run/7' };
}

describe('schema', () => {
  it('is created on first use in schema dbform, and an empty state reads as serial 0 of no lineage', async () => {
    const s = store('default', 'proj-schema');
    const snap = await s.read();
    expect(versionOf(snap.lockfile)).toEqual({ lineage: null, serial: 0 });
    expect(snap.lockfile.resources).toEqual({});
    const tables = await db.query<{ table_name: string }>(
      "SELECT table_name FROM information_schema.tables WHERE table_schema = 'dbform' ORDER BY table_name",
    );
    expect(tables.rows.map((r) => r.table_name)).toEqual(['claims', 'history', 'locks', 'schema_version', 'states']);
  });

  it('a schema made by a newer dbform is refused, and left as it is', async () => {
    const scratch = await createTestDatabase();
    try {
      await store('default', 'p', scratch.url).read();
      await scratch.query('INSERT INTO dbform.schema_version (version) VALUES (99)');
      const fresh = store('default', 'p', scratch.url);
      const err = await fresh.read().catch((e: unknown) => e);
      expect(err).toBeInstanceOf(StateSchemaError);
      expect((err as Error).message).toMatch(/schema dbform version 99, made by a newer dbform \(this one knows up to version 2\); upgrade dbform/);
      expect((err as Error).message).toContain(`127.0.0.1:${scratch.port}`);
      const versions = await scratch.query<{ version: number }>('SELECT version FROM dbform.schema_version ORDER BY version');
      expect(versions.rows.map((r) => r.version)).toEqual([2, 99]);
    } finally {
      await scratch.drop();
    }
  });
});

describe('schema version 2: the lineage a row was created with', () => {
  it('a version-1 database is migrated forward on first read, each row keeping its lineage as its creation lineage, which later edits cannot change', async () => {
    const scratch = await createTestDatabase();
    try {
      await scratch.query(`BEGIN; ${MIGRATIONS[0]} INSERT INTO dbform.schema_version (version) VALUES (1); COMMIT;`);
      await scratch.query("INSERT INTO dbform.states (project_id, workspace, lineage, serial, document) VALUES ('p', 'default', 'old-lineage', 3, '{\"version\": 1, \"project_id\": \"p\", \"resources\": {}}')");
      const snap = await store('default', 'p', scratch.url).read();
      expect(versionOf(snap.lockfile)).toEqual({ lineage: 'old-lineage', serial: 3 });
      const versions = await scratch.query<{ version: number }>('SELECT version FROM dbform.schema_version ORDER BY version');
      expect(versions.rows.map((r) => r.version)).toEqual([1, 2]);
      await scratch.query("UPDATE dbform.states SET lineage = 'edited', created_lineage = 'edited too'");
      const row = await scratch.query<{ lineage: string; created_lineage: string }>('SELECT lineage, created_lineage FROM dbform.states');
      expect(row.rows).toEqual([{ lineage: 'edited', created_lineage: 'old-lineage' }]);
      const err = await store('default', 'p', scratch.url).read().catch((e: unknown) => e);
      expect(err).toBeInstanceOf(OwnershipError);
      expect((err as Error).message).toMatch(/^the state of workspace "default" in \S+ was created with lineage old-lineage but now holds a document of lineage edited: /);
    } finally {
      await scratch.drop();
    }
  });
});

describe('compare-and-swap writes', () => {
  it('writes the document, then reads it back with its lineage and serial', async () => {
    const s = store('default', 'proj-rw');
    const lineage = newLineage();
    await s.write({ ...lockWith('proj-rw', { 'service.db': 'aaaaaaaaa1' }), lineage, serial: 1 }, { lineage: null, serial: 0 });
    const snap = await s.read();
    expect(versionOf(snap.lockfile)).toEqual({ lineage, serial: 1 });
    expect(snap.lockfile.resources).toEqual({ 'service.db': { id: 'aaaaaaaaa1' } });
  });

  it('a writer that lost the race gets StateConflictError and overwrites nothing', async () => {
    const a = store('default', 'proj-cas');
    const b = store('default', 'proj-cas');
    const lineage = newLineage();
    await a.write({ ...lockWith('proj-cas', {}), lineage, serial: 1 }, { lineage: null, serial: 0 });
    const both = await Promise.allSettled([
      a.write({ ...lockWith('proj-cas', { 'vpc.a': '111' }), lineage, serial: 2 }, { lineage, serial: 1 }),
      b.write({ ...lockWith('proj-cas', { 'vpc.b': '222' }), lineage, serial: 2 }, { lineage, serial: 1 }),
    ]);
    const failed = both.filter((r) => r.status === 'rejected') as PromiseRejectedResult[];
    expect(failed).toHaveLength(1);
    expect(failed[0]!.reason).toBeInstanceOf(StateConflictError);
    expect((failed[0]!.reason as Error).message).toMatch(/changed while dbform was using it \(expected serial 1, found 2\).*nothing was overwritten/);
    const snap = await a.read();
    expect(snap.lockfile.serial).toBe(2);
    const winner = both[0]!.status === 'fulfilled' ? { 'vpc.a': { id: '111' } } : { 'vpc.b': { id: '222' } };
    expect(snap.lockfile.resources).toEqual(winner);
  });

  it('two first writers of one workspace: one creates it, the other is refused', async () => {
    const results = await Promise.allSettled(
      [1, 2].map((n) => store('default', 'proj-first').write({ ...lockWith('proj-first', { [`vpc.v${n}`]: `${n}00` }), lineage: newLineage(), serial: 1 }, { lineage: null, serial: 0 })),
    );
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    expect((results.find((r) => r.status === 'rejected') as PromiseRejectedResult).reason).toBeInstanceOf(StateConflictError);
  });

  it('a write is one round trip, and a read is one query', async () => {
    const s = store('default', 'proj-rt');
    await s.read();
    const lineage = newLineage();
    let before = s.roundTrips;
    await s.write({ ...lockWith('proj-rt', { 'vpc.a': '1' }), lineage, serial: 1 }, { lineage: null, serial: 0 });
    expect(s.roundTrips - before).toBe(1);
    before = s.roundTrips;
    await s.write({ ...lockWith('proj-rt', { 'vpc.a': '1', 'service.b': 'bbbbbbbbbb' }), lineage, serial: 2 }, { lineage, serial: 1 });
    expect(s.roundTrips - before).toBe(1);
    before = s.roundTrips;
    await s.read();
    expect(s.roundTrips - before).toBe(1);
  });
});

describe('claims', () => {
  it('a resource ID bound in one workspace cannot be bound in another; the refused write changes nothing', async () => {
    const a = store('ws-a', 'proj-claims');
    const b = store('ws-b', 'proj-claims');
    await a.write({ ...lockWith('proj-claims', { 'service.app': 'svc0000001' }), lineage: newLineage(), serial: 1 }, { lineage: null, serial: 0 });
    const lineageB = newLineage();
    await b.write({ ...lockWith('proj-claims', { 'vpc.main': '42' }), lineage: lineageB, serial: 1 }, { lineage: null, serial: 0 });
    const err = await b
      .write({ ...lockWith('proj-claims', { 'vpc.main': '42', 'service.app': 'svc0000001' }), lineage: lineageB, serial: 2 }, { lineage: lineageB, serial: 1 })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ClaimConflictError);
    expect((err as Error).message).toBe(
      `resource ID svc0000001 (service.app) is already bound to service.app in workspace "ws-a" of project proj-claims; a resource belongs to one workspace only. Nothing was written to ${b.location}`,
    );
    const snap = await b.read();
    expect(snap.lockfile.serial).toBe(1);
    expect(snap.lockfile.resources).toEqual({ 'vpc.main': { id: '42' } });
    expect(snap.claimedElsewhere.get('svc0000001')).toEqual({ workspace: 'ws-a', address: 'service.app' });
  });

  it('concurrent claims of one ID by two workspaces: the unique constraint lets exactly one through', async () => {
    const writers = ['c1', 'c2', 'c3', 'c4'].map((w) => store(w, 'proj-race'));
    const results = await Promise.allSettled(
      writers.map((s, i) => s.write({ ...lockWith('proj-race', { [`service.s${i}`]: 'shared0001' }), lineage: newLineage(), serial: 1 }, { lineage: null, serial: 0 })),
    );
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    for (const r of results.filter((r) => r.status === 'rejected') as PromiseRejectedResult[]) expect(r.reason).toBeInstanceOf(ClaimConflictError);
    const claims = await db.query("SELECT workspace FROM dbform.claims WHERE project_id = 'proj-race' AND resource_id = 'shared0001'");
    expect(claims.rowCount).toBe(1);
  });

  it('claims follow the document: a move keeps the claim, a removal frees it for another workspace', async () => {
    const a = store('m1', 'proj-move');
    const b = store('m2', 'proj-move');
    const la = newLineage();
    await a.write({ ...lockWith('proj-move', { 'service.old': 'mmmmmmmmm1' }), lineage: la, serial: 1 }, { lineage: null, serial: 0 });
    await a.write({ ...lockWith('proj-move', { 'service.new': 'mmmmmmmmm1' }), lineage: la, serial: 2 }, { lineage: la, serial: 1 });
    const rows = await db.query("SELECT workspace, address FROM dbform.claims WHERE project_id = 'proj-move'");
    expect(rows.rows).toEqual([{ workspace: 'm1', address: 'service.new' }]);
    await a.write({ ...lockWith('proj-move', {}), lineage: la, serial: 3 }, { lineage: la, serial: 2 });
    await b.write({ ...lockWith('proj-move', { 'service.x': 'mmmmmmmmm1' }), lineage: newLineage(), serial: 1 }, { lineage: null, serial: 0 });
    expect((await a.read()).claimedElsewhere.get('mmmmmmmmm1')).toEqual({ workspace: 'm2', address: 'service.x' });
  });

  it('the same ID in two projects is two claims (a project is its own namespace)', async () => {
    await store('default', 'proj-x1').write({ ...lockWith('proj-x1', { 'vpc.a': '777' }), lineage: newLineage(), serial: 1 }, { lineage: null, serial: 0 });
    await store('default', 'proj-x2').write({ ...lockWith('proj-x2', { 'vpc.a': '777' }), lineage: newLineage(), serial: 1 }, { lineage: null, serial: 0 });
    expect((await store('default', 'proj-x2').read()).lockfile.serial).toBe(1);
  });
});

describe('history', () => {
  function record(workspace: string, at: string, exitCode = 0): HistoryRecord {
    return {
      id: newHistoryId(),
      workspace,
      user: 'tester',
      host: 'h',
      ciRun: null,
      command: 'dbform apply --auto-approve',
      startedAt: at,
      finishedAt: at,
      configHash: 'sha256:00',
      serialBefore: 1,
      serialAfter: 2,
      exitCode,
      actions: [{ address: 'service.db', op: 'createService', outcome: 'done', id: 'abcdefghij' }],
    };
  }

  it('appends rows to dbform.history and reads them newest first, per workspace, with a limit', async () => {
    const s = store('hist', 'proj-h');
    const r1 = record('hist', '2026-01-01T00:00:00.000Z');
    const r2 = record('hist', '2026-01-02T00:00:00.000Z', 1);
    await s.appendHistory(r1);
    await s.appendHistory(r2);
    await s.appendHistory(r2); // a copy (state migrate twice) is not a second record
    await store('other', 'proj-h').appendHistory(record('other', '2026-01-03T00:00:00.000Z'));
    expect(await s.readHistory()).toEqual([r2, r1]);
    expect(await s.readHistory(1)).toEqual([r2]);
  });
});

describe('workspaces', () => {
  it('lists each workspace with its resource count and last apply; deletes only an empty one', async () => {
    const full = store('full', 'proj-ws');
    const empty = store('empty', 'proj-ws');
    const lf = newLineage();
    await full.write({ ...lockWith('proj-ws', { 'vpc.a': '1', 'vpc.b': '2' }), lineage: lf, serial: 1 }, { lineage: null, serial: 0 });
    await empty.write({ ...lockWith('proj-ws', {}), lineage: newLineage(), serial: 1 }, { lineage: null, serial: 0 });
    await full.appendHistory({ ...baseRecord('full'), finishedAt: '2026-02-02T00:00:00.000Z' });
    expect(await full.listWorkspaces()).toEqual([
      { workspace: 'empty', resources: 0, serial: 1, lastApply: null, expiresAt: null },
      { workspace: 'full', resources: 2, serial: 1, lastApply: '2026-02-02T00:00:00.000Z', expiresAt: null },
    ]);
    const err = await full.deleteWorkspace('full').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(WorkspaceNotEmptyError);
    expect((err as Error).message).toBe('workspace "full" still binds 2 resource(s); run `dbform destroy --workspace full` first (nothing was deleted)');
    await full.deleteWorkspace('empty');
    expect((await full.listWorkspaces()).map((w) => w.workspace)).toEqual(['full']);
    await expect(full.deleteWorkspace('default')).rejects.toThrow('the default workspace cannot be deleted');
  });

  it('refuses to delete a workspace while its lock is held', async () => {
    const s = store('busy', 'proj-ws2');
    await s.write({ ...lockWith('proj-ws2', {}), lineage: newLineage(), serial: 1 }, { lineage: null, serial: 0 });
    const lock = await s.lock(holder(), { timeoutMs: 0 });
    try {
      await expect(store('default', 'proj-ws2').deleteWorkspace('busy')).rejects.toThrow(/workspace "busy" is in use/);
    } finally {
      await lock.release();
    }
    await store('default', 'proj-ws2').deleteWorkspace('busy');
  });
});

function baseRecord(workspace: string): HistoryRecord {
  return {
    id: newHistoryId(),
    workspace,
    user: 'u',
    host: 'h',
    ciRun: null,
    command: 'dbform apply',
    startedAt: '2026-02-01T00:00:00.000Z',
    finishedAt: '',
    configHash: null,
    serialBefore: 0,
    serialAfter: 1,
    exitCode: 0,
    actions: [],
  };
}
