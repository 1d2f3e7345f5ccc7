// SPEC section 4's global options work before the command as well as after it, and validate
// accepts (and ignores) the connection options a CI wrapper passes to every step.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmulator, type EmulatorHandle } from '../../../src/emulator/index.js';
import { runCli } from '../../support/cli.js';
import { removeTempDirs, tempDir } from '../../support/temp-dir.js';

afterAll(removeTempDirs);

let em: EmulatorHandle;
let dir: string;
const CONFIG = 'version: 1\nproject_id: proj-demo\nservices:\n  db:\n    cpu_millis: 500\n    memory_gbs: 2\n';

beforeAll(async () => {
  em = await startEmulator({ timeScale: 0 });
  dir = tempDir('dbform-global-');
  writeFileSync(join(dir, 'prod.yaml'), CONFIG);
});
afterAll(async () => em.close());

const VALID = { code: 0, signal: null, stdout: 'prod.yaml: valid (0 VPCs, 0 peerings, 1 service, 0 replica sets)\n', stderr: '' };

describe('global options before the command', () => {
  it.each([
    [['-f', 'prod.yaml', 'validate']],
    [['--file', 'prod.yaml', 'validate']],
    [['--file=prod.yaml', 'validate']],
    [['-fprod.yaml', '--debug', 'validate']],
    [['--debug', '-f', 'prod.yaml', 'validate']],
  ])('dbform %j reads the file as `validate -f` does', async (args) => {
    expect(await runCli(args, { cwd: dir })).toEqual(VALID);
  });

  it('--state and --workspace may come before the command too', async () => {
    const env = { DBFORM_API_KEY: 'demo-pat' };
    const state = `file:${join(dir, 'hoisted', 'team.lock.json')}`;
    const r = await runCli(['--state', state, '--workspace', 'pr-7', 'state', 'list', '-f', 'prod.yaml', '--json'], { cwd: dir, env });
    expect(r.stderr).toBe('');
    expect(JSON.parse(r.stdout)).toMatchObject({ state: join(dir, 'hoisted', 'team.pr-7.lock.json'), workspace: 'pr-7', resources: [] });
  });

  it('plan takes -f, --lockfile, --api-url before the command, and the same after it gives the same plan', async () => {
    const env = { DBFORM_API_KEY: 'demo-pat' };
    const lock = join(dir, 'state', 'prod.lock.json');
    const before = await runCli(['-f', 'prod.yaml', '--lockfile', lock, '--api-url', em.url, 'plan', '--json'], { cwd: dir, env });
    expect(before.stderr).toBe('');
    expect(before.code).toBe(0);
    expect(JSON.parse(before.stdout).actions.map((a: { op: string; address: string }) => `${a.op} ${a.address}`)).toEqual(['createService service.db']);
    const after = await runCli(['plan', '--json', '-f', 'prod.yaml', '--lockfile', lock, '--api-url', em.url], { cwd: dir, env });
    expect(after).toEqual(before);
  });

  it('--emulator before the command uses the in-process emulator', async () => {
    const r = await runCli(['--emulator', '-f', 'prod.yaml', 'plan'], { cwd: dir });
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('Plan: 1 to create');
  });

  it('an option the command does not have is still refused, before or after it', async () => {
    for (const args of [['-f', 'prod.yaml', 'projects'], ['projects', '-f', 'prod.yaml']]) {
      const r = await runCli(args, { cwd: dir, env: { DBFORM_API_URL: em.url, DBFORM_API_KEY: 'demo-pat' } });
      expect(r.code).toBe(1);
      expect(r.stderr).toContain("error: unknown option '-f'");
    }
  });

  it('each command still lists -f once in its help', async () => {
    for (const command of ['validate', 'plan', 'apply', 'destroy', 'import']) {
      const help = await runCli([command, '--help']);
      expect(help.code).toBe(0);
      expect(help.stdout.match(/-f, --file <path>/g)).toHaveLength(1);
    }
    const top = await runCli(['--help']);
    expect(top.stdout).toContain('may also come before a command that takes them, e.g. `dbform -f prod.yaml plan`');
  });
});

describe('validate and the connection options', () => {
  it('accepts and ignores --emulator, --api-url, --api-key-file and --allow-insecure-http (no request is made)', async () => {
    em.resetStats();
    const after = await runCli(['validate', '-f', 'prod.yaml', '--emulator', '--api-url', em.url, '--api-key-file', 'nope', '--allow-insecure-http'], { cwd: dir });
    expect(after).toEqual(VALID);
    const before = await runCli(['--emulator', '--api-url', em.url, 'validate', '-f', 'prod.yaml'], { cwd: dir });
    expect(before).toEqual(VALID);
    expect(em.stats().total).toBe(0);
    const help = await runCli(['validate', '--help']);
    expect(help.stdout).toMatch(/--emulator\s+ignored: this command needs no network/);
  });
});

describe('--version', () => {
  const version = (JSON.parse(readFileSync(join(import.meta.dirname, '..', '..', '..', 'package.json'), 'utf8')) as { version: string }).version;

  // Alone it is answered before the command modules load (bin/dbform.js); with other options
  // commander answers it: both print the same line.
  it.each([[['--version']], [['-V']], [['--debug', '--version']], [['--no-color', '-V']]])('dbform %j prints the package version and exits 0', async (args) => {
    expect(await runCli(args, { cwd: dir })).toEqual({ code: 0, signal: null, stdout: `${version}\n`, stderr: '' });
  });
});

describe('the options of the commands that run a plan', () => {
  // apply, destroy and sweep pace their actions the same way, so their help says the same.
  it.each([['apply'], ['destroy'], ['sweep']])('dbform %s --help describes --parallelism, --timeout and --lock-timeout as the engine does', async (command) => {
    const r = await runCli([command, '--help'], { cwd: dir });
    expect(r.code).toBe(0);
    const help = r.stdout.replace(/\s+/g, ' ');
    expect(help).toContain('--parallelism <n> API requests in flight at once (waiting for an operation does not count) (default: "10")');
    expect(help).toContain('--timeout <duration> limit per action: 30m, 90s, 1h or milliseconds (default: "30m")');
    expect(help).toMatch(/--lock-timeout <duration> wait up to this long for (the|a workspace's) state lock held by another run/);
  });
});
