// Workspace expiry and `dbform sweep` (SPEC section 11) on both stores: `apply --ttl` records an
// expiry, `workspace list` shows it, sweep destroys exactly the workspaces that are due (never
// default), each under its own lock and with its own history record, and deletes their state.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { thisProcess } from '../../../src/cli/local-process.js';
import { startEmulator, type EmulatorHandle } from '../../../src/emulator/index.js';
import { describeHolder, PgStateStore } from '../../../src/state/index.js';
import { runCli, workspace, type Workspace } from '../apply/cli-harness.js';
import { createTestDatabase, type TestDatabase } from '../../support/pg.js';
import { removeTempDirs } from '../../support/temp-dir.js';

let emulator: EmulatorHandle;
const databases: TestDatabase[] = [];
beforeAll(async () => {
  emulator = await startEmulator({ timeScale: 0.01 });
});
afterAll(async () => {
  await emulator.close();
  for (const db of databases) await db.drop();
  removeTempDirs();
});

/** A state database of its own for one test: the workspaces of one project are all swept together. */
async function freshDatabase(): Promise<TestDatabase> {
  const db = await createTestDatabase();
  databases.push(db);
  return db;
}

const config = (prefix: string, protect = false) => `version: 1
project_id: proj-demo
services:
  app:
    name: ${prefix}-\${workspace}
    cpu_millis: 500
    memory_gbs: 2
${protect ? '    protect: true\n' : ''}`;

async function liveNames(): Promise<string[]> {
  const res = await fetch(`${emulator.url}/projects/proj-demo/services`, { headers: { authorization: 'Bearer demo-pat' } });
  const list = (await res.json()) as Array<{ name: string; status: string }>;
  return list.filter((s) => s.status !== 'DELETING').map((s) => s.name);
}

async function apply(ws: Workspace, name: string, ...extra: string[]): Promise<void> {
  const r = await runCli(ws, ['apply', '--auto-approve', '--workspace', name, ...extra]);
  expect(r.code, r.stderr).toBe(0);
}

/**
 * Makes a workspace's expiry pass now, as time would: the shortest TTL is a minute (SPEC section
 * 13), so a test sets the recorded expiry in the past by hand, where each store keeps it.
 */
async function expire(ws: Workspace, ...names: string[]): Promise<void> {
  const url = ws.env.DBFORM_STATE;
  if (url === undefined) {
    for (const name of names) writeFileSync(join(ws.dir, `dbform.${name}.lock.json.expiry.json`), JSON.stringify({ expires_at: '2020-01-01T00:00:00.000Z' }));
    return;
  }
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query("UPDATE dbform.states SET expires_at = now() - interval '1 minute' WHERE project_id = 'proj-demo' AND workspace = ANY ($1)", [names]);
  } finally {
    await client.end();
  }
}

type Listed = { workspace: string; resources: number; expires_at: string | null; last_apply: string | null };
async function listed(ws: Workspace): Promise<Listed[]> {
  const r = await runCli(ws, ['workspace', 'list', '--json']);
  expect(r.code, r.stderr).toBe(0);
  return JSON.parse(r.stdout) as Listed[];
}

/** The history records of one workspace, as `dbform history` shows them. */
async function historyOf(ws: Workspace, name: string): Promise<Array<{ command: string; exit_code: number; actions: Array<{ op: string }> }>> {
  return JSON.parse((await runCli(ws, ['history', '--json', '--workspace', name])).stdout);
}

