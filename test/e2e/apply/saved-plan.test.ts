// `dbform apply PLAN`: exactly the saved plan, refused only when a resource it touches changed.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { ApiClient } from '../../../src/api/client.js';
import { startEmulator } from '../../../src/emulator/index.js';
import { nextPlan, runCli, workspace, type Workspace } from './cli-harness.js';
import { removeTempDirs } from '../../support/temp-dir.js';

afterAll(removeTempDirs);

let emulator: Awaited<ReturnType<typeof startEmulator>> | undefined;
let client: ApiClient | undefined;
afterEach(async () => {
  await client?.close();
  await emulator?.close();
  emulator = undefined;
  client = undefined;
});

const base = `version: 1
project_id: proj-demo
services:
  a:
    cpu_millis: 500
    memory_gbs: 2
  b:
    cpu_millis: 500
    memory_gbs: 2
`;
const resizedA = base.replace('  a:\n    cpu_millis: 500\n    memory_gbs: 2', '  a:\n    cpu_millis: 1000\n    memory_gbs: 4');

async function applied(): Promise<{ ws: Workspace; ids: Record<string, string> }> {
  emulator = await startEmulator({ timeScale: 0.01 });
  client = new ApiClient({ baseUrl: emulator.url, token: 'demo-pat' });
  const ws = workspace(base, emulator.url);
  expect((await runCli(ws, ['apply', '--auto-approve'])).code).toBe(0);
  const lock = JSON.parse(readFileSync(ws.lockfile, 'utf8'));
  return { ws, ids: { a: lock.resources['service.a'].id, b: lock.resources['service.b'].id } };
}

async function savePlan(ws: Workspace): Promise<string> {
  const path = join(ws.dir, 'resize.plan.json');
  const { plan } = await nextPlan(ws, emulator!.url, path);
  expect(plan.actions.map((a) => `${a.op} ${a.address}`)).toEqual(['resizeService service.a']);
  return path;
}

const sizeOf = async (id: string) => (await client!.listServices('proj-demo')).find((s) => s.service_id === id)!.resources[0]!.spec;

describe('dbform apply PLAN', () => {
  it('still applies when only a resource the plan does not touch changed', async () => {
    const { ws, ids } = await applied();
    writeFileSync(ws.config, resizedA);
    const planFile = await savePlan(ws);
    await client!.setEnvironment('proj-demo', ids.b!, { environment: 'PROD' });
    const run = await runCli(ws, ['apply', planFile]);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(await sizeOf(ids.a!)).toMatchObject({ cpu_millis: 1000, memory_gbs: 4 });
  });

  it('refuses with exit 1 "stale plan", naming the resource, when a touched resource changed', async () => {
    const { ws, ids } = await applied();
    writeFileSync(ws.config, resizedA);
    const planFile = await savePlan(ws);
    await client!.setEnvironment('proj-demo', ids.a!, { environment: 'PROD' });
    emulator!.resetStats();
    const run = await runCli(ws, ['apply', planFile]);
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/stale plan: .* service\.a/);
    expect(run.stderr).not.toContain('service.b');
    expect(Object.keys(emulator!.stats().requests).filter((k) => !k.startsWith('GET'))).toEqual([]);
    expect(await sizeOf(ids.a!)).toMatchObject({ cpu_millis: 500 });
  });

  it('executes exactly the saved plan, not what the config says now', async () => {
    const { ws, ids } = await applied();
    writeFileSync(ws.config, resizedA);
    const saved = await runCli(ws, ['plan', '--out', 'cli.plan.json']);
    expect(saved.code).toBe(0);
    writeFileSync(ws.config, `${resizedA}  c:\n    cpu_millis: 500\n    memory_gbs: 2\n`);
    const run = await runCli(ws, ['apply', 'cli.plan.json']);
    expect(run.code).toBe(0);
    expect(run.stderr).toContain('note: the config changed since cli.plan.json was made');
    expect(await sizeOf(ids.a!)).toMatchObject({ cpu_millis: 1000 });
    expect((await client!.listServices('proj-demo')).map((s) => s.name).sort()).toEqual(['a', 'b']);
  });

  it('a blocked saved plan says to make a new plan with --allow-data-loss, since the flag cannot unblock it', async () => {
    const { ws, ids } = await applied();
    // A path with a space: the suggested command quotes it, so it can be pasted as it is.
    writeFileSync(ws.config, base.replace(/  b:[\s\S]*$/, ''));
    const saved = await runCli(ws, ['plan', '--out', 'my plans/delete.plan.json']);
    expect(saved.code).toBe(3);
    emulator!.resetStats();
    const run = await runCli(ws, ['apply', '--allow-data-loss', '--auto-approve', 'my plans/delete.plan.json']);
    expect(run.code).toBe(3);
    const hint =
      'service.b deleteService: data-loss: deleteService destroys service.b and its data; a saved plan is applied exactly as it was made, ' +
      "so make a new one with `dbform plan --allow-data-loss --out 'my plans/delete.plan.json'` and apply that";
    expect(run.stderr).toContain(`error: the plan is blocked; nothing was changed:\n  ${hint}\n`);
    expect(run.stdout + run.stderr).not.toContain('re-run with --allow-data-loss');
    expect(Object.keys(emulator!.stats().requests).filter((k) => !k.startsWith('GET'))).toEqual([]);
    // The hint works.
    expect((await runCli(ws, ['plan', '--allow-data-loss', '--out', 'my plans/delete.plan.json'])).code).toBe(0);
    const again = await runCli(ws, ['apply', 'my plans/delete.plan.json']);
    expect(again.code, again.stderr).toBe(0);
    expect((await client!.listServices('proj-demo')).map((s) => s.service_id)).toEqual([ids.a]);
  });

  it('refuses --target and --replace with a saved plan (they would be ignored), changing nothing', async () => {
    const { ws, ids } = await applied();
    writeFileSync(ws.config, resizedA);
    const planFile = await savePlan(ws);
    const run = await runCli(ws, ['apply', planFile, '--target', 'service.b', '--replace', 'service.b']);
    expect(run.code).toBe(1);
    expect(run.stderr).toBe(
      `error: --target service.b --replace service.b cannot change the saved plan ${planFile}, which is applied exactly as it was made; ` +
        'make a new plan with them (`dbform plan --target service.b --replace service.b --out PLAN`) or run apply without a plan file\n',
    );
    expect(await sizeOf(ids.a!)).toMatchObject({ cpu_millis: 500, memory_gbs: 2 });
  });

  it('refuses a plan of another project, and a file that is not a plan', async () => {
    const { ws } = await applied();
    writeFileSync(ws.config, resizedA);
    const planFile = await savePlan(ws);
    writeFileSync(ws.config, resizedA.replace('project_id: proj-demo', 'project_id: proj-other'));
    const other = await runCli(ws, ['apply', planFile]);
    expect(other.code).toBe(1);
    expect(other.stderr).toContain('is a plan for project "proj-demo" but the config targets "proj-other"');
    const junk = join(ws.dir, 'junk.json');
    writeFileSync(junk, '{"hello": 1}');
    const bad = await runCli(ws, ['apply', junk]);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toMatch(/junk\.json is not a valid plan file/);
  });
});
