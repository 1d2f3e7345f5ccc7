// `dbform mcp` (SPEC section 17) with the SDK's own client over stdio, against the emulator over
// real HTTP: the tools it lists, answers that are exactly the CLI's --json, the one write tool and
// the saved-plan verification behind it, no password in any answer, and one history record per call.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { EmulatorHandle } from '../../../src/emulator/index.js';
import { splitPgpassLine } from '../../../src/model/index.js';
import { runCli, workspace, type Workspace } from '../apply/cli-harness.js';
import { AUTH_ENV, startTestEmulator, testClient } from '../../support/dialect.js';
import { removeTempDirs, tempDir } from '../../support/temp-dir.js';
import { CLIENT, closeSessions, connectMcp } from './mcp-session.js';

let emulator: EmulatorHandle;
beforeAll(async () => {
  emulator = await startTestEmulator({ timeScale: 0.01 });
});
afterEach(closeSessions);
afterAll(async () => {
  await emulator.close();
  removeTempDirs();
});

const READ_TOOLS = ['validate', 'plan', 'drift', 'output', 'state_list', 'state_show', 'history', 'logs'];
const API_PASSWORD = 'configured-secret-123';

/** Two services; each test gives its own prefix, so no workspace adopts another's services. */
const config = (prefix: string, appCpu = 500) => `version: 1
project_id: proj-demo
services:
  app:
    name: ${prefix}-app
    cpu_millis: ${appCpu}
    memory_gbs: ${appCpu / 250}
  api:
    name: ${prefix}-api
    cpu_millis: 500
    memory_gbs: 2
    password:
      from_env: API_DB_PASSWORD
      version: 1
`;

async function applied(prefix: string, env: NodeJS.ProcessEnv = {}): Promise<Workspace> {
  const ws = workspace(config(prefix), emulator.url, { API_DB_PASSWORD: API_PASSWORD, ...env });
  const run = await runCli(ws, ['apply', '--auto-approve']);
  expect(run.code, run.stderr).toBe(0);
  return ws;
}

const mutating = () => Object.keys(emulator.stats().requests).filter((k) => !k.startsWith('GET'));

async function cpuOf(ws: Workspace, address: string): Promise<number> {
  const id = JSON.parse(readFileSync(ws.lockfile, 'utf8')).resources[address].id as string;
  const client = testClient(emulator.url);
  try {
    return (await client.listServices('proj-demo')).find((s) => s.service_id === id)!.resources[0]!.spec.cpu_millis;
  } finally {
    await client.close();
  }
}

