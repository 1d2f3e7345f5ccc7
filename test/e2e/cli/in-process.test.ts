// The CLI run inside the test's process (runCli, test/support/cli.ts) answers exactly as the
// spawned `bin/dbform.js` does: stdout, stderr and exit code, byte for byte, for commands that take
// every way out (commander's help, version and usage errors, the single-dash refusal, a config
// error, a plan, an apply, the state and history commands), with relative paths read from the
// run's directory and the run's environment alone. Two in-process runs at once each see their own.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EmulatorHandle } from '../../../src/emulator/index.js';
import { runCli, type CliOptions, type CliResult } from '../../support/cli.js';
import { startTestEmulator, AUTH_ENV, EMULATOR_ENV } from '../../support/dialect.js';
import { removeTempDirs, tempDir } from '../../support/temp-dir.js';

let em: EmulatorHandle;
beforeAll(async () => {
  em = await startTestEmulator({ timeScale: 0 });
});
afterAll(async () => {
  await em.close();
  removeTempDirs();
});

const CONFIG = (prefix: string) => `version: 1
project_id: proj-demo
services:
  db:
    name: ${prefix}-db-\${env:DB_SUFFIX}
    cpu_millis: 500
    memory_gbs: 2
`;

/** A directory with the config one level down (`sub/dbform.yaml`), so every path is relative. */
function project(prefix: string): string {
  const dir = tempDir('dbform-inproc-');
  mkdirSync(join(dir, 'sub'));
  writeFileSync(join(dir, 'sub', 'dbform.yaml'), CONFIG(prefix));
  writeFileSync(join(dir, 'bad.yaml'), 'version: 1\nproject_id: proj-demo\nservices:\n  db:\n    cpu_millis: 7\n');
  return dir;
}

const env = (dir: string): NodeJS.ProcessEnv => ({ DBFORM_API_URL: em.url, ...AUTH_ENV, DB_SUFFIX: 'x', HOME: dir, NO_COLOR: '1' });

/** Both ways, one after the other; the in-process answer, once it equals the spawned one. */
async function same(args: string[], options: CliOptions): Promise<CliResult> {
  const spawned = await runCli(args, { ...options, spawn: true });
  const inProcess = await runCli(args, options);
  expect(inProcess, `dbform ${args.join(' ')}`).toEqual(spawned);
  return inProcess;
}

