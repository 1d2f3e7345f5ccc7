// Placing N diagnostics costs O(file + N) (SPEC sections 8 and 13), held without a clock: the
// loader counts the steps that grow with the file or its errors (src/config/work-meter.ts:
// events read for positions, lookups, line searches, comparisons between errors and suspect
// places, keys scanned for a mis-indented entry), and twice the errors must cost at most about
// twice the steps. The old mis-indentation check scanned every service key for each error: its
// count grew 4x here. Timings are in the bench (`npm run bench -- --only startup`).
import { describe, expect, it } from 'vitest';
import { loadConfigText } from '../../../src/config/index.js';
import { resetWorkCount, workCounted } from '../../../src/config/work-meter.js';
// @ts-expect-error: a plain JS script without type declarations
import { generateLargeConfig } from '../../../scripts/gen-large-config.js';

const gen = generateLargeConfig as (services: number, vpcs?: number) => string;

/** The steps of one load, and how many errors it found (it must find some). */
function stepsOf(text: string): { steps: number; errors: number } {
  resetWorkCount();
  const result = loadConfigText(text, 'dbform.yaml');
  const steps = workCounted();
  return { steps, errors: result.ok ? 0 : result.errors.length };
}

const KINDS: Record<string, (services: number) => string> = {
  'a wrong size in every service (schema)': (n) => gen(n).replace(/^ {4}memory_gbs: 8$/gm, '    memory_gbs: 9'),
  'nine wrong settings in every service (schema, rules)': (n) =>
    gen(n)
      .replace(/^ {4}environment: PROD$/gm, '    environment: PRDO')
      .replace(/^ {4}region_code: us-east-1$/gm, '    region_code: US-EAST')
      .replace(/^ {4}pooler: true$/gm, '    pooler: "yes"')
      .replace(/^ {4}ha: \{ replicas: 2, sync_replicas: 1 \}$/gm, '    ha: { replicas: 3, sync_replicas: 1 }')
      .replace(/^ {4}vpc: vpc-(\d+)$/gm, '    vpc: vpc-gone-$1')
      .replace(/^ {8}nodes: 2$/gm, '        nodes: 11'),
  'a setting written at the level of the replica sets (mis-indented)': (n) => gen(n).replace(/^ {8}nodes: 1$/gm, '      nodes: 1'),
  'a duplicate key and a wrong size in every service (read event by event, follow-ons)': (n) =>
    gen(n).replace(/^ {4}environment: PROD$/gm, '    environment: PROD\n    environment: DEV').replace(/^ {4}memory_gbs: 8$/gm, '    memory_gbs: 9'),
};

describe('the cost of placing diagnostics is linear', () => {
  it.each(Object.keys(KINDS))('%s: twice the services and errors, at most 2.2x the steps', (kind) => {
    const small = stepsOf(KINDS[kind]!(300));
    const large = stepsOf(KINDS[kind]!(600));
    expect(small.errors).toBeGreaterThan(0);
    expect(large.errors).toBeGreaterThan(1.9 * small.errors);
    expect(large.steps / small.steps).toBeLessThanOrEqual(2.2);
  });

  it('twice the errors in one file cost at most a few steps per error more', () => {
    const base = gen(600);
    const some = stepsOf(base.replace(/^( {2}svc-[0-2]?\d?\d:\n(?: {4}.*\n)*?) {4}memory_gbs: 8$/gm, '$1    memory_gbs: 9'));
    const more = stepsOf(base.replace(/^ {4}memory_gbs: 8$/gm, '    memory_gbs: 9'));
    expect(some.errors).toBe(300);
    expect(more.errors).toBe(600);
    expect((more.steps - some.steps) / (more.errors - some.errors)).toBeLessThan(100);
  });

  it('a valid file reads no position at all (they are read when a diagnostic asks)', () => {
    const result = stepsOf(gen(300));
    expect(result).toEqual({ steps: 0, errors: 0 });
    const text = gen(3);
    const loaded = loadConfigText(text, 'dbform.yaml');
    expect(loaded.ok).toBe(true);
    // Each resource still knows where it is written, when asked.
    const line = text.split('\n').indexOf('  svc-2:') + 1;
    if (loaded.ok) expect(loaded.value.services[2]?.source).toEqual({ file: 'dbform.yaml', line, col: 3 });
  });
});
