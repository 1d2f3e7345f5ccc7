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

const mutating = () => Object.keys(emulator!.stats().requests).filter((k) => !k.startsWith('GET'));
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

  it('refuses a plan whose config files changed since (no more "applying the plan as it was saved")', async () => {
    const { ws, ids } = await applied();
    writeFileSync(ws.config, resizedA);
    const saved = await runCli(ws, ['plan', '--out', 'cli.plan.json']);
    expect(saved.code).toBe(0);
    writeFileSync(ws.config, `${resizedA}  c:\n    cpu_millis: 500\n    memory_gbs: 2\n`);
    emulator!.resetStats();
    const run = await runCli(ws, ['apply', 'cli.plan.json']);
    expect(run.code).toBe(1);
    expect(run.stderr).toBe(
      'error: the config files (dbform.yaml) changed since cli.plan.json was made (config_hash differs). ' +
        'Nothing was changed; make a new plan with `dbform plan --out cli.plan.json` and review it\n',
    );
    expect(mutating()).toEqual([]);
    expect(await sizeOf(ids.a!)).toMatchObject({ cpu_millis: 500 });
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

/** Edits the saved plan file as a careless or hostile hand would. */
function tamper(path: string, edit: (plan: any) => void): void {
  const plan = JSON.parse(readFileSync(path, 'utf8'));
  edit(plan);
  writeFileSync(path, JSON.stringify(plan, null, 2));
}

describe('dbform apply PLAN verifies the plan instead of trusting it', () => {
  it.each([
    [
      'an op edited to deleteService',
      (p: any, _bId: string) => (p.actions[0].op = 'deleteService'),
      'service.a: the plan file has deleteService, but dbform plans resizeService now',
    ],
    [
      'an action moved to another service and made a delete',
      (p: any, bId: string) => Object.assign(p.actions[0], { address: 'service.b', op: 'deleteService', refs: { target: { address: 'service.b', id: bId } } }),
      'service.b: the plan file has deleteService, but dbform plans no action now',
    ],
    [
      'a request body edited',
      (p: any, _bId: string) => (p.actions[0].request = { cpu_millis: '8000', memory_gbs: '32' }),
      'service.a resizeService: its request is {"cpu_millis":"8000","memory_gbs":"32"} in the plan file but {"cpu_millis":"1000","memory_gbs":"4"} now',
    ],
  ])('refuses %s (exit 1, one message, nothing changed)', async (_name, edit, difference) => {
    const { ws, ids } = await applied();
    writeFileSync(ws.config, resizedA);
    expect((await runCli(ws, ['plan', '--out', 'p.json'])).code).toBe(0);
    // The edit gets service b's ID beside the plan: a field the plan file does not have would make
    // the file invalid (plan.schema.json) before the plan is compared.
    tamper(join(ws.dir, 'p.json'), (p) => edit(p, ids.b!));
    emulator!.resetStats();
    const run = await runCli(ws, ['apply', 'p.json']);
    expect(run.code).toBe(1);
    expect(run.stderr).toBe(
      `error: p.json is not what dbform plans now from the same config, the current state and the live resources: ${difference}. ` +
        'Nothing was changed; make a new plan with `dbform plan --out p.json` and review it\n',
    );
    expect(mutating()).toEqual([]);
    expect(await sizeOf(ids.a!)).toMatchObject({ cpu_millis: 500, memory_gbs: 2 });
    expect((await client!.listServices('proj-demo')).map((s) => s.service_id).sort()).toEqual([ids.a, ids.b].sort());
  });

  it('refuses a data-loss plan whose "blocked" mark was deleted: blocked is always recomputed', async () => {
    const { ws, ids } = await applied();
    writeFileSync(ws.config, base.replace(/  b:[\s\S]*$/, ''));
    expect((await runCli(ws, ['plan', '--out', 'p.json'])).code).toBe(3);
    tamper(join(ws.dir, 'p.json'), (p) => {
      for (const a of p.actions) delete a.blocked;
    });
    emulator!.resetStats();
    const run = await runCli(ws, ['apply', 'p.json']);
    expect(run.code).toBe(1);
    expect(run.stderr).toBe(
      'error: p.json is not what dbform plans now from the same config, the current state and the live resources: ' +
        'service.b deleteService: its blocked is absent in the plan file but "data-loss: deleteService destroys service.b and its data; re-run with --allow-data-loss to allow it" now. ' +
        'Nothing was changed; make a new plan with `dbform plan --out p.json` and review it\n',
    );
    expect(mutating()).toEqual([]);
    expect((await client!.listServices('proj-demo')).map((s) => s.service_id).sort()).toEqual([ids.a, ids.b].sort());
  });

  it('refuses a plan made from another lockfile of the same project, by lineage', async () => {
    const { ws } = await applied();
    // Another folder with the same config and its own lockfile (it adopted the same services).
    const other = workspace(base, emulator!.url);
    expect((await runCli(other, ['apply', '--auto-approve'])).code).toBe(0);
    const theirs = JSON.parse(readFileSync(other.lockfile, 'utf8')).lineage as string;
    const ours = JSON.parse(readFileSync(ws.lockfile, 'utf8')).lineage as string;
    expect(theirs).not.toBe(ours);
    writeFileSync(other.config, resizedA);
    writeFileSync(ws.config, resizedA);
    const planFile = join(other.dir, 'theirs.plan.json');
    expect((await runCli(other, ['plan', '--out', planFile])).code).toBe(0);
    emulator!.resetStats();
    const run = await runCli(ws, ['apply', planFile]);
    expect(run.code).toBe(1);
    expect(run.stderr).toBe(
      `error: ${planFile} was made from another state (lineage ${theirs}) than dbform.lock.json (lineage ${ours}); ` +
        `a plan applies only to the state it was made from. Nothing was changed; make a new plan with \`dbform plan --out ${planFile}\` and review it\n`,
    );
    expect(mutating()).toEqual([]);
  });

  it('refuses a plan made before the lockfile existed once another apply has written it', async () => {
    emulator = await startEmulator({ timeScale: 0.01 });
    client = new ApiClient({ baseUrl: emulator.url, token: 'demo-pat' });
    const ws = workspace(base, emulator.url);
    expect((await runCli(ws, ['plan', '--out', 'first.plan.json'])).code).toBe(0);
    expect(JSON.parse(readFileSync(join(ws.dir, 'first.plan.json'), 'utf8'))).toMatchObject({ lineage: null, serial: 0 });
    expect((await runCli(ws, ['apply', '--auto-approve', '--target', 'service.a'])).code).toBe(0);
    const lineage = JSON.parse(readFileSync(ws.lockfile, 'utf8')).lineage as string;
    emulator.resetStats();
    const run = await runCli(ws, ['apply', 'first.plan.json']);
    expect(run.code).toBe(1);
    expect(run.stderr).toBe(
      `error: first.plan.json was made from another state (no lineage yet) than dbform.lock.json (lineage ${lineage}); ` +
        'a plan applies only to the state it was made from. Nothing was changed; make a new plan with `dbform plan --out first.plan.json` and review it\n',
    );
    expect(mutating()).toEqual([]);
    expect((await client.listServices('proj-demo')).map((s) => s.name)).toEqual(['a']);
  });

  it('records the flags it was made with: a --replace --allow-data-loss plan applies as planned', async () => {
    const { ws, ids } = await applied();
    const saved = await runCli(ws, ['plan', '--replace', 'service.a', '--allow-data-loss', '--out', 'replace.plan.json']);
    expect(saved.code, saved.stderr).toBe(0);
    const file = JSON.parse(readFileSync(join(ws.dir, 'replace.plan.json'), 'utf8'));
    expect(file.options).toEqual({ replace: ['service.a'], target: [], allow_data_loss: true });
    expect(file.actions.map((a: any) => `${a.op} ${a.address}`)).toEqual(['deleteService service.a', 'createService service.a']);
    const run = await runCli(ws, ['apply', 'replace.plan.json']);
    expect(run.code, run.stderr).toBe(0);
    const names = (await client!.listServices('proj-demo')).filter((s) => s.status !== 'DELETED' && s.status !== 'DELETING');
    expect(names.map((s) => s.name).sort()).toEqual(['a', 'b']);
    expect(names.find((s) => s.name === 'a')!.service_id).not.toBe(ids.a);
  });

  it('a --target plan still applies after another apply changed the lockfile elsewhere (serial is not compared)', async () => {
    const { ws, ids } = await applied();
    writeFileSync(ws.config, `${resizedA}  c:\n    cpu_millis: 500\n    memory_gbs: 2\n`);
    expect((await runCli(ws, ['plan', '--target', 'service.a', '--out', 'a.plan.json'])).code).toBe(0);
    const before = JSON.parse(readFileSync(ws.lockfile, 'utf8'));
    expect((await runCli(ws, ['apply', '--auto-approve', '--target', 'service.c'])).code).toBe(0);
    const after = JSON.parse(readFileSync(ws.lockfile, 'utf8'));
    expect(after.serial).toBeGreaterThan(before.serial);
    const run = await runCli(ws, ['apply', 'a.plan.json']);
    expect(run.code, run.stderr).toBe(0);
    expect(await sizeOf(ids.a!)).toMatchObject({ cpu_millis: 1000, memory_gbs: 4 });
  });

  it('refuses a plan that does not record what it was made from (plan --json output)', async () => {
    const { ws } = await applied();
    writeFileSync(ws.config, resizedA);
    const json = await runCli(ws, ['plan', '--json']);
    writeFileSync(join(ws.dir, 'from-json.plan.json'), json.stdout);
    const run = await runCli(ws, ['apply', 'from-json.plan.json']);
    expect(run.code).toBe(1);
    expect(run.stderr).toBe(
      'error: from-json.plan.json does not record the state, config and flags it was made from (lineage, serial, config_hash, options), so it cannot be verified; ' +
        'nothing was changed. Save the plan with `dbform plan --out from-json.plan.json`\n',
    );
  });
});