describe.each([
  ['the lockfile files', 'file'],
  ['PostgreSQL', 'pg'],
] as const)('expiry and sweep on %s', (_label, kind) => {
  const env = async (): Promise<NodeJS.ProcessEnv> => (kind === 'pg' ? { DBFORM_STATE: (await freshDatabase()).url } : {});

  it('apply --ttl records an expiry that workspace list shows; sweep destroys what expired, then what is older than --older-than, never default', async () => {
    const prefix = `sw-${kind}`;
    const ws = workspace(config(prefix), emulator.url, await env());
    await apply(ws, 'default');
    const before = Date.now();
    const ttl = await runCli(ws, ['apply', '--auto-approve', '--workspace', 'pr-1', '--ttl', '1m']);
    expect(ttl.code, ttl.stderr).toBe(0);
    expect(ttl.stderr).toMatch(/^Workspace "pr-1" expires at \S+Z; `dbform sweep` destroys it after that\.\n/m);
    await apply(ws, 'pr-2', '--ttl', '72h');
    await apply(ws, 'pr-3');
    const list = await listed(ws);
    expect(list.map((w) => w.workspace)).toEqual(['default', 'pr-1', 'pr-2', 'pr-3']);
    const pr2 = Date.parse(list.find((w) => w.workspace === 'pr-2')!.expires_at!);
    expect(pr2 - before).toBeGreaterThanOrEqual(72 * 3_600_000);
    expect(pr2 - Date.now()).toBeLessThanOrEqual(72 * 3_600_000);
    expect(list.find((w) => w.workspace === 'pr-3')!.expires_at).toBeNull();
    expect(list.find((w) => w.workspace === 'default')!.expires_at).toBeNull();
    expect(Date.parse(list.find((w) => w.workspace === 'pr-1')!.expires_at!) - before).toBeGreaterThanOrEqual(60_000);
    if (kind === 'file') {
      // Beside the workspace's lockfile, which keeps its format: no expiry in it.
      expect(JSON.parse(readFileSync(join(ws.dir, 'dbform.pr-2.lock.json.expiry.json'), 'utf8'))).toEqual({ expires_at: new Date(pr2).toISOString() });
      expect(Object.keys(JSON.parse(readFileSync(join(ws.dir, 'dbform.pr-2.lock.json'), 'utf8')))).toEqual(['version', 'project_id', 'lineage', 'serial', 'resources']);
    }

    await expire(ws, 'pr-1');
    const swept = await runCli(ws, ['sweep', '--auto-approve']);
    expect(swept.code, swept.stderr).toBe(0);
    expect(swept.stdout).toMatch(/^Sweeping 1 workspace\(s\) of project proj-demo: pr-1\n\nWorkspace "pr-1" \(expired at \S+\):\n/);
    // The destroy plan comes before the destroy.
    expect(swept.stdout.indexOf('- service.app')).toBeLessThan(swept.stdout.indexOf('deleteService started'));
    expect(swept.stdout).toContain('Swept workspace "pr-1": its resources are destroyed and its state is deleted.\n');
    expect(await liveNames()).toEqual(expect.arrayContaining([`${prefix}-default`, `${prefix}-pr-2`, `${prefix}-pr-3`]));
    expect(await liveNames()).not.toContain(`${prefix}-pr-1`);
    expect((await listed(ws)).map((w) => w.workspace)).toEqual(['default', 'pr-2', 'pr-3']);
    const history = await historyOf(ws, 'pr-1');
    expect(history[0]).toMatchObject({ command: 'dbform sweep --auto-approve', exit_code: 0, actions: [{ op: 'deleteService' }] });
    if (kind === 'file') expect(existsSync(join(ws.dir, 'dbform.pr-1.lock.json.expiry.json'))).toBe(false);

    // Nothing else is due: a second sweep changes nothing.
    const again = await runCli(ws, ['sweep', '--auto-approve']);
    expect(again.code, again.stderr).toBe(0);
    expect(again.stdout).toMatch(/^No workspace of project proj-demo in \S+ is due \(2 other than default\); nothing to sweep\.\n$/);

    // Every workspace was applied more than 1 ms ago; default is still never swept.
    const old = await runCli(ws, ['sweep', '--auto-approve', '--older-than', '1ms']);
    expect(old.code, old.stderr).toBe(0);
    expect(old.stdout).toMatch(/^Sweeping 2 workspace\(s\) of project proj-demo: pr-2, pr-3\n/);
    expect((await listed(ws)).map((w) => w.workspace)).toEqual(['default']);
    const names = await liveNames();
    expect(names).toContain(`${prefix}-default`);
    expect(names.filter((n) => n.startsWith(`${prefix}-pr-`))).toEqual([]);
  });

  it('a protected resource blocks its workspace (exit 3), the others are still swept', async () => {
    const prefix = `prot-${kind}`;
    // One state, two configs: protect is recorded in the lockfile entry of "keep" by its apply.
    const ws = workspace(config(prefix, true), emulator.url, await env());
    writeFileSync(join(ws.dir, 'plain.yaml'), config(prefix));
    await apply(ws, 'keep', '--ttl', '1m');
    await apply(ws, 'drop', '--ttl', '1m', '-f', 'plain.yaml');
    await expire(ws, 'keep', 'drop');
    const swept = await runCli(ws, ['sweep', '--auto-approve', '-f', 'plain.yaml']);
    expect(swept.code).toBe(3);
    expect(swept.stderr).toMatch(/^error: the plan is blocked; nothing was changed:\n  service\.app deleteService: protected: service\.app has protect: true in the state/);
    expect(swept.stdout).toContain('Swept workspace "drop"');
    expect(swept.stdout).toContain('Sweep: 1 of 2 workspace(s) swept, 1 blocked, 0 failed or not approved.\n');
    const names = await liveNames();
    expect(names).toContain(`${prefix}-keep`);
    expect(names).not.toContain(`${prefix}-drop`);
    expect((await listed(ws)).map((w) => w.workspace)).toContain('keep');
  });

  it('without --auto-approve and without a terminal: shows the plan, refuses, destroys nothing', async () => {
    const prefix = `ask-${kind}`;
    const ws = workspace(config(prefix), emulator.url, await env());
    await apply(ws, 'pr-1', '--ttl', '1m');
    await apply(ws, 'pr-2', '--ttl', '1m');
    await expire(ws, 'pr-1', 'pr-2');
    const r = await runCli(ws, ['sweep']);
    expect(r.code).toBe(1);
    expect(r.stdout).toContain('- service.app');
    expect(r.stderr).toBe(
      'error: refusing to sweep without confirmation: standard input is not a terminal. Review the plan above and run `dbform sweep --auto-approve` to proceed non-interactively.\n',
    );
    expect(await liveNames()).toEqual(expect.arrayContaining([`${prefix}-pr-1`, `${prefix}-pr-2`]));
    // Stopped at the first: pr-2's plan was never shown.
    expect(r.stdout).not.toContain('Workspace "pr-2"');
    expect((await runCli(ws, ['sweep', '--auto-approve'])).code).toBe(0);
  });

  it('the expiry is recorded before anything changes: an apply that is refused still leaves an (empty) expiring workspace', async () => {
    const ws = workspace(config(`early-${kind}`), emulator.url, await env());
    const r = await runCli(ws, ['apply', '--workspace', 'pr-5', '--ttl', '1m']);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('refusing to apply without confirmation');
    expect((await listed(ws)).find((w) => w.workspace === 'pr-5')).toMatchObject({ resources: 0, expires_at: expect.any(String) });
    await expire(ws, 'pr-5');
    const swept = await runCli(ws, ['sweep', '--auto-approve']);
    expect(swept.code, swept.stderr).toBe(0);
    expect(swept.stdout).toContain('Swept workspace "pr-5"');
    expect((await listed(ws)).map((w) => w.workspace)).not.toContain('pr-5');
  });
});

