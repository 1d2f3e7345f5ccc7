// `dbform projects` and the API settings every API command shares (spawned CLI, real emulator).
import { writeFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmulator, type EmulatorHandle } from '../../../src/emulator/index.js';
import { runCli } from '../../support/cli.js';
import { removeTempDirs, tempDir } from '../../support/temp-dir.js';

afterAll(removeTempDirs);

let em: EmulatorHandle;
let dir: string;

beforeAll(async () => {
  em = await startEmulator({ host: '127.0.0.1', port: 0, timeScale: 0 });
  dir = tempDir('dbform-projects-');
});
afterAll(async () => em.close());

describe('dbform projects', () => {
  it('shows the one project of the PAT as a table', async () => {
    const r = await runCli(['projects'], { env: { DBFORM_API_URL: em.url, DBFORM_API_KEY: 'demo-pat' } });
    expect(r).toEqual({ code: 0, signal: null, stdout: 'ID         NAME\nproj-demo  Demo\n', stderr: '' });
  });

  it('shows both projects of the OAuth token, as JSON too', async () => {
    const text = await runCli(['projects', '--api-url', em.url], { env: { DBFORM_API_KEY: 'demo-oauth' } });
    expect(text.stdout).toBe('ID          NAME\nproj-demo   Demo\nproj-other  Other\n');
    const json = await runCli(['projects', '--json'], { env: { DBFORM_API_URL: em.url, DBFORM_API_KEY: 'demo-oauth' } });
    expect(json.code).toBe(0);
    expect(JSON.parse(json.stdout)).toEqual([
      { id: 'proj-demo', name: 'Demo' },
      { id: 'proj-other', name: 'Other' },
    ]);
  });

  it('reads the token from --api-key-file, without its trailing newline', async () => {
    const file = join(dir, 'token');
    writeFileSync(file, 'demo-oauth\n');
    const r = await runCli(['projects', '--json', '--api-key-file', file], { env: { DBFORM_API_URL: em.url, DBFORM_API_KEY: 'demo-pat' } });
    expect(JSON.parse(r.stdout)).toHaveLength(2);
  });

  it('starts an in-process emulator with --emulator, keeping its state in .dbform/', async () => {
    const cwd = tempDir('dbform-emu-');
    const pat = await runCli(['projects', '--emulator'], { cwd, env: {} });
    expect(pat).toEqual({ code: 0, signal: null, stdout: 'ID         NAME\nproj-demo  Demo\n', stderr: '' });
    const oauth = await runCli(['projects', '--emulator', '--json'], { cwd, env: { DBFORM_API_KEY: 'demo-oauth' } });
    expect(oauth.code).toBe(0);
    expect(JSON.parse(oauth.stdout).map((p: { id: string }) => p.id)).toEqual(['proj-demo', 'proj-other']);
    expect(existsSync(join(cwd, '.dbform'))).toBe(true);
    const bad = await runCli(['projects', '--emulator'], { cwd, env: { DBFORM_EMULATOR_TIME_SCALE: 'fast' } });
    expect(bad.code).toBe(1);
    expect(bad.stderr).toBe('error: DBFORM_EMULATOR_TIME_SCALE must be a number >= 0, e.g. 0.1 (found "fast")\n');
  });
});

describe('dbform projects with a key pair (SPEC section 15)', () => {
  it('where the API serves GET /auth/info: the key pair\'s project, as the real service says it', async () => {
    const tiger = await startEmulator({ dialect: 'tiger', timeScale: 0 });
    try {
      const env = { DBFORM_API_URL: tiger.url, DBFORM_ACCESS_KEY: 'demo-access', DBFORM_SECRET_KEY: 'demo-secret' };
      const json = await runCli(['projects', '--json'], { env });
      expect(json.code, json.stderr).toBe(0);
      expect(JSON.parse(json.stdout)).toEqual([{ id: 'proj-demo', name: 'Demo' }]);
      expect(tiger.stats().requests['GET /auth/info']).toBe(1);
      expect(tiger.stats().requests['GET /projects']).toBeUndefined();
      // A user's token (Bearer) is not a key pair: its projects come from GET /projects.
      const oauth = await runCli(['projects', '--json'], { env: { DBFORM_API_URL: tiger.url, DBFORM_API_KEY: 'demo-oauth' } });
      expect(JSON.parse(oauth.stdout).map((p: { id: string }) => p.id)).toEqual(['proj-demo', 'proj-other']);
      expect(tiger.stats().requests['GET /auth/info']).toBe(1);
      expect(tiger.stats().requests['GET /projects']).toBe(1);
    } finally {
      await tiger.close();
    }
  });
});

describe('API settings', () => {
  it('says how to set a missing URL and token', async () => {
    const r = await runCli(['projects']);
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr).toBe(
      'error: dbform needs the API URL (set DBFORM_API_URL or pass --api-url URL) and credentials (set DBFORM_API_KEY, or DBFORM_ACCESS_KEY and DBFORM_SECRET_KEY, or pass --api-key-file PATH); or add --emulator to use the local emulator\n',
    );
  });

  it('names a missing or empty key file', async () => {
    const missing = await runCli(['projects', '--api-key-file', join(dir, 'nope')], { env: { DBFORM_API_URL: em.url } });
    expect(missing.stderr).toBe(`error: cannot read the API key file ${join(dir, 'nope')}: no such file\n`);
    const empty = join(dir, 'empty');
    writeFileSync(empty, '\n');
    const r = await runCli(['projects', '--api-key-file', empty], { env: { DBFORM_API_URL: em.url } });
    expect(r.code).toBe(1);
    expect(r.stderr).toBe(`error: the API key file ${empty} is empty; put the API token or public_key:secret_key in it\n`);
  });

  it('refuses plain http to a remote host unless --allow-insecure-http', async () => {
    const r = await runCli(['projects'], { env: { DBFORM_API_URL: 'http://api.example.com/public/api/v1', DBFORM_API_KEY: 'demo-pat' } });
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/^error: refusing to send the API credentials over plain http to api\.example\.com; use https, or --allow-insecure-http/);
  });

  it('a rejected token is one readable line, without the token and without a stack', async () => {
    const r = await runCli(['projects'], { env: { DBFORM_API_URL: em.url, DBFORM_API_KEY: 'tok-wrong-CANARY' } });
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/^error: the API rejected the token \(401 UNAUTHORIZED: .*\); check DBFORM_API_KEY or the file given to --api-key-file\n$/);
    expect(r.stderr).not.toContain('CANARY');
  });

  it('--debug prints one line per request with the token redacted', async () => {
    const r = await runCli(['projects', '--debug'], { env: { DBFORM_API_URL: em.url, DBFORM_API_KEY: 'demo-pat' } });
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(/^\[api\] GET \/projects -> 200 in \d+ ms \(attempt 1\)\n$/);
    expect(r.stderr).not.toContain('demo-pat');
  });

  it('cannot reach a closed port: says so with the URL', async () => {
    // An emulator's port, at time scale 0.01: the 5 attempts back off 1-2 ms, not 0.1-1.6 s, apart.
    const closed = await startEmulator({ host: '127.0.0.1', port: 0, timeScale: 0.01 });
    await closed.close();
    const r = await runCli(['projects'], { env: { DBFORM_API_URL: closed.url, DBFORM_API_KEY: 'demo-pat', DBFORM_EMULATOR_TIME_SCALE: '0.01' } });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(`error: cannot reach the API at ${closed.url} (ECONNREFUSED`);
  });
});
