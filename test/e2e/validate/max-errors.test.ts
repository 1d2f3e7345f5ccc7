// `dbform validate` of a file with more problems than anyone reads (SPEC section 13): the first
// 1,000 diagnostics in file order, then `... and N more errors`, then the count; `--max-errors N`
// prints N (0: all); `--json` lists as many and gives the totals.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli } from '../../support/cli.js';
import { removeTempDirs, tempDir } from '../../support/temp-dir.js';
// @ts-expect-error: a plain JS script without type declarations
import { generateLargeConfig } from '../../../scripts/gen-large-config.js';

afterAll(removeTempDirs);

const work = tempDir('dbform-max-errors-');
/** 1,200 services with a wrong size each, and one warning (a peer account ID of the wrong length) at the top. */
const file = join(work, 'dbform.yaml');
writeFileSync(
  file,
  (generateLargeConfig(1200) as string)
    .replace(/^ {4}memory_gbs: 8$/gm, '    memory_gbs: 9')
    .replace('peer_account_id: "123456789012"', 'peer_account_id: "12345"'),
);

const SIZE_ERROR = /^.*dbform\.yaml:(\d+):17: services\.svc-\d+\.memory_gbs: 9 is not an allowed size; /;

/** The line numbers of the printed size errors, which must rise (file order). */
function lineNumbers(lines: readonly string[]): number[] {
  const numbers = lines.map((l) => Number(SIZE_ERROR.exec(l)?.[1]));
  for (const n of numbers) expect(n).toBeGreaterThan(0);
  expect([...numbers].sort((a, b) => a - b)).toEqual(numbers);
  return numbers;
}

interface ValidateJson {
  valid: boolean;
  errors: Array<{ line: number; code: string }>;
  warnings: Array<{ line: number; code: string }>;
  error_count: number;
  warning_count: number;
  omitted: number;
}

describe('dbform validate of a file with 1,200 errors', () => {
  it('prints the first 1,000 diagnostics in file order, how many more, and the count', async () => {
    const r = await runCli(['validate', '-f', file]);
    expect(r.code).toBe(1);
    const lines = r.stderr.trimEnd().split('\n');
    expect(lines).toHaveLength(1002);
    expect(lines[0]).toMatch(/dbform\.yaml:\d+:\d+: warning: .*peer_account_id/);
    lineNumbers(lines.slice(1, 1000));
    expect(lines.slice(-2)).toEqual(['... and 201 more errors', '1200 errors, 1 warning']);
  });

  it('prints as many as --max-errors says', async () => {
    const r = await runCli(['validate', '--max-errors', '5', '-f', file]);
    expect(r.code).toBe(1);
    const lines = r.stderr.trimEnd().split('\n');
    expect(lines).toHaveLength(7);
    lineNumbers(lines.slice(1, 5));
    expect(lines.slice(-2)).toEqual(['... and 1196 more errors', '1200 errors, 1 warning']);
  });

  it('prints every diagnostic with --max-errors 0', async () => {
    const r = await runCli(['validate', '--max-errors', '0', '-f', file]);
    expect(r.code).toBe(1);
    const lines = r.stderr.trimEnd().split('\n');
    expect(lines).toHaveLength(1202);
    expect(lineNumbers(lines.slice(1, -1))).toHaveLength(1200);
    expect(lines.at(-1)).toBe('1200 errors, 1 warning');
  });

  it('lists the first 1,000 in --json, with the totals and how many it left out', async () => {
    const r = await runCli(['validate', '--json', '-f', file]);
    expect(r.code).toBe(1);
    const out = JSON.parse(r.stdout) as ValidateJson;
    expect(out).toMatchObject({ valid: false, error_count: 1200, warning_count: 1, omitted: 201 });
    expect(out.errors).toHaveLength(999);
    expect(out.warnings).toHaveLength(1);
    expect(new Set(out.errors.map((e) => e.code))).toEqual(new Set(['size-not-allowed']));
    const all = JSON.parse((await runCli(['validate', '--json', '--max-errors', '0', '-f', file])).stdout) as ValidateJson;
    expect(all).toMatchObject({ error_count: 1200, omitted: 0 });
    expect(all.errors).toHaveLength(1200);
  });

  it.each(['-1', 'all', '1.5', ''])('refuses --max-errors %j before reading the config', async (value) => {
    const r = await runCli(['validate', '--max-errors', value, '-f', join(work, 'missing.yaml')]);
    expect(r.code).toBe(1);
    expect(r.stderr).toBe(`error: --max-errors takes a whole number of diagnostics to print, 0 for all (got ${JSON.stringify(value)})\n`);
  });
});
