// The initial password of a created service exists only in the create response: apply must be
// able to save it before it creates anything, and say plainly when it could not.
import { existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startEmulator } from '../../../src/emulator/index.js';
import type { ExecutorApi } from '../../../src/executor/ports.js';
import { runCli, workspace } from './cli-harness.js';
import { act, planOf, PROJECT, startHarness, type Harness } from './engine-harness.js';

let emulator: Awaited<ReturnType<typeof startEmulator>> | undefined;
let h: Harness | undefined;
afterEach(async () => {
  await emulator?.close();
  await h?.close();
  emulator = undefined;
  h = undefined;
});

const withService = `version: 1
project_id: proj-demo
vpcs:
  main:
    cidr: 10.0.0.0/16
    region_code: us-east-1
services:
  db:
    cpu_millis: 500
    memory_gbs: 2
`;

const mutations = () => Object.keys(emulator!.stats().requests).filter((k) => !k.startsWith('GET'));

describe('apply and the pgpass file', () => {
  it('refuses before changing anything when the pgpass path is a directory', async () => {
    emulator = await startEmulator({ timeScale: 0.01 });
    const ws = workspace(withService, emulator.url);
    mkdirSync(ws.pgpass);
    const run = await runCli(ws, ['apply', '--auto-approve']);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain(`error: nothing was changed: the initial password of each service this apply creates is saved only to the pgpass file ${ws.pgpass}`);
    expect(run.stderr).toContain('(it is a directory)');
    expect(run.stderr).toContain('--pgpass PATH or PGPASSFILE');
    expect(run.stderr).not.toContain('bug');
    expect(mutations()).toEqual([]);
    expect(existsSync(ws.lockfile)).toBe(false);
  });

  it('refuses when a part of the --pgpass path is a file, naming the directory it cannot create', async () => {
    emulator = await startEmulator({ timeScale: 0.01 });
    const ws = workspace(withService, emulator.url);
    const blocker = join(ws.dir, 'not-a-dir');
    writeFileSync(blocker, 'x');
    const run = await runCli(ws, ['apply', '--auto-approve', '--pgpass', join(blocker, 'pgpass')]);
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/nothing was changed: .*pgpass file .*not-a-dir\/pgpass, which cannot be written \(cannot create its directory .*not-a-dir: /);
    expect(mutations()).toEqual([]);
  });

  it('does not check the pgpass file when the plan creates no service', async () => {
    emulator = await startEmulator({ timeScale: 0.01 });
    const ws = workspace(withService.replace(/services:[\s\S]*$/, ''), emulator.url);
    mkdirSync(ws.pgpass);
    const run = await runCli(ws, ['apply', '--auto-approve']);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(mutations()).toEqual(['POST /projects/{project_id}/vpcs']);
  });

  it('creates a missing pgpass directory and the file with mode 0600', async () => {
    emulator = await startEmulator({ timeScale: 0.01 });
    const ws = workspace(withService, emulator.url);
    const pgpass = join(ws.dir, 'secrets', 'deeper', 'pgpass');
    const run = await runCli(ws, ['apply', '--auto-approve', '--pgpass', pgpass]);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(statSync(pgpass).mode & 0o777).toBe(0o600);
    const id = JSON.parse(readFileSync(ws.lockfile, 'utf8')).resources['service.db'].id as string;
    expect(readFileSync(pgpass, 'utf8')).toMatch(new RegExp(`^${id}\\.proj-demo\\.tsdb\\.cloud\\.example:5432:tsdb:tsdbadmin:[^\\n]+\\n$`));
  });

  it('a pgpass write that fails after the create says the service exists, its password is lost, and how to set one', async () => {
    h = await startHarness();
    let password = '';
    const api: ExecutorApi = Object.create(h.client);
    api.createService = async (p, body) => {
      const dto = await h!.client.createService(p, body);
      password = dto.initial_password ?? '';
      return dto;
    };
    const svc = act('createService', 'service.db', { request: { name: 'db', cpu_millis: '500', memory_gbs: '2' } });
    const rs = act('createReplicaSet', 'replica_set.db.r', { dependsOn: [svc.id], refs: { service: { address: 'service.db' } }, request: { name: 'r', cpu_millis: 500, memory_gbs: 2, nodes: 1 } });
    // The check before the apply passed; the file became a directory since.
    mkdirSync(h.pgpassPath);
    const result = await h.apply(planOf([svc, rs]), { api });
    const id = h.readLock().resources['service.db']!.id;
    expect((await h.client.listServices(PROJECT)).map((s) => s.service_id)).toEqual([id]);
    expect(result.failed.map((f) => f.message)).toEqual([
      `createService service.db failed: the service was created (ID ${id}) but its initial password could not be saved to ${h.pgpassPath} ` +
        '(it is a directory), and the API never shows it again. To set a password, configure `password: { from_env: VARIABLE, version: 1 }` ' +
        'for service.db and run apply again, which sets it with updatePassword',
    ]);
    expect(result.skipped.map((s) => s.action.address)).toEqual(['replica_set.db.r']);
    expect(password.length).toBeGreaterThan(0);
    expect(JSON.stringify(h.events)).not.toContain(password);
  });
});

