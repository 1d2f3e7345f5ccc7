// `dbform validate` fed YAML written to break it: every problem is one positioned line, never a
// crash or a stack trace, in the text output and in --json.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli } from '../../support/cli.js';
import { HOSTILE_ENV, HOSTILE_YAML } from '../../support/hostile-yaml.js';

const work = mkdtempSync(join(tmpdir(), 'dbform-hostile-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

const HEAD = 'version: 1\nproject_id: proj-demo\n';

/** Aliases that refer to a value holding them: expanding them never ends. */
const RECURSIVE: Record<string, string> = {
  'list.yaml': `${HEAD}x-a: &a [*a]\n`,
  'mapping.yaml': `${HEAD}x-a: &a { x: *a }\n`,
  'ancestor.yaml': `${HEAD}services: &s\n  db:\n    environment: DEV\n    x: *s\n`,
  'resource.yaml': `${HEAD}services:\n  db: &d\n    environment: DEV\n    replica_sets:\n      r: *d\n`,
  'merge.yaml': `${HEAD}x-a: &a\n  k: *a\nservices:\n  db:\n    <<: *a\n`,
  'self-merge.yaml': `${HEAD}x-a: &a { <<: *a }\n`,
};

const write = (name: string, text: string) => {
  const p = join(work, name);
  writeFileSync(p, text);
  return p;
};

describe('recursive YAML aliases', () => {
  it.each(Object.keys(RECURSIVE))('%s: a positioned error, not a stack overflow', async (name) => {
    const file = write(name, RECURSIVE[name]!);
    const r = await runCli(['validate', '-f', file]);
    expect(r.code).toBe(1);
    expect(r.stderr).not.toMatch(/call stack|unexpected failure|at .*\.js:\d+/);
    const lines = r.stderr.trimEnd().split('\n');
    expect(lines.at(-1)).toMatch(/^\d+ errors?$/);
    expect(lines.slice(0, -1).join('\n')).toMatch(new RegExp(`^${file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}:\\d+:\\d+: .*alias \\*\\w+ is used inside the value anchored &\\w+`, 'm'));

    const json = await runCli(['validate', '--json', '-f', file]);
    expect(json.code).toBe(1);
    const out = JSON.parse(json.stdout) as { valid: boolean; errors: Array<{ line: number; col: number; code: string }> };
    expect(out.valid).toBe(false);
    expect(out.errors.some((e) => e.code === 'yaml-alias' && e.line >= 3 && e.col >= 1)).toBe(true);
  });
});

describe('a corpus of hostile YAML through the CLI', () => {
  const files = Object.entries(HOSTILE_YAML).map(([name, text]) => write(`${name}.yaml`, text));
  const args = ['validate', ...files.flatMap((f) => ['-f', f])];
  const escaped = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const positioned = new RegExp(`^${escaped(work)}/[a-z0-9-]+\\.yaml:[1-9]\\d*:[1-9]\\d*: \\S`);

  it('prints every problem as one FILE:LINE:COL line, then the count', async () => {
    const r = await runCli(args, { env: HOSTILE_ENV });
    expect(r.code).toBe(1);
    const lines = r.stderr.trimEnd().split('\n');
    expect(lines.at(-1)).toMatch(/^\d+ errors?(, \d+ warnings?)?$/);
    expect(lines.length).toBeGreaterThan(40);
    for (const line of lines.slice(0, -1)) expect(line).toMatch(positioned);
    expect(r.stderr).not.toMatch(/[\r\u2028\u2029\u0085\ufeff]/);
  });

  it('gives every problem a file, line and column in --json, and one-line messages', async () => {
    const r = await runCli(['validate', '--json', ...args.slice(1)], { env: HOSTILE_ENV });
    expect(r.code).toBe(1);
    const out = JSON.parse(r.stdout) as { errors: Array<{ file: string; line: number; col: number; message: string }> };
    expect(out.errors.length).toBeGreaterThan(40);
    for (const e of out.errors) {
      expect(files).toContain(e.file);
      expect(e.line).toBeGreaterThanOrEqual(1);
      expect(e.col).toBeGreaterThanOrEqual(1);
      expect(e.message).not.toMatch(/[\n\r\u2028\u2029\u0085\ufeff]/);
    }
  });
});
