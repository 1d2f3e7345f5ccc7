// Credentials end to end (SPEC sections 4 and 12): the built CLI authenticates with a token or a
// key pair (HTTP Basic), from the environment or --api-key-file, against the emulator's tiger
// dialect (which takes both); every bad input is one line, and no value is ever printed.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmulator, type EmulatorHandle } from '../../../src/emulator/index.js';
import { runCli } from '../../support/cli.js';
import { tempDir } from '../../support/temp-dir.js';

let tiger: EmulatorHandle;
let seed: EmulatorHandle;
const dir = tempDir('dbform-credentials-');
const PAIR = { DBFORM_ACCESS_KEY: 'demo-access', DBFORM_SECRET_KEY: 'demo-secret' };
/** Every spelling of the pair's values that must never be printed. */
const SECRETS = ['demo-secret', 'demo-access', Buffer.from('demo-access:demo-secret').toString('base64')];

beforeAll(async () => {
  tiger = await startEmulator({ timeScale: 0, dialect: 'tiger' });
  seed = await startEmulator({ timeScale: 0 });
});
afterAll(async () => {
  await tiger.close();
  await seed.close();
});

function keyFile(name: string, text: string): string {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
}

function expectNoSecret(r: { stdout: string; stderr: string }): void {
  for (const s of SECRETS) expect(`${r.stdout}${r.stderr}`).not.toContain(s);
}

describe('a key pair (HTTP Basic)', () => {
  it('from DBFORM_ACCESS_KEY and DBFORM_SECRET_KEY; --debug shows the requests, never the values', async () => {
    const r = await runCli(['projects', '--json', '--debug'], { env: { DBFORM_API_URL: tiger.url, ...PAIR } });
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual([{ id: 'proj-demo', name: 'Demo' }]);
    // A key pair's project comes from GET /auth/info where the API serves it (SPEC section 15).
    expect(r.stderr).toMatch(/^\[api\] GET \/auth\/info -> 200 in \d+ ms \(attempt 1\)$/m);
    expectNoSecret(r);
  });

  it('from --api-key-file holding public_key:secret_key (a trailing newline is fine)', async () => {
    const file = keyFile('pair', 'demo-access:demo-secret\n');
    const r = await runCli(['projects', '--json', '--api-key-file', file], { env: { DBFORM_API_URL: tiger.url } });
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual([{ id: 'proj-demo', name: 'Demo' }]);
    expectNoSecret(r);
  });

  it('wins over a token, with one note on stderr saying so', async () => {
    // The token is wrong: only the key pair can make this succeed.
    const r = await runCli(['projects', '--json'], { env: { DBFORM_API_URL: tiger.url, DBFORM_API_KEY: 'not-a-token', ...PAIR } });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toBe('note: both DBFORM_ACCESS_KEY/DBFORM_SECRET_KEY and DBFORM_API_KEY are set; using the key pair (HTTP Basic)\n');
    const file = keyFile('pair-2', 'demo-access:demo-secret');
    const fromFile = await runCli(['projects', '--json', '--api-key-file', file], { env: { DBFORM_API_URL: tiger.url, DBFORM_API_KEY: 'not-a-token' } });
    expect(fromFile.code, fromFile.stderr).toBe(0);
    expect(fromFile.stderr).toBe(`note: both a key pair in ${file} and DBFORM_API_KEY are set; using the key pair (HTTP Basic)\n`);
  });

  it('a rejected pair is one line naming where it came from, without its values', async () => {
    const r = await runCli(['projects'], { env: { DBFORM_API_URL: tiger.url, DBFORM_ACCESS_KEY: 'demo-access', DBFORM_SECRET_KEY: 'wrong-CANARY' } });
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/^error: the API rejected the key pair \(401 UNAUTHORIZED: .*\); check DBFORM_ACCESS_KEY and DBFORM_SECRET_KEY or the file given to --api-key-file\n$/);
    expect(r.stderr).not.toContain('CANARY');
    expectNoSecret(r);
    // cloud-api.md's dialect authenticates with Bearer only: a key pair is refused there.
    const seedRun = await runCli(['projects'], { env: { DBFORM_API_URL: seed.url, ...PAIR } });
    expect(seedRun.code).toBe(1);
    expect(seedRun.stderr).toMatch(/^error: the API rejected the key pair \(401 UNAUTHORIZED: malformed Authorization header \(expected "Bearer <token>"\)\)/);
  });

  it('half a pair in the environment is one clear line', async () => {
    const only = await runCli(['projects'], { env: { DBFORM_API_URL: tiger.url, DBFORM_ACCESS_KEY: 'demo-access' } });
    expect(only).toMatchObject({ code: 1, stdout: '' });
    expect(only.stderr).toBe('error: DBFORM_ACCESS_KEY is set but DBFORM_SECRET_KEY is not; set both to use a key pair (or neither)\n');
    const other = await runCli(['projects'], { env: { DBFORM_API_URL: tiger.url, DBFORM_SECRET_KEY: 'demo-secret' } });
    expect(other.stderr).toBe('error: DBFORM_SECRET_KEY is set but DBFORM_ACCESS_KEY is not; set both to use a key pair (or neither)\n');
    expectNoSecret(other);
  });

  it.each([
    ['no-public', ':demo-secret\n', 'has no public key before its ":"'],
    ['no-secret', 'demo-access:\n', 'has no secret key after its ":"'],
    ['two-colons', 'demo-access:demo-secret:x\n', 'has more than one ":"'],
    ['space', 'demo-access: demo-secret\n', 'has a space inside its line'],
    ['two-lines', 'demo-access\ndemo-secret\n', 'holds several lines'],
  ])('a key file in the wrong shape (%s) is one line, without its contents', async (name, text, problem) => {
    const file = keyFile(`bad-${name}`, text);
    tiger.resetStats();
    const r = await runCli(['projects', '--api-key-file', file], { env: { DBFORM_API_URL: tiger.url } });
    expect(r).toMatchObject({ code: 1, stdout: '' });
    expect(r.stderr).toBe(`error: the API key file ${file} ${problem}; it must hold one line: an API token, or public_key:secret_key\n`);
    expectNoSecret(r);
    // Refused before any request is sent.
    expect(tiger.stats().total).toBe(0);
  });
});