describe('sweep takes each workspace\'s lock', () => {
  it('a workspace whose lock another run holds fails, naming the holder; the others are swept', async () => {
    const db = await freshDatabase();
    const ws = workspace(config('lock'), emulator.url, { DBFORM_STATE: db.url });
    await apply(ws, 'held', '--ttl', '1m');
    await apply(ws, 'free', '--ttl', '1m');
    await expire(ws, 'held', 'free');
    const holder = new PgStateStore({ url: db.url, projectId: 'proj-demo', workspace: 'held', env: {} });
    const lock = await holder.lock(describeHolder(thisProcess(), {}, 'dbform apply'), { timeoutMs: 0 });
    try {
      const r = await runCli(ws, ['sweep', '--auto-approve']);
      expect(r.code).toBe(1);
      expect(r.stderr).toMatch(/^error: the state of workspace "held" of project proj-demo in \S+ is locked by pid \d+ on \S+ \([^,]+, dbform apply, started /m);
      expect(r.stdout).toContain('Swept workspace "free"');
      expect(await liveNames()).toContain('lock-held');
      expect(await liveNames()).not.toContain('lock-free');
    } finally {
      await lock.release();
      await holder.close();
    }
  });
});

describe('bad input: one line each', () => {
  it('--ttl that is not a duration, --ttl in the default workspace, --older-than that is not a duration', async () => {
    const ws = workspace(config('bad'), emulator.url, { DBFORM_STATE: (await freshDatabase()).url });
    for (const [args, message] of [
      [['apply', '--auto-approve', '--workspace', 'pr-1', '--ttl', 'soon'], 'error: --ttl must be a whole number of minutes, hours or days, such as 30m, 72h, 7d or 1d12h (got "soon")\n'],
      [['apply', '--auto-approve', '--workspace', 'pr-1', '--ttl', '72'], 'error: --ttl must be a whole number of minutes, hours or days, such as 30m, 72h, 7d or 1d12h (got "72")\n'],
      // SPEC section 13: whole minutes or more, at most 366 days, refused before any lock is taken.
      [['apply', '--auto-approve', '--workspace', 'pr-1', '--ttl', '0.1ms'], 'error: --ttl must be a whole number of minutes, hours or days, such as 30m, 72h, 7d or 1d12h (got "0.1ms")\n'],
      [['apply', '--auto-approve', '--workspace', 'pr-1', '--ttl', '90s'], 'error: --ttl must be a whole number of minutes, hours or days, such as 30m, 72h, 7d or 1d12h (got "90s")\n'],
      [['apply', '--auto-approve', '--workspace', 'pr-1', '--ttl', '0m'], 'error: --ttl must be at least 1m (got "0m")\n'],
      [
        ['apply', '--auto-approve', '--workspace', 'pr-1', '--ttl', '99999999999d'],
        'error: --ttl must be at most 366 days (got "99999999999d"); leave --ttl out for a workspace that is not swept\n',
      ],
      [['apply', '--auto-approve', '--workspace', 'pr-1', '--ttl', '367d'], 'error: --ttl must be at most 366 days (got "367d"); leave --ttl out for a workspace that is not swept\n'],
      [['sweep', '--older-than', '0.1ms'], 'error: --older-than must be a duration such as 72h, 3d, 90m or 1d12h (got "0.1ms")\n'],
      [
        ['apply', '--auto-approve', '--ttl', '72h'],
        'error: --ttl sets when `dbform sweep` may destroy a workspace, and sweep never destroys the default workspace; apply a preview with --workspace NAME --ttl DURATION\n',
      ],
      [['sweep', '--older-than', 'a week'], 'error: --older-than must be a duration such as 72h, 3d, 90m or 1d12h (got "a week")\n'],
    ] as const) {
      const r = await runCli(ws, [...args]);
      expect(r.code, args.join(' ')).toBe(1);
      expect(r.stderr).toBe(message);
      expect(r.stdout).toBe('');
    }
    expect(await liveNames()).not.toContain('bad-pr-1');
    // No lock was taken and no state written: the workspace does not exist.
    expect((await listed(ws)).map((w) => w.workspace)).toEqual([]);
  });

  it('sweep on a plain lockfile with no workspaces is one line; on PostgreSQL with none due it is a quiet no-op', async () => {
    const ws = workspace(config('plain'), emulator.url);
    await apply(ws, 'default');
    const r = await runCli(ws, ['sweep', '--auto-approve']);
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr).toBe(
      'error: there is nothing to sweep: the state is the lockfile dbform.lock.json with no workspace beside it; sweep destroys expired workspaces (`dbform apply --workspace NAME --ttl 72h`), kept in a shared state (--state postgres://...)\n',
    );
    expect(await liveNames()).toContain('plain-default');
    const onPg = await runCli(ws, ['sweep', '--auto-approve', '--state', (await freshDatabase()).url]);
    expect(onPg.code, onPg.stderr).toBe(0);
    expect(onPg.stdout).toMatch(/^No workspace of project proj-demo in postgres:\/\/\S+ is due \(0 other than default\); nothing to sweep\.\n$/);
  });
});
