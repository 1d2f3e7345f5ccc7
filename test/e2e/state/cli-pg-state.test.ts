// The CLI with its state on a real PostgreSQL and the emulator over HTTP (SPEC section 10).
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startEmulator } from '../../../src/emulator/index.js';
import { runCli, spawnCli, workspace, type Workspace } from '../apply/cli-harness.js';
import { EmulatorClock } from '../../support/emulator-clock.js';
import { createTestDatabase, type TestDatabase } from '../../support/pg.js';

let db: TestDatabase;
let emulator: Awaited<ReturnType<typeof startEmulator>> | undefined;

beforeAll(async () => {
  db = await createTestDatabase();
});
afterAll(async () => {
  await db.drop();
});
afterEach(async () => {
  await emulator?.close();
  emulator = undefined;
});

const config = (services: string[], extra = '') =>
  `version: 1\nproject_id: proj-demo\n${extra}services:\n${services.map((s) => `  ${s}:\n    cpu_millis: 500\n    memory_gbs: 2\n`).join('')}`;

function teamWorkspace(text: string, url: string, env: NodeJS.ProcessEnv = {}): Workspace {
  return workspace(text, url, { DBFORM_STATE: db.url, ...env });
}

async function until(check: () => boolean, what: string, ms = 15_000): Promise<void> {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

async function stateRow(project: string, ws: string) {
  const { rows } = await db.query<{ lineage: string; serial: number; document: { resources: Record<string, { id: string }> } }>(
    'SELECT lineage, serial::int AS serial, document FROM dbform.states WHERE project_id = $1 AND workspace = $2',
    [project, ws],
  );
  return rows[0];
}

describe('apply with the state on PostgreSQL', () => {
  it('writes the state and a history record to the database, no lockfile; the next plan is empty', async () => {
    emulator = await startEmulator({ timeScale: 0.01 });
    const ws = teamWorkspace(config(['api', 'web']), emulator.url, { GITHUB_RUN_ID: '77', GITHUB_SERVER_URL: 'https://github.com', GITHUB_REPOSITORY: 'acme/infra' });
    const apply = await runCli(ws, ['apply', '--auto-approve']);
    expect(apply.code, apply.stderr).toBe(0);
    expect(existsSync(ws.lockfile)).toBe(false);
    const row = await stateRow('proj-demo', 'default');
    expect(Object.keys(row!.document.resources).sort()).toEqual(['service.api', 'service.web']);
    const plan = await runCli(ws, ['plan', '--detailed-exitcode']);
    expect(plan.code, plan.stderr).toBe(0);

    const list = JSON.parse((await runCli(ws, ['state', 'list', '--json'])).stdout);
    expect(list).toMatchObject({ workspace: 'default', lineage: row!.lineage, serial: row!.serial });
    expect(list.resources.map((r: { address: string; id: string }) => [r.address, r.id])).toEqual([
      ['service.api', row!.document.resources['service.api']!.id],
      ['service.web', row!.document.resources['service.web']!.id],
    ]);
    const history = JSON.parse((await runCli(ws, ['history', '--json'])).stdout);
    expect(history).toHaveLength(1);
    expect(history[0]).toMatchObject({
      workspace: 'default',
      ci_run: 'https://github.com/acme/infra/actions/runs/77',
      command: 'dbform apply --auto-approve',
      exit_code: 0,
      serial_before: 0,
      serial_after: row!.serial,
    });
    expect(history[0].config_hash).toMatch(/^sha256:[0-9a-f]{64}$/);
    expect(history[0].actions.map((a: { address: string; op: string; outcome: string }) => `${a.address} ${a.op} ${a.outcome}`).sort()).toEqual([
      'service.api createService done',
      'service.web createService done',
    ]);
    expect(history[0].actions.every((a: { id: string }) => /^[a-z0-9]{10}$/.test(a.id))).toBe(true);
    const show = JSON.parse((await runCli(ws, ['state', 'show', 'service.api', '--json'])).stdout);
    expect(show).toMatchObject({ address: 'service.api', kind: 'service', id: row!.document.resources['service.api']!.id, live: { name: 'api', status: 'READY' } });
  });

  it('two applies from two directories on one state: the second names the holder, or waits with --lock-timeout', async () => {
    // The emulator's clock stands until the other two have met the lock: the first apply cannot
    // finish its create (and let the lock go) before then, however slow the machine.
    const clock = new EmulatorClock();
    clock.freeze();
    emulator = await startEmulator({ timeScale: 0.01, now: clock.now });
    const a = teamWorkspace(config(['slow']), emulator.url, { DBFORM_WORKSPACE: 'locks' });
    const b = teamWorkspace(config(['slow']), emulator.url, { DBFORM_WORKSPACE: 'locks' });
    const first = spawnCli(a, ['apply', '--auto-approve']);
    let out = '';
    first.child.stdout!.on('data', (d) => (out += d));
    await until(() => /createService/.test(out), 'the first apply to start');
    const waiter = spawnCli(b, ['apply', '--auto-approve', '--lock-timeout', '60s']);
    let waiterErr = '';
    waiter.child.stderr!.on('data', (d) => (waiterErr += d));
    const refused = await runCli(b, ['apply', '--auto-approve']);
    await until(() => waiterErr.includes('waiting up to 60s for the state lock'), 'the second apply to wait for the lock');
    clock.thaw();
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(
      new RegExp(`^error: the state of workspace "locks" of project proj-demo in postgres://postgres@127\\.0\\.0\\.1:${db.port}/${db.name} is locked by pid ${first.child.pid} on .* \\(.*, dbform apply, started .*\\)\\. Wait for it to finish, or give --lock-timeout to wait for it\\n$`),
    );
    const waiting = await waiter.done;
    expect(waiting.code, waiting.stderr).toBe(0);
    expect(waiting.stderr).toContain(`waiting up to 60s for the state lock: the state of workspace "locks"`);
    expect(waiting.stdout).toContain('No changes');
    expect((await first.done).code).toBe(0);
  });

  it('SIGKILL of the holder: the next apply starts at once and converges', async () => {
    // The clock stands until the holder is killed: it is killed holding the lock, mid-apply.
    const clock = new EmulatorClock();
    clock.freeze();
    emulator = await startEmulator({ timeScale: 0.05, now: clock.now });
    const ws = teamWorkspace(config(['k1', 'k2']), emulator.url, { DBFORM_WORKSPACE: 'killed' });
    const first = spawnCli(ws, ['apply', '--auto-approve']);
    let out = '';
    first.child.stdout!.on('data', (d) => (out += d));
    await until(() => /createService.*(QUEUED|CONFIGURING)/.test(out), 'a service to be created');
    first.child.kill('SIGKILL');
    expect((await first.done).signal).toBe('SIGKILL');
    clock.thaw();
    // Without --lock-timeout a held lock fails at once: exit 0 says the killed holder's lock was gone.
    const next = await runCli(ws, ['apply', '--auto-approve']);
    expect(next.code, next.stderr).toBe(0);
    expect(next.stderr).not.toContain('locked by');
    expect(next.stderr).not.toContain('waiting');
    const row = await stateRow('proj-demo', 'killed');
    expect(Object.keys(row!.document.resources).sort()).toEqual(['service.k1', 'service.k2']);
    const plan = await runCli(ws, ['plan', '--detailed-exitcode']);
    expect(plan.code, plan.stdout).toBe(0);
  });

  it('pg_terminate_backend mid-apply: the holder stops starting work, every ID is in the state, the next apply converges', async () => {
    // The clock stands until the apply has exited: t1 cannot become READY, so its forks cannot
    // start before the session is terminated, however slow the machine; and a holder that went on
    // after losing its lock would wait for t1 for ever instead of exiting 1.
    const clock = new EmulatorClock();
    clock.freeze();
    emulator = await startEmulator({ timeScale: 0.3, now: clock.now });
    const services = ['t1', 't2', 't3', 't4'];
    const text = `${config(services)}`.replace(/(  t[234]:\n)/g, '$1    fork: { from: t1, strategy: NOW }\n');
    const ws = teamWorkspace(text, emulator.url, { DBFORM_WORKSPACE: 'terminated' });
    const run = spawnCli(ws, ['apply', '--auto-approve']);
    let out = '';
    run.child.stdout!.on('data', (d) => (out += d));
    await until(() => /createService (QUEUED|CONFIGURING)/.test(out), 'the first create to be accepted');
    await db.query("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name LIKE 'dbform%' AND datname = current_database()");
    const result = await run.done;
    expect(result.code, result.stderr + result.stdout).toBe(1);
    expect(result.stderr).toMatch(/apply stopped: .*Nothing new was started; every ID it bound is in the state( or kept in .*state-journal\.json.*)?\. Run the same command again/);
    const live = await emulatorServices(emulator.url);
    const bound = (await stateRow('proj-demo', 'terminated'))?.document.resources ?? {};
    const journal = existsSync(join(ws.dir, '.dbform', 'state-journal.json')) ? JSON.parse(readFileSync(join(ws.dir, '.dbform', 'state-journal.json'), 'utf8')) : { entries: [] };
    const journaled = journal.entries.flatMap((e: { resources: { resources: Record<string, { id: string }> } }) => Object.values(e.resources.resources).map((r) => r.id));
    // Every service that exists live is bound in the state or kept in the journal.
    for (const s of live) expect([...Object.values(bound).map((r) => r.id), ...journaled]).toContain(s.id);
    expect(live.length).toBeLessThan(services.length);
    clock.thaw();
    const again = await runCli(ws, ['apply', '--auto-approve']);
    expect(again.code, again.stderr).toBe(0);
    expect(existsSync(join(ws.dir, '.dbform', 'state-journal.json'))).toBe(false);
    const after = await emulatorServices(emulator.url);
    expect(after.map((s) => s.name).sort()).toEqual(services);
    expect((await runCli(ws, ['plan', '--detailed-exitcode'])).code).toBe(0);
  });
});

describe('saved plans with the state on PostgreSQL', () => {
  it('record the lineage and serial of the PostgreSQL state; a plan of another workspace is refused', async () => {
    emulator = await startEmulator({ timeScale: 0.01 });
    const ws = teamWorkspace(config(['sp']), emulator.url, { DBFORM_WORKSPACE: 'saved' });
    expect((await runCli(ws, ['apply', '--auto-approve'])).code).toBe(0);
    const row = await stateRow('proj-demo', 'saved');
    const planFile = join(ws.dir, 'grow.plan.json');
    writeFileSync(ws.config, config(['sp', 'sp2']));
    const plan = await runCli(ws, ['plan', '--out', planFile]);
    expect(plan.code, plan.stderr).toBe(0);
    expect(JSON.parse(readFileSync(planFile, 'utf8'))).toMatchObject({ lineage: row!.lineage, serial: row!.serial });
    const other = await runCli(ws, ['apply', planFile], { env: { DBFORM_WORKSPACE: 'elsewhere' } });
    expect(other.code).toBe(1);
    expect(other.stderr).toMatch(/^error: .*grow\.plan\.json was made from another state \(lineage [0-9a-f-]{36}\) than postgres:\/\/postgres@127\.0\.0\.1:\d+\/\w+ \(no lineage yet\)/);
    const applied = await runCli(ws, ['apply', planFile]);
    expect(applied.code, applied.stderr).toBe(0);
    expect(Object.keys((await stateRow('proj-demo', 'saved'))!.document.resources).sort()).toEqual(['service.sp', 'service.sp2']);
  });
});

describe('export with the state on PostgreSQL', () => {
  it('writes the bindings into the state instead of a lockfile; plan right after is empty', async () => {
    emulator = await startEmulator({ timeScale: 0.01 });
    const source = workspace(config(['ex1', 'ex2']), emulator.url);
    expect((await runCli(source, ['apply', '--auto-approve'])).code).toBe(0);
    const out = join(source.dir, 'exported', 'dbform.yaml');
    const env = { DBFORM_STATE: db.url, DBFORM_WORKSPACE: 'exported' };
    const exported = await runCli(source, ['export', '-o', out], { env });
    expect(exported.code, exported.stderr).toBe(0);
    expect(exported.stderr).toMatch(/; state postgres:\/\/postgres@127\.0\.0\.1:\d+\/\w+ \(workspace "exported"\)\.\n$/);
    expect(existsSync(join(source.dir, 'exported', 'dbform.lock.json'))).toBe(false);
    const row = await stateRow('proj-demo', 'exported');
    expect(Object.keys(row!.document.resources).sort()).toEqual(['service.ex1', 'service.ex2']);
    const plan = await runCli(source, ['plan', '-f', out, '--detailed-exitcode'], { env });
    expect(plan.code, plan.stdout + plan.stderr).toBe(0);
  });
});

async function emulatorServices(url: string): Promise<Array<{ id: string; name: string }>> {
  const res = await fetch(`${url}/projects/proj-demo/services`, { headers: { authorization: 'Bearer demo-pat' } });
  return ((await res.json()) as Array<{ service_id: string; name: string }>).map((s) => ({ id: s.service_id, name: s.name }));
}
