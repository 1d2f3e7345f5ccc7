// The state lock on a real PostgreSQL: per (project, workspace), holder named, timeouts, and no
// stale lock after a holder dies or loses its session. Needs `npm run build` (a child process
// takes the lock through dist/).
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PgStateStore, StateLockHeldError, stateLockKey, type LockHolderInfo, type StateStore } from '../../../src/state/index.js';
import { createTestDatabase, type TestDatabase } from '../../support/pg.js';

let db: TestDatabase;
const stores: StateStore[] = [];
const DIST_STATE = join(import.meta.dirname, '..', '..', '..', 'dist', 'state', 'index.js');

beforeAll(async () => {
  db = await createTestDatabase();
});
afterAll(async () => {
  for (const s of stores) await s.close();
  await db.drop();
});

function store(workspace = 'default', projectId = 'proj-lock', onLockWait?: (message: string) => void): PgStateStore {
  const s = new PgStateStore({ url: db.url, projectId, workspace, env: {}, ...(onLockWait ? { onLockWait } : {}) });
  stores.push(s);
  return s;
}

function holder(pid: number, command = 'dbform apply'): LockHolderInfo {
  return { pid, host: 'runner-7', user: 'ci', command, startedAt: '2026-03-01T10:00:00.000Z', ciRun: 'https://github.com/acme/infra/actions/runs/99' };
}