describe('in process and spawned, the same answer', () => {
  it('help, version, usage errors and the single-dash refusal (commander writes and exits through the run)', async () => {
    const cwd = project('help');
    expect((await same(['--version'], { cwd })).stdout).toMatch(/^\d+\.\d+\.\d+/);
    expect((await same(['--help'], { cwd })).stdout).toContain('Usage: dbform');
    expect((await same(['plan', '--help'], { cwd })).stdout).toContain('--api-url <url>');
    expect((await same(['validate', '--bogus'], { cwd })).code).toBe(1);
    expect((await same(['plam'], { cwd })).stderr).toContain('plan');
    expect((await same(['plan', '-file', 'x.yaml'], { cwd })).code).toBe(1);
  });

  it('validate: relative files read from the run directory, a positioned error, ${env:} from the run environment', async () => {
    const cwd = project('validate');
    expect((await same(['validate', '-f', 'sub/dbform.yaml'], { cwd, exactEnv: { DB_SUFFIX: 'y' } })).stdout).toBe('sub/dbform.yaml: valid (0 VPCs, 0 peerings, 1 service, 0 replica sets)\n');
    expect((await same(['validate', '-f', 'bad.yaml'], { cwd })).stderr).toMatch(/^bad\.yaml:5:5: services\.db: /);
    expect((await same(['validate', '-f', 'sub/dbform.yaml', '--json'], { cwd, exactEnv: {} })).code).toBe(1);
    expect((await same(['validate'], { cwd })).stderr).toContain('dbform.yaml: no such file');
  });

  it('plan: text, colour, JSON, --detailed-exitcode, --out to a relative path, a missing API URL', async () => {
    const cwd = project('plan');
    const options = { cwd, exactEnv: env(cwd) };
    expect((await same(['plan', '-f', 'sub/dbform.yaml'], options)).stdout).toContain('+ service.db');
    expect((await same(['plan', '-f', 'sub/dbform.yaml'], { cwd, exactEnv: { ...env(cwd), NO_COLOR: undefined, FORCE_COLOR: '1' } })).stdout).toContain('\x1b[');
    expect(JSON.parse((await same(['plan', '-f', 'sub/dbform.yaml', '--json'], options)).stdout).actions).toHaveLength(1);
    expect((await same(['plan', '-f', 'sub/dbform.yaml', '--detailed-exitcode'], options)).code).toBe(2);
    expect((await same(['plan', '-f', 'sub/dbform.yaml', '--out', 'plans/next.json'], options)).stderr).toContain('Saved the plan to plans/next.json');
    expect(existsSync(join(cwd, 'plans', 'next.json'))).toBe(true);
    expect((await same(['plan', '-f', 'sub/dbform.yaml'], { cwd, exactEnv: { ...env(cwd), DBFORM_API_URL: undefined } })).stderr).toContain('dbform needs the API URL');
  });

  it("the test process's own DBFORM_API_URL reaches neither (the run has its environment alone)", async () => {
    const cwd = project('isolated');
    const before = process.env.DBFORM_API_URL;
    process.env.DBFORM_API_URL = 'http://127.0.0.1:9/public/api/v1';
    try {
      expect((await same(['plan', '-f', 'sub/dbform.yaml', '--detailed-exitcode'], { cwd, exactEnv: env(cwd) })).code).toBe(2);
    } finally {
      if (before === undefined) delete process.env.DBFORM_API_URL;
      else process.env.DBFORM_API_URL = before;
    }
  });

  it('apply --emulator in two fresh directories: the same lines but for IDs and times; then state, history and output alike', async () => {
    const masked = (r: CliResult) => ({
      ...r,
      stdout: r.stdout.replace(/\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ/g, 'TIME').replace(/\b[a-z0-9]{10}\b/g, 'ID').replace(/\b\d+(ms|s)\)/g, 'T)'),
    });
    const runs: CliResult[] = [];
    const dirs = [project('apply'), project('apply')];
    for (const [i, cwd] of dirs.entries()) {
      const args = ['apply', '--emulator', '--auto-approve', '-f', 'sub/dbform.yaml', '--pgpass', 'pgpass'];
      // In colour: the progress lines pass kleur's own gate (src/cli/progress/paint.ts) as well.
      const colour = { ...env(cwd), NO_COLOR: undefined, FORCE_COLOR: '1', ...EMULATOR_ENV, DBFORM_EMULATOR_TIME_SCALE: '0' };
      runs.push(masked(await runCli(args, { cwd, exactEnv: colour, spawn: i === 0 })));
    }
    expect(runs[1]).toEqual(runs[0]);
    expect(runs[0]!.code).toBe(0);
    expect(runs[0]!.stdout).toContain('createService \x1b[32mdone (id ID, T)\x1b[39m');
    for (const cwd of dirs) expect(Object.keys(JSON.parse(readFileSync(join(cwd, 'sub', 'dbform.lock.json'), 'utf8')).resources)).toEqual(['service.db']);
    // Both directories now hold an applied workspace; the read-only commands answer alike in each.
    const cwd = dirs[0]!;
    const options = { cwd, exactEnv: { ...env(cwd), ...EMULATOR_ENV, DBFORM_EMULATOR_TIME_SCALE: '0' } };
    for (const args of [
      ['state', 'list', '-f', 'sub/dbform.yaml'],
      ['state', 'show', 'service.db', '-f', 'sub/dbform.yaml', '--emulator'],
      ['history', '--json', '-f', 'sub/dbform.yaml'],
      ['workspace', 'list', '-f', 'sub/dbform.yaml'],
      ['output', '--json', '--with-password', '--pgpass', 'pgpass', '-f', 'sub/dbform.yaml', '--emulator'],
      ['plan', '--emulator', '--detailed-exitcode', '-f', 'sub/dbform.yaml'],
    ]) {
      expect((await same(args, options)).code, args.join(' ')).toBe(0);
    }
  });

  it('two in-process runs at once: each its own directory, environment and output', async () => {
    const a = project('overlap-a');
    const b = project('overlap-b');
    const runA = ['validate', '-f', 'sub/dbform.yaml'];
    const runB = ['plan', '-f', 'sub/dbform.yaml', '--detailed-exitcode'];
    const [spawnedA, spawnedB] = [await runCli(runA, { cwd: a, exactEnv: { DB_SUFFIX: 'y' }, spawn: true }), await runCli(runB, { cwd: b, exactEnv: env(b), spawn: true })];
    const together = await Promise.all([runCli(runA, { cwd: a, exactEnv: { DB_SUFFIX: 'y' } }), runCli(runB, { cwd: b, exactEnv: env(b) }), runCli(runA, { cwd: b, exactEnv: {} })]);
    expect(together[0]).toEqual(spawnedA);
    expect(together[1]).toEqual(spawnedB);
    expect(together[2].code).toBe(1);
    expect(together[2].stderr).toContain('DB_SUFFIX');
  });
});