describe('the pgpass file holds a password that works', () => {
  const config = (version: number, withOld = true) => `version: 1
project_id: proj-demo
services:
  db:
    cpu_millis: 500
    memory_gbs: 2
    password:
      from_env: DB_PASSWORD
      version: ${version}
${withOld ? '  old:\n    cpu_millis: 500\n    memory_gbs: 2\n' : ''}`;
  const linesOf = (path: string) => readFileSync(path, 'utf8').trimEnd().split('\n');
  const hostOf = async (ws: { lockfile: string }, address: string) => {
    const id = JSON.parse(readFileSync(ws.lockfile, 'utf8')).resources[address].id as string;
    const res = await fetch(`${emulator!.url}/projects/proj-demo/services/${id}`, { headers: { authorization: 'Bearer demo-pat' } });
    return ((await res.json()) as { endpoint: { host: string } }).endpoint.host;
  };

  it('replaces the initial line with the configured password, updates it on a rotation, and drops the lines of deleted services', async () => {
    emulator = await startEmulator({ timeScale: 0 });
    const ws = workspace(config(1), emulator.url);
    const first = await runCli(ws, ['apply', '--auto-approve'], { env: { DB_PASSWORD: 'first-secret-1' } });
    expect(first.stderr).toBe('');
    expect(first.code).toBe(0);
    const db = await hostOf(ws, 'service.db');
    const old = await hostOf(ws, 'service.old');
    const initial = linesOf(ws.pgpass);
    // One line per service: the configured password for db (its initial one no longer works).
    expect(initial).toHaveLength(2);
    expect(initial).toContain(`${db}:5432:tsdb:tsdbadmin:first-secret-1`);
    expect(initial.filter((l) => l.startsWith(`${old}:5432:tsdb:tsdbadmin:`))).toHaveLength(1);
    expect(statSync(ws.pgpass).mode & 0o777).toBe(0o600);

    writeFileSync(ws.config, config(2));
    const rotated = await runCli(ws, ['apply', '--auto-approve'], { env: { DB_PASSWORD: 'second-secret-2' } });
    expect(rotated.code, rotated.stderr).toBe(0);
    expect(linesOf(ws.pgpass)).toEqual(initial.map((l) => (l.startsWith(db) ? `${db}:5432:tsdb:tsdbadmin:second-secret-2` : l)));

    writeFileSync(ws.config, config(2, false));
    const removed = await runCli(ws, ['apply', '--auto-approve', '--allow-data-loss'], { env: { DB_PASSWORD: 'second-secret-2' } });
    expect(removed.code, removed.stderr).toBe(0);
    expect(linesOf(ws.pgpass)).toEqual([`${db}:5432:tsdb:tsdbadmin:second-secret-2`]);

    const destroyed = await runCli(ws, ['destroy', '--auto-approve'], { env: { DB_PASSWORD: 'second-secret-2' } });
    expect(destroyed.code, destroyed.stderr).toBe(0);
    expect(readFileSync(ws.pgpass, 'utf8')).toBe('');
    for (const run of [first, rotated, removed, destroyed]) {
      for (const secret of ['first-secret-1', 'second-secret-2', initial.find((l) => l.startsWith(old))!.split(':')[4]!]) {
        expect(run.stdout + run.stderr).not.toContain(secret);
      }
    }
  });

  it('keeps the lines of services it did not delete, and other lines of the file', async () => {
    emulator = await startEmulator({ timeScale: 0 });
    const ws = workspace(config(1), emulator.url);
    writeFileSync(ws.pgpass, '# my hosts\nelsewhere:5432:*:me:mine\n', { mode: 0o600 });
    expect((await runCli(ws, ['apply', '--auto-approve'], { env: { DB_PASSWORD: 'pw-1' } })).code).toBe(0);
    writeFileSync(ws.config, config(1, false));
    expect((await runCli(ws, ['apply', '--auto-approve', '--allow-data-loss'], { env: { DB_PASSWORD: 'pw-1' } })).code).toBe(0);
    const db = await hostOf(ws, 'service.db');
    expect(linesOf(ws.pgpass)).toEqual(['# my hosts', 'elsewhere:5432:*:me:mine', `${db}:5432:tsdb:tsdbadmin:pw-1`]);
  });
});
