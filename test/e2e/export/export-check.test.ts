// `dbform export -o FILE --check` (SPEC section 11): a unified diff of FILE against what export
// would write, exit 0 when they are the same and 2 when they differ, and nothing written at all.
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiClient } from '../../../src/api/client.js';
import { startEmulator, type EmulatorHandle } from '../../../src/emulator/index.js';
import { runCli } from '../../support/cli.js';
import { removeTempDirs, tempDir } from '../../support/temp-dir.js';
import { buildWorld, P } from './world.js';

let em: EmulatorHandle;
let client: ApiClient;
let env: Record<string, string>;
let billingId: string;

beforeAll(async () => {
  em = await startEmulator({ host: '127.0.0.1', port: 0, timeScale: 0 });
  client = new ApiClient({ baseUrl: em.url, token: 'demo-pat' });
  env = { DBFORM_API_URL: em.url, DBFORM_API_KEY: 'demo-pat' };
  const world = await buildWorld(client, [
    { name: 'billing', size: [500, 2], pooler: true, replicaSets: [{ name: 'reporting', size: [500, 2], nodes: 1 }] },
    { name: 'search', size: 'shared', env: 'PROD' },
  ]);
  billingId = world.services.get('billing')![0]!;
});
afterAll(async () => {
  await client.close();
  await em.close();
  removeTempDirs();
});

/** Every file of the directory with its bytes and mtime: a check must leave them all as they were. */
function snapshot(dir: string): Record<string, string> {
  return Object.fromEntries(readdirSync(dir).map((f) => [f, `${statSync(join(dir, f)).mtimeMs} ${readFileSync(join(dir, f), 'utf8')}`]));
}

describe('dbform export --check', () => {
  it('exit 0 and no output on stdout when FILE is what export would write; exit 2 with a unified diff when the live state changed; writes nothing', async () => {
    const dir = tempDir('dbform-export-check-');
    const file = join(dir, 'dbform.yaml');
    const exported = await runCli(['export', '-o', file], { env });
    expect(exported.code, exported.stderr).toBe(0);
    const before = snapshot(dir);

    const same = await runCli(['export', '-o', file, '--check'], { env });
    expect(same.code, same.stderr).toBe(0);
    expect(same.stdout).toBe('');
    expect(same.stderr).toBe(`${file} is up to date with the live infrastructure of project ${P}.\n`);
    expect(snapshot(dir)).toEqual(before);

    // Someone resizes billing by hand.
    await client.resizeService(P, billingId, { cpu_millis: '1000', memory_gbs: '4' });
    const changed = await runCli(['export', '-o', file, '--check'], { env });
    expect(changed.code, changed.stderr).toBe(2);
    const lines = changed.stdout.split('\n');
    expect(lines.slice(0, 2)).toEqual([`--- ${file}\tcurrent`, `+++ ${file}\texport of project ${P}`]);
    expect(lines[2]).toMatch(/^@@ -\d+,\d+ \+\d+,\d+ @@$/);
    expect(lines.filter((l) => /^[-+](?![-+])/.test(l))).toEqual(['-    cpu_millis: 500', '-    memory_gbs: 2', '+    cpu_millis: 1000', '+    memory_gbs: 4']);
    expect(snapshot(dir)).toEqual(before);
    // Byte-identical every time.
    expect((await runCli(['export', '-o', file, '--check'], { env })).stdout).toBe(changed.stdout);
    await client.resizeService(P, billingId, { cpu_millis: '500', memory_gbs: '2' });
  });

  it('a FILE that does not exist: the whole export as added lines, exit 2, and no YAML or lockfile created', async () => {
    const dir = tempDir('dbform-export-check-');
    const file = join(dir, 'new.yaml');
    const r = await runCli(['export', '-o', file, '--check'], { env });
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(`note: ${file} does not exist; the whole export is new\n`);
    expect(r.stdout).toMatch(new RegExp(`^--- ${file}\\tcurrent\\n\\+\\+\\+ ${file}\\texport of project ${P}\\n@@ -0,0 \\+1,\\d+ @@\\n\\+# yaml-language-server: `));
    expect(readdirSync(dir)).toEqual([]);
  });

  it('keeps the keys of the lockfile beside FILE, as a real export does, and never touches it', async () => {
    const dir = tempDir('dbform-export-check-');
    const file = join(dir, 'dbform.yaml');
    expect((await runCli(['export', '-o', file], { env })).code).toBe(0);
    // The team renamed billing's key (and the lockfile with it): a check is not a diff of keys.
    writeFileSync(file, readFileSync(file, 'utf8').replace(/^ {2}billing:$/m, '  payments:\n    name: billing').replace('BILLING_PASSWORD', 'PAYMENTS_PASSWORD'));
    const lock = join(dir, 'dbform.lock.json');
    writeFileSync(lock, readFileSync(lock, 'utf8').replaceAll('service.billing', 'service.payments').replaceAll('replica_set.billing.', 'replica_set.payments.'));
    const before = snapshot(dir);
    const r = await runCli(['export', '-o', file, '--check'], { env });
    expect(r.code, r.stdout).toBe(0);
    expect(snapshot(dir)).toEqual(before);
  });

  it.each([
    [['--check'], 'error: --check needs -o FILE: the file to compare with what export would write\n'],
    [['--check', '--all-projects', '-o', 'x'], 'error: --check compares one file: use it with --project ID -o FILE, not --all-projects\n'],
  ])('refuses %j before any request', async (args, message) => {
    em.resetStats();
    const dir = tempDir('dbform-export-check-');
    const r = await runCli(['export', ...args], { env, cwd: dir });
    expect(r).toMatchObject({ code: 1, stdout: '', stderr: message });
    expect(em.stats().total).toBe(0);
    expect(existsSync(join(dir, 'x'))).toBe(false);
  });
});