/** A process that takes the lock through the built store and then sleeps. */
function spawnHolder(projectId: string, workspace: string) {
  const code = `
    const { PgStateStore } = await import(${JSON.stringify(DIST_STATE)});
    const s = new PgStateStore({ url: process.env.URL, projectId: ${JSON.stringify(projectId)}, workspace: ${JSON.stringify(workspace)}, env: {} });
    await s.lock({ pid: process.pid, host: 'child-host', user: 'child', command: 'dbform apply (child)', startedAt: new Date().toISOString(), ciRun: null }, { timeoutMs: 0 });
    process.stdout.write('locked\\n');
    setInterval(() => {}, 1000);
  `;
  const child = spawn(process.execPath, ['--input-type=module', '-e', code], { env: { ...process.env, URL: db.url }, stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  const locked = new Promise<void>((resolve, reject) => {
    child.stdout.on('data', (d: Buffer) => d.toString().includes('locked') && resolve());
    child.on('exit', (c) => reject(new Error(`holder exited ${c}: ${stderr}`)));
  });
  return { child, locked };
}

describe('the state lock', () => {
  it('a second locker fails at once naming the holder (pid, host, user, command, start, CI run)', async () => {
    const first = await store().lock(holder(4242), { timeoutMs: 0 });
    try {
      // "At once": it never starts waiting (a wait is always announced through onLockWait first).
      const waits: string[] = [];
      const err = await store('default', 'proj-lock', (m) => waits.push(m)).lock(holder(5151), { timeoutMs: 0 }).catch((e: unknown) => e);
      expect(waits).toEqual([]);
      expect(err).toBeInstanceOf(StateLockHeldError);
      expect((err as Error).message).toBe(
        `the state of workspace "default" of project proj-lock in postgres://postgres@127.0.0.1:${db.port}/${db.name} is locked by ` +
          'pid 4242 on runner-7 (ci, dbform apply, started 2026-03-01T10:00:00.000Z; CI run https://github.com/acme/infra/actions/runs/99). ' +
          'Wait for it to finish, or give --lock-timeout to wait for it',
      );
    } finally {
      await first.release();
    }
    const again = await store().lock(holder(5151), { timeoutMs: 0 });
    await again.release();
  });

  it('is per (project, workspace): other workspaces and projects are never blocked', async () => {
    const a = await store('alpha', 'proj-k').lock(holder(1), { timeoutMs: 0 });
    const b = await store('beta', 'proj-k').lock(holder(2), { timeoutMs: 0 });
    const c = await store('alpha', 'proj-k2').lock(holder(3), { timeoutMs: 0 });
    expect(new Set([stateLockKey({ projectId: 'proj-k', workspace: 'alpha' }), stateLockKey({ projectId: 'proj-k', workspace: 'beta' }), stateLockKey({ projectId: 'proj-k2', workspace: 'alpha' })]).size).toBe(3);
    await Promise.all([a.release(), b.release(), c.release()]);
  });

  it('with a timeout, waits for the holder and takes the lock as soon as it is released', async () => {
    const first = await store('wait').lock(holder(10), { timeoutMs: 0 });
    const waits: string[] = [];
    const waiter = new PgStateStore({ url: db.url, projectId: 'proj-lock', workspace: 'wait', env: {}, onLockWait: (m) => waits.push(m) });
    stores.push(waiter);
    let taken = false;
    const pending = waiter.lock(holder(11), { timeoutMs: 20_000 }).then((l) => ((taken = true), l));
    // Waiting: it said so, and has not got the lock while the holder keeps it.
    while (waits.length === 0) await new Promise((r) => setTimeout(r, 5));
    await new Promise((r) => setTimeout(r, 100));
    expect(taken).toBe(false);
    await first.release();
    // Taken on the release (a PostgreSQL lock wait, woken by it), not by its 20 s timeout running out.
    const second = await pending;
    expect(waits).toHaveLength(1);
    expect(waits[0]).toContain('is locked by pid 10 on runner-7');
    const row = await db.query("SELECT pid FROM dbform.locks WHERE project_id = 'proj-lock' AND workspace = 'wait'");
    expect(row.rows).toEqual([{ pid: 11 }]);
    await second.release();
  });

  it('a wait that times out names the holder and how long it waited', async () => {
    const first = await store('slow').lock(holder(20), { timeoutMs: 0 });
    try {
      const err = await store('slow').lock(holder(21), { timeoutMs: 1200 }).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(StateLockHeldError);
      // At least the 1.2 s it was given (rounded); a loaded machine may have taken longer to say so.
      const waited = /is locked by pid 20 on runner-7 .* after waiting (\d+)s\. /.exec((err as Error).message);
      expect(waited, (err as Error).message).not.toBeNull();
      expect(Number(waited![1])).toBeGreaterThanOrEqual(1);
    } finally {
      await first.release();
    }
  });

  it('SIGKILL of the holder process releases the lock: the next locker gets it at once', async () => {
    const { child, locked } = spawnHolder('proj-kill', 'default');
    await locked;
    const err = await store('default', 'proj-kill').lock(holder(30), { timeoutMs: 0 }).catch((e: unknown) => e);
    expect((err as Error).message).toMatch(new RegExp(`locked by pid ${child.pid} on child-host \\(child, dbform apply \\(child\\)`));
    // The holder's session on the server: the one holding an advisory lock in this file's database.
    const sessions = async () => (await db.query<{ pid: number }>("SELECT pid FROM pg_locks WHERE locktype = 'advisory' AND granted AND database = (SELECT oid FROM pg_database WHERE datname = current_database())")).rows.map((r) => r.pid);
    const [session] = await sessions();
    expect(session).toBeDefined();
    child.kill('SIGKILL');
    await new Promise((r) => child.once('exit', r));
    // Once the server has ended that session (it notices the closed socket), the lock is free: no
    // lease, no timeout to run out. The loop waits for PostgreSQL, not for dbform.
    const gone = async () => (await db.query('SELECT 1 FROM pg_stat_activity WHERE pid = $1', [session])).rowCount === 0;
    for (const end = Date.now() + 30_000; !(await gone()); await new Promise((r) => setTimeout(r, 10))) {
      if (Date.now() > end) throw new Error(`PostgreSQL never ended the killed holder's session ${session}`);
    }
    const lock = await store('default', 'proj-kill').lock(holder(31), { timeoutMs: 0 });
    await lock.release();
  });

  it('pg_terminate_backend of the lock session: the holder learns it lost the lock, the next locker gets it at once', async () => {
    const s = store('term', 'proj-term');
    const lock = await s.lock(holder(40), { timeoutMs: 0 });
    expect(lock.lost.aborted).toBe(false);
    const killed = await db.query("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = 'dbform-lock' AND datname = current_database()");
    expect(killed.rowCount).toBeGreaterThanOrEqual(1);
    await new Promise<void>((resolve) => (lock.lost.aborted ? resolve() : lock.lost.addEventListener('abort', () => resolve())));
    expect(lock.lost.aborted).toBe(true);
    const next = await store('term', 'proj-term').lock(holder(41), { timeoutMs: 0 });
    await next.release();
    await lock.release();
  });

  it('pg_terminate_backend of the data session: the next statement reconnects', async () => {
    const s = store('data', 'proj-term');
    await s.read();
    await db.query("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = 'dbform' AND datname = current_database()");
    await new Promise((r) => setTimeout(r, 100));
    expect((await s.read()).lockfile.serial).toBeUndefined();
  });

  it('state unlock shows a live holder and leaves it; clears the row of a session that is gone', async () => {
    const live = await store('unl', 'proj-unlock').lock(holder(50), { timeoutMs: 0 });
    const seen = await store('unl', 'proj-unlock').unlock();
    expect(seen).toMatchObject({ alive: true, cleared: false, holder: { pid: 50, host: 'runner-7' } });
    // A holder row left by a session that is gone (written by an older dbform, or by hand).
    await live.release();
    await db.query(
      "INSERT INTO dbform.locks VALUES ('proj-unlock', 'unl', 999999, now(), 77, 'gone-host', 'bob', 'dbform apply', now(), NULL)",
    );
    const cleared = await store('unl', 'proj-unlock').unlock();
    expect(cleared).toMatchObject({ alive: false, cleared: true, holder: { pid: 77, host: 'gone-host', user: 'bob' } });
    expect((await db.query("SELECT 1 FROM dbform.locks WHERE project_id = 'proj-unlock'")).rowCount).toBe(0);
    expect(await store('unl', 'proj-unlock').unlock()).toEqual({ holder: null, alive: false, cleared: false });
  });
});
