// The bad-config suite: every fixture under test/fixtures/config/bad/ is a config (or a folder
// of configs given together) that must fail with exactly the lines of its `.expected` file.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConfigInputs } from '../../../src/config/index.js';
import { formatDiagnostic } from '../../../src/model/diagnostics.js';

const DIR = join(import.meta.dirname, '..', '..', 'fixtures', 'config', 'bad');
// The environment every fixture sees: `${env:...}` fixtures rely on what is (not) set here.
const FIXTURE_ENV = { DBFORM_FIXTURE_REGION: 'Frankfurt', DBFORM_FIXTURE_NUMBER: '2000', DBFORM_FIXTURE_TRUE: 'true', DBFORM_FIXTURE_EMPTY: '' };

const cases = readdirSync(DIR)
  .filter((name) => name.endsWith('.expected'))
  .map((name) => name.slice(0, -'.expected'.length))
  .sort();

function inputsOf(name: string) {
  const folder = join(DIR, name);
  const files = statSync(folder, { throwIfNoEntry: false })?.isDirectory()
    ? readdirSync(folder)
        .filter((f) => f.endsWith('.yaml'))
        .sort()
        .map((f) => `${name}/${f}`)
    : [`${name}.yaml`];
  return files.map((file) => ({ file, content: readFileSync(join(DIR, file)) }));
}

describe('bad configs', () => {
  it('has at least one fixture per rule and per YAML failure', () => {
    expect(cases.length).toBeGreaterThanOrEqual(40);
  });

  it.each(cases)('%s', (name) => {
    const result = loadConfigInputs(inputsOf(name), { env: FIXTURE_ENV });
    const expected = readFileSync(join(DIR, `${name}.expected`), 'utf8').trimEnd().split('\n');
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.errors.map(formatDiagnostic)).toEqual(expected);
    for (const d of result.errors) {
      expect(d.source?.line, d.message).toBeGreaterThanOrEqual(1);
      expect(d.source?.col, d.message).toBeGreaterThanOrEqual(1);
      expect(d.code, d.message).toMatch(/^[a-z0-9-]+$/);
    }
  });
});