describe('dbform mcp: the tools', () => {
  it('lists the read-only tools; only --allow-apply adds a tool, exactly one, apply_plan', async () => {
    const ws = workspace(config('list'), emulator.url);
    const readOnly = await connectMcp(ws);
    const { tools } = await readOnly.client.listTools();
    expect(tools.map((t) => t.name)).toEqual(READ_TOOLS);
    for (const t of tools) expect(t.annotations?.readOnlyHint, t.name).toBe(true);

    const withApply = await connectMcp(ws, ['--allow-apply']);
    const all = (await withApply.client.listTools()).tools;
    expect(all.map((t) => t.name)).toEqual([...READ_TOOLS, 'apply_plan']);
    const apply = all.find((t) => t.name === 'apply_plan')!;
    expect(apply.annotations).toMatchObject({ readOnlyHint: false, destructiveHint: true });
    expect(Object.keys(apply.inputSchema.properties ?? {}).sort()).toEqual(['files', 'plan_file', 'workspace']);
  });

  it('plan, drift, output, state and validate answer with exactly what the CLI prints with --json in the same directory', async () => {
    const ws = await applied('same');
    writeFileSync(ws.config, config('same', 1000));
    const mcp = await connectMcp(ws);
    const same = async (tool: string, args: Record<string, unknown>, cli: string[]) => {
      const answer = await mcp.call(tool, args);
      const run = await runCli(ws, cli);
      expect(answer.isError, answer.text).toBe(false);
      expect(run.code, run.stderr).toBe(0);
      expect(answer.text).toBe(run.stdout);
      return answer.text;
    };
    const plan = JSON.parse(await same('plan', {}, ['plan', '--json']));
    expect(plan.actions.map((a: { op: string; address: string }) => `${a.op} ${a.address}`)).toEqual(['resizeService service.app']);
    expect(await same('plan', { format: 'markdown' }, ['plan', '--format', 'markdown'])).toContain('service.app');
    await same('plan', { target: ['service.api'] }, ['plan', '--json', '--target', 'service.api']);
    await same('drift', {}, ['plan', '--refresh-only', '--json']);
    const output = JSON.parse(await same('output', {}, ['output', '--json']));
    expect(Object.keys(output).sort()).toEqual(['service.api', 'service.app']);
    await same('output', { addresses: ['service.app'] }, ['output', '--json', 'service.app']);
    await same('state_list', {}, ['state', 'list', '--json']);
    await same('state_show', { address: 'service.api' }, ['state', 'show', 'service.api', '--json']);
    await same('validate', {}, ['validate', '--json']);
  });

  it('started elsewhere with -f, serves the directory of that config file', async () => {
    const ws = await applied('elsewhere');
    const mcp = await connectMcp(ws, ['-f', ws.config], {}, tempDir('dbform-client-'));
    const output = await mcp.call('output');
    expect(output.text).toBe((await runCli(ws, ['output', '--json'])).stdout);
    expect(await mcp.call('validate', { files: ['dbform.yaml'] })).toMatchObject({ isError: false, text: expect.stringContaining('"valid": true') });
    expect((await mcp.call('validate', { files: ['../dbform.yaml'] })).text).toMatch(/^error: files "..\/dbform.yaml" is outside the directory dbform mcp serves \(/);
    // In the project's history (the refused call names no state, so it has no record).
    const history = JSON.parse((await runCli(ws, ['history', '--json'])).stdout);
    expect(history.map((r: { command: string }) => r.command.replace(/ \(client.*$/, ''))).toEqual(['dbform mcp validate', 'dbform mcp output', 'dbform apply --auto-approve']);
  });

  it('refuses bad inputs with one line before running anything: an address, a workspace, a limit, a file outside the directory, an input it does not take', async () => {
    const ws = workspace(config('inputs'), emulator.url);
    const mcp = await connectMcp(ws);
    emulator.resetStats();
    const refusals = [
      await mcp.call('state_show', { address: 'service.app --json' }),
      await mcp.call('plan', { workspace: 'Prod!' }),
      await mcp.call('history', { limit: 100000 }),
      await mcp.call('logs', { service: '--with-password' }),
      await mcp.call('validate', { files: ['../outside.yaml'] }),
      await mcp.call('plan', { out: 'p.json' }),
      await mcp.call('output', { with_password: true }),
    ];
    for (const r of refusals) {
      expect(r.isError, r.text).toBe(true);
      expect(r.texts).toHaveLength(1);
      expect(r.text.split('\n'), r.text).toHaveLength(1);
    }
    expect(refusals.map((r) => r.text)).toEqual([
      expect.stringMatching(/^error: address "service.app --json" is not an address: use vpc\.<key>, .*service\.<key>/),
      expect.stringMatching(/^error: workspace "Prod!" is not a valid workspace name/),
      'error: limit must be a whole number from 1 to 500 (got 100000)',
      'error: service "--with-password" is neither a service address (service.KEY) nor a service ID',
      expect.stringMatching(/^error: files "..\/outside.yaml" is outside the directory dbform mcp serves/),
      expect.stringMatching(/Input validation error: Invalid arguments for tool plan: Unrecognized key: "out"$/),
      expect.stringMatching(/Input validation error: Invalid arguments for tool output: Unrecognized key: "with_password"$/),
    ]);
    expect(Object.keys(emulator.stats().requests)).toEqual([]);
  });
});

describe('dbform mcp --allow-apply: apply_plan', () => {
  it('refuses an edited saved plan with the CLI\'s line and changes nothing; applies the verified one', async () => {
    const ws = await applied('apply');
    writeFileSync(ws.config, config('apply', 1000));
    expect((await runCli(ws, ['plan', '--out', 'p.json'])).code).toBe(0);
    const saved = JSON.parse(readFileSync(join(ws.dir, 'p.json'), 'utf8'));
    expect(saved.actions.map((a: { op: string }) => a.op)).toEqual(['resizeService']);
    const edit = (name: string, change: (action: Record<string, unknown>) => void) => {
      const copy = structuredClone(saved);
      change(copy.actions[0]);
      writeFileSync(join(ws.dir, name), JSON.stringify(copy, null, 2));
      return name;
    };
    const editedOp = edit('op.json', (a) => (a.op = 'deleteService'));
    const editedRequest = edit('request.json', (a) => (a.request = { cpu_millis: '8000', memory_gbs: '32' }));

    // Without --allow-apply there is no such tool to call.
    const readOnly = await connectMcp(ws);
    emulator.resetStats();
    const none = await readOnly.call('apply_plan', { plan_file: 'p.json' });
    expect(none).toMatchObject({ isError: true, text: expect.stringContaining('Tool apply_plan not found') });

    const mcp = await connectMcp(ws, ['--allow-apply']);
    for (const file of [editedOp, editedRequest]) {
      const refused = await mcp.call('apply_plan', { plan_file: file });
      expect(refused.isError).toBe(true);
      expect(mutating()).toEqual([]);
      const cli = await runCli(ws, ['apply', file, '--auto-approve']);
      expect(cli.code).toBe(1);
      expect(refused.text).toBe(cli.stderr.trimEnd());
      expect(refused.text).toMatch(new RegExp(`^error: ${file} is not what dbform plans now .*Nothing was changed`));
    }
    expect(mutating()).toEqual([]);
    expect(await cpuOf(ws, 'service.app')).toBe(500);

    const progress: string[] = [];
    const done = await mcp.call('apply_plan', { plan_file: 'p.json' }, (m) => progress.push(m));
    expect(done.isError, done.text).toBe(false);
    expect(done.text).toContain('Apply complete');
    // Its lines, as the apply printed them, while it ran.
    expect(progress).toContainEqual(expect.stringMatching(/service\.app resizeService done/));
    expect(await cpuOf(ws, 'service.app')).toBe(1000);
    expect((await runCli(ws, ['plan', '--detailed-exitcode'])).code).toBe(0);
  });
});

describe('dbform mcp and secrets', () => {
  it('no password, API key or state password reaches any answer or the server\'s stderr; one a command would print is redacted', async () => {
    const pgpassword = 'Pg-Env-Secret-77';
    const ws = await applied('pw', { PGPASSWORD: pgpassword });
    const pgpass = readFileSync(ws.pgpass, 'utf8').split('\n').flatMap((l) => splitPgpassLine(l)?.[4] ?? []);
    // The created service's initial password, and the configured one that replaced api's.
    expect(pgpass).toHaveLength(2);
    expect(pgpass).toContain(API_PASSWORD);
    const secrets = [...pgpass, API_PASSWORD, pgpassword, ...Object.values(AUTH_ENV)];
    writeFileSync(join(ws.dir, 'wrong.yaml'), `version: 1\nproject_id: proj-demo\nservices:\n  app:\n    environment: ${pgpassword}\n`);
    const mcp = await connectMcp(ws);
    const answers = [
      await mcp.call('validate'),
      await mcp.call('plan'),
      await mcp.call('plan', { format: 'markdown' }),
      await mcp.call('drift'),
      await mcp.call('output'),
      await mcp.call('state_list'),
      await mcp.call('state_show', { address: 'service.app' }),
      await mcp.call('state_show', { address: 'service.api' }),
      await mcp.call('history'),
      await mcp.call('logs', { service: 'service.app', limit: 5 }),
      await mcp.call('output', { with_password: true }),
    ];
    expect(answers.map((a) => a.isError)).toEqual([false, false, false, false, false, false, false, false, false, false, true]);
    // Commands that would print a secret: a password pasted into the wrong field, a target named
    // after one. The CLI says them; the tools do not.
    const wrong = await mcp.call('validate', { files: ['wrong.yaml'] });
    expect((await runCli(ws, ['validate', '--json', '-f', 'wrong.yaml'])).stdout).toContain(pgpassword);
    expect(wrong.text).toContain('"(redacted)\\" is not an environment tag');
    const target = await mcp.call('plan', { target: [`service.${API_PASSWORD}`] });
    expect((await runCli(ws, ['plan', '--target', `service.${API_PASSWORD}`])).stderr).toContain(API_PASSWORD);
    expect(target).toMatchObject({ isError: true, text: 'error: --target service.(redacted): no such resource in the config or the state' });
    for (const text of [...answers, wrong, target].flatMap((a) => a.texts).concat(mcp.stderr(), readFileSync(join(ws.dir, '.dbform', 'history.jsonl'), 'utf8'))) {
      for (const secret of secrets) expect(text).not.toContain(secret);
    }
  });
});

describe('dbform mcp and history', () => {
  it('records each call in the history of its workspace with the client\'s name; a call with no loadable config goes unrecorded', async () => {
    const ws = await applied('hist');
    const mcp = await connectMcp(ws);
    expect((await mcp.call('validate')).isError).toBe(false);
    expect((await mcp.call('plan')).isError).toBe(false);
    expect((await mcp.call('state_show', { address: 'not an address' })).isError).toBe(true);
    expect((await mcp.call('output', { workspace: 'other' })).isError).toBe(true);
    // Unrecorded: no config to find a state by, and a workspace that names no state.
    expect((await mcp.call('validate', { files: ['missing.yaml'] })).text).toMatch(/missing\.yaml/);
    expect((await mcp.call('validate', { workspace: 'Not Valid' })).isError).toBe(true);

    const history = async (workspaceName: string) => {
      const run = await runCli(ws, ['history', '--json', '--workspace', workspaceName]);
      expect(run.code, run.stderr).toBe(0);
      return (JSON.parse(run.stdout) as Array<Record<string, unknown>>).map((r) => [r.command, r.exit_code, r.workspace]);
    };
    const client = `(client ${CLIENT.name} ${CLIENT.version})`;
    expect(await history('default')).toEqual([
      [`dbform mcp state_show ${client}`, 1, 'default'],
      [`dbform mcp plan ${client}`, 0, 'default'],
      [`dbform mcp validate ${client}`, 0, 'default'],
      ['dbform apply --auto-approve', 0, 'default'],
    ]);
    expect(await history('other')).toEqual([[`dbform mcp output ${client}`, 1, 'other']]);
    const [apply, ...calls] = readFileSync(join(ws.dir, '.dbform', 'history.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l));
    expect(calls).toHaveLength(4);
    for (const r of calls) expect(r).toMatchObject({ user: expect.any(String), host: expect.any(String), actions: [], config_hash: null, serial_before: r.serial_after });
    expect(mcp.stderr()).toContain('this validate call is not recorded');
    // A call reads: the workspace was last applied by the apply, which sweep --older-than judges by.
    const list = JSON.parse((await runCli(ws, ['workspace', 'list', '--json'])).stdout);
    expect(list).toEqual([expect.objectContaining({ workspace: 'default', last_apply: apply.finished_at })]);
  });
});
