// `dbform fmt [--check] [--diff] [FILE]...` (SPEC section 14) as a user runs it.
import { readFileSync, statSync, chmodSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../../support/cli.js';
import { tempDir } from '../../support/temp-dir.js';

const MESSY = '# the team database\nservices:\n    db:\n        memory_gbs: 4   # with cpu\n        cpu_millis: 1000\nproject_id: p\nversion: 1\n';
const CANONICAL = '# the team database\nversion: 1\nproject_id: p\nservices:\n  db:\n    cpu_millis: 1000\n    memory_gbs: 4   # with cpu\n';

function workdir(files: Record<string, string>): string {
  const dir = tempDir('dbform-fmt-');
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
  return dir;
}

describe('dbform fmt', () => {
  it('--check lists the file that would change, exits 2 and writes nothing', async () => {
    const dir = workdir({ 'dbform.yaml': MESSY });
    const r = await runCli(['fmt', '--check'], { cwd: dir });
    expect(r.code, r.stderr).toBe(2);
    expect(r.stdout).toBe('dbform.yaml\n');
    expect(readFileSync(join(dir, 'dbform.yaml'), 'utf8')).toBe(MESSY);
  });

  it('rewrites the file in canonical form with its comments and mode, then --check exits 0', async () => {
    const dir = workdir({ 'dbform.yaml': MESSY });
    chmodSync(join(dir, 'dbform.yaml'), 0o600);
    const r = await runCli(['fmt'], { cwd: dir });
    expect(r.code, r.stderr).toBe(0);
    expect(readFileSync(join(dir, 'dbform.yaml'), 'utf8')).toBe(CANONICAL);
    expect(statSync(join(dir, 'dbform.yaml')).mode & 0o777).toBe(0o600);
    const again = await runCli(['fmt', '--check'], { cwd: dir });
    expect(again.code).toBe(0);
    expect(again.stdout).toBe('');
  });

  it('--check --diff prints a unified diff of the change', async () => {
    const dir = workdir({ 'a.yaml': MESSY, 'b.yaml': CANONICAL });
    const r = await runCli(['fmt', '--check', '--diff', 'a.yaml', 'b.yaml'], { cwd: dir });
    expect(r.code).toBe(2);
    expect(r.stdout).toContain('--- a.yaml');
    expect(r.stdout).toContain('+services:\n+  db:\n+    cpu_millis: 1000');
    expect(r.stdout).not.toContain('b.yaml');
  });

  it('refuses a file that is not YAML with FILE:LINE:COL, exit 1, and leaves it as it is', async () => {
    const broken = 'version: 1\nservices:\n  db: [1, 2\n';
    const dir = workdir({ 'dbform.yaml': broken });
    const r = await runCli(['fmt'], { cwd: dir });
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/^dbform\.yaml:\d+:\d+: /);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(readFileSync(join(dir, 'dbform.yaml'), 'utf8')).toBe(broken);
  });

  it('says which file cannot be read, in one line', async () => {
    const dir = workdir({});
    const r = await runCli(['fmt', 'missing.yaml'], { cwd: dir });
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/^error: cannot read missing.yaml: [^\n]+\n$/);
  });
});
