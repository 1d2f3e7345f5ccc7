// The initial password of a created service exists only in the create response: apply must be
// able to save it before it creates anything, and say plainly when it could not.
import { existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { startEmulator } from '../../../src/emulator/index.js';
import type { ExecutorApi } from '../../../src/executor/ports.js';
import { runCli, workspace } from './cli-harness.js';
import { act, planOf, PROJECT, startHarness, type Harness } from './engine-harness.js';
import { removeTempDirs } from '../../support/temp-dir.js';

afterAll(removeTempDirs);

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
