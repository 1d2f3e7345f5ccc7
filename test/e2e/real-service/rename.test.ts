// SPEC section 15, rename in place: where the API renames services (the real service's
// renameService; the tiger dialect), a service name change is one in-place renameService (risk
// none); where it does not (cloud-api.md; the seed dialect), it stays a replace. dbform finds out
// from what the API serves (GET /auth/info, asked only when a name changes), says it in the plan,
// records it in a saved plan, and refuses to apply a plan made for the other.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import type { ApiClient } from '../../../src/api/client.js';
import { startEmulator, type EmulatorHandle, type EmulatorOptions } from '../../../src/emulator/index.js';
import { readLockfile } from '../../../src/lockfile/index.js';
import { testClient } from '../../support/dialect.js';
import { removeTempDirs, tempDir } from '../../support/temp-dir.js';
import { runCli, workspace, type Workspace } from '../apply/cli-harness.js';
import { TIGER } from './helpers.js';

afterAll(removeTempDirs);

const PROJECT = 'proj-demo';
const AUTH_INFO = 'GET /auth/info';
const RENAME = 'POST /projects/{project_id}/services/{service_id}/rename';

let emulators: EmulatorHandle[] = [];
let client: ApiClient | undefined;
afterEach(async () => {
  await client?.close();
  for (const e of emulators) await e.close();
  emulators = [];
  client = undefined;
});

async function emulator(options: EmulatorOptions): Promise<EmulatorHandle> {
  const e = await startEmulator({ timeScale: 0.01, ...options });
  emulators.push(e);
  return e;
}

const config = (name: string) => `version: 1
project_id: proj-demo
services:
  db:
    name: ${name}
    region_code: us-east-1
`;

/** A workspace whose service `db` was applied as "orders" against `em`, then renamed to "sales" in the config. */
async function renamed(em: EmulatorHandle): Promise<{ ws: Workspace; id: string }> {
  const ws = workspace(config('orders'), em.url);
  const apply = await runCli(ws, ['apply', '--auto-approve']);
  expect(apply.code, apply.stderr).toBe(0);
  writeFileSync(ws.config, config('sales'));
  return { ws, id: (await readLockfile(ws.lockfile, PROJECT)).resources['service.db']!.id };
}

describe('a service name change', () => {
  it('where the API renames services: one renameService in place, said in the plan; apply keeps the ID', async () => {
    const em = await emulator(TIGER);
    client = testClient(em.url);
    const { ws, id } = await renamed(em);
    em.resetStats();
    const plan = await runCli(ws, ['plan', '--json']);
    expect(plan.code, plan.stderr).toBe(0);
    const json = JSON.parse(plan.stdout);
    expect(json.api).toEqual({ renames_services: true });
    expect(json.actions).toMatchObject([
      { address: 'service.db', op: 'renameService', reason: 'changed', risk: 'none', changes: [{ path: 'name', before: 'orders', after: 'sales' }], refs: { target: { address: 'service.db', id } }, request: { name: 'sales' } },
    ]);
    expect(json.actions[0].blocked).toBeUndefined();
    expect(json.actions[0].changes[0].forces_replace).toBeUndefined();
    // Found out once, from what the API serves.
    expect(em.stats().requests[AUTH_INFO]).toBe(1);

    const text = await runCli(ws, ['plan']);
    expect(text.stdout).toContain('The API renames services in place (renameService).');
    expect(text.stdout).toMatch(/~ service\.db {2}\(renameService\)\n {6}name: "orders" -> "sales"\n/);
    const markdown = await runCli(ws, ['plan', '--format', 'markdown']);
    expect(markdown.stdout).toContain('The API renames services in place (renameService).');

    const apply = await runCli(ws, ['apply', '--auto-approve']);
    expect(apply.code, apply.stderr).toBe(0);
    expect(apply.stdout).toContain('service.db renameService done');
    expect(em.stats().requests[RENAME]).toBe(1);
    expect(em.stats().requests['DELETE /projects/{project_id}/services/{service_id}']).toBeUndefined();
    const services = await client.listServices(PROJECT);
    expect(services.map((s) => [s.service_id, s.name])).toEqual([[id, 'sales']]);
    expect((await readLockfile(ws.lockfile, PROJECT)).resources['service.db']!.id).toBe(id);
    const next = await runCli(ws, ['plan', '--detailed-exitcode']);
    expect(next.code, next.stdout).toBe(0);
  });

  it('where the API cannot rename services: a replace, refused without --replace and blocked as data loss, saying why', async () => {
    const em = await emulator({ dialect: 'seed' });
    const { ws, id } = await renamed(em);
    em.resetStats();
    const plan = await runCli(ws, ['plan', '--json']);
    expect(plan.code).toBe(1);
    const json = JSON.parse(plan.stdout);
    expect(json.api).toEqual({ renames_services: false });
    expect(json.diagnostics).toEqual([
      expect.objectContaining({
        code: 'replace-required',
        address: 'service.db',
        message: expect.stringContaining('changing name "orders" -> "sales" cannot be done in place (the API does not rename services in place: a service name change replaces the service)'),
      }),
    ]);
    // Asked once: the seed dialect has no such route (its stats count it unmatched).
    expect(em.stats().requests['GET (unmatched)']).toBe(1);
    const replace = await runCli(ws, ['plan', '--json', '--replace', 'service.db']);
    expect(replace.code).toBe(3);
    const actions = JSON.parse(replace.stdout).actions as Array<{ op: string; risk: string; blocked?: string; refs: { target: { id?: string } } }>;
    expect(actions.map((a) => [a.op, a.risk, a.blocked !== undefined])).toEqual([
      ['deleteService', 'data-loss', true],
      ['createService', 'none', false],
    ]);
    expect(actions[0]!.refs.target.id).toBe(id);
  });

  it('asks the API nothing when no name changes', async () => {
    const em = await emulator(TIGER);
    const ws = workspace(config('orders'), em.url);
    expect((await runCli(ws, ['apply', '--auto-approve'])).code).toBe(0);
    em.resetStats();
    const plan = await runCli(ws, ['plan', '--json']);
    expect(JSON.parse(plan.stdout).api).toBeUndefined();
    expect(em.stats().requests[AUTH_INFO]).toBeUndefined();
  });

  it('apply of a saved plan made where the API renames services is refused, one line, against an API that does not', async () => {
    // One world, served first by the tiger dialect, then (the same state file) by the seed one.
    const stateFile = join(tempDir('dbform-rename-'), 'emulator.json');
    const tiger = await emulator({ ...TIGER, stateFile });
    const { ws } = await renamed(tiger);
    const planFile = join(ws.dir, 'rename.plan.json');
    const save = await runCli(ws, ['plan', '--out', planFile]);
    expect(save.code, save.stderr).toBe(0);
    expect(JSON.parse(readFileSync(planFile, 'utf8')).api).toEqual({ renames_services: true });
    await tiger.close();
    emulators = [];
    const seed = await emulator({ dialect: 'seed', stateFile });
    const apply = await runCli(ws, ['apply', planFile], { env: { DBFORM_API_URL: seed.url } });
    expect(apply.code).toBe(1);
    expect(apply.stderr.trim().split('\n')).toHaveLength(1);
    expect(apply.stderr).toContain(
      `${planFile} was made where the API renames services in place (renameService), but at ${seed.url} the API does not rename services in place: a service name change replaces the service.`,
    );
    expect(seed.stats().requests[RENAME]).toBeUndefined();
    expect(seed.stats().requests['DELETE /projects/{project_id}/services/{service_id}']).toBeUndefined();
  });
});