describe('the tiger dialect also takes a Bearer token', () => {
  it('from DBFORM_API_KEY or a key file holding one token', async () => {
    const r = await runCli(['projects', '--json'], { env: { DBFORM_API_URL: tiger.url, DBFORM_API_KEY: 'demo-oauth' } });
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout).map((p: { id: string }) => p.id)).toEqual(['proj-demo', 'proj-other']);
    const file = keyFile('token', 'demo-pat\n');
    const fromFile = await runCli(['projects', '--json', '--api-key-file', file], { env: { DBFORM_API_URL: tiger.url } });
    expect(JSON.parse(fromFile.stdout)).toEqual([{ id: 'proj-demo', name: 'Demo' }]);
  });
});

describe('--emulator with DBFORM_EMULATOR_DIALECT', () => {
  it('tiger: the in-process emulator answers as the real service, reached with its key pair by default', async () => {
    const cwd = tempDir('dbform-emulator-dialect-');
    writeFileSync(join(cwd, 'dbform.yaml'), 'version: 1\nproject_id: proj-demo\nservices:\n  ts: { addons: [time-series], cpu_millis: 48000, memory_gbs: 192, region_code: az-eastus2 }\n');
    const env = { DBFORM_EMULATOR_DIALECT: 'tiger', DBFORM_EMULATOR_TIME_SCALE: '0', DBFORM_POLL_MS: '10' };
    const apply = await runCli(['apply', '--emulator', '--auto-approve', '--debug'], { cwd, env });
    expect(apply.code, apply.stderr).toBe(0);
    expect(apply.stderr).toContain(', dialect tiger\n');
    expectNoSecret(apply);
    const plan = await runCli(['plan', '--emulator', '--detailed-exitcode'], { cwd, env });
    expect(plan.stdout).toMatch(/^Project proj-demo, workspace default, state: /);
    expect(plan.stdout.split('\n').slice(1).join('\n')).toBe('No changes. 1 unchanged, 0 unmanaged (not in the config or state; left alone).\n');
    expect(plan.code).toBe(0);
  });

  it('anything but seed or tiger is one clear line', async () => {
    const r = await runCli(['projects', '--emulator'], { cwd: dir, env: { DBFORM_EMULATOR_DIALECT: 'aws' } });
    expect(r).toMatchObject({ code: 1, stdout: '', stderr: 'error: DBFORM_EMULATOR_DIALECT must be seed or tiger (found "aws")\n' });
  });
});
