// `npm run demo` is the README quickstart: it must pass on a fresh checkout and leave it clean.
import { spawn } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { removeTempDirs, tempDir } from '../../support/temp-dir.js';

const ROOT = join(import.meta.dirname, '..', '..', '..');

afterAll(removeTempDirs);

it('npm run demo runs every step, applies one resize, ends with no changes, and leaves the repository as it was', async () => {
  const before = readdirSync(ROOT).sort();
  // The demo keeps its work directory for the reader to look at: here it lands in a folder the test removes.
  const env = { ...process.env, NO_COLOR: '1', DBFORM_API_KEY: 'must-be-ignored', DBFORM_API_URL: 'http://127.0.0.1:1/nothing', TMPDIR: tempDir('dbform-demo-tmp-') };
  const run = await new Promise<{ code: number | null; out: string; err: string }>((resolve) => {
    const child = spawn(process.execPath, [join(ROOT, 'scripts', 'demo.js')], { cwd: ROOT, env });
    let out = '';
    let err = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (err += d));
    child.on('close', (code) => resolve({ code, out, err }));
  });
  expect(run.err).toBe('');
  expect(run.code).toBe(0);
  const headers = run.out.split('\n').filter((l) => l.startsWith('== '));
  expect(headers).toHaveLength(10);
  expect(run.out).toMatch(/== 5\. Plan the change[\s\S]*~ service\.app-db {2}\(resizeService\)[\s\S]*== 6\./);
  expect(run.out).toMatch(/== 8\. Nothing left to do\n\$ dbform plan --emulator --detailed-exitcode\nProject proj-demo, workspace default, state: dbform\.lock\.json\nNo changes\./);
  // How to connect: every managed service's endpoint, and no password without --with-password.
  const connect = run.out.slice(run.out.indexOf('== 9. How to connect'), run.out.indexOf('== 10.'));
  expect(connect).toMatch(/^service\.app-db\n {2}host {5}= \S+\.tsdb\.cloud\.example\n {2}port {5}= 5432$/m);
  expect(connect).toMatch(/^replica_set\.app-db\.reporting$/m);
  expect(connect).not.toMatch(/^ *password *=/m);
  expect(readdirSync(ROOT).sort()).toEqual(before);
}, 60_000);
