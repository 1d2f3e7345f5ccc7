// Whatever bytes it is given, the loader answers: a desired state, or diagnostics that each point
// at a line and column of the file. It never throws, and never prints (no process warnings).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfigText } from '../../../src/config/index.js';

const EXAMPLES = join(import.meta.dirname, '..', '..', '..', 'examples');
const TEXTS = ['quickstart.yaml', 'full.yaml'].map((f) => readFileSync(join(EXAMPLES, f), 'utf8'));
const ENV = { DBFORM_PROJECT_ID: 'proj-demo', METRICS_DB_PASSWORD: 'pw' };

const warnings: string[] = [];
const onWarning = (w: Error) => warnings.push(w.message);
beforeAll(() => process.on('warning', onWarning));
afterAll(() => process.off('warning', onWarning));

function checkResult(content: string | Uint8Array): void {
  const result = loadConfigText(content, 'f.yaml', { env: ENV });
  const text = typeof content === 'string' ? content : Buffer.from(content).toString('latin1');
  const lines = text.split('\n').length;
  if (result.ok) {
    expect(typeof result.value.projectId).toBe('string');
    for (const r of [...result.value.vpcs, ...result.value.services]) expect(r.source?.file).toBe('f.yaml');
    return;
  }
  expect(result.errors.length).toBeGreaterThan(0);
  expect(result.errors.some((e) => e.severity === 'error')).toBe(true);
  for (const e of result.errors) {
    expect(e.message.length).toBeGreaterThan(0);
    expect(e.message).not.toMatch(/\bat .*\.(js|ts):\d+/); // no stack trace
    expect(e.source?.file).toBe('f.yaml');
    expect(e.source!.line).toBeGreaterThanOrEqual(1);
    expect(e.source!.line).toBeLessThanOrEqual(lines + 1);
    expect(e.source!.col).toBeGreaterThanOrEqual(1);
  }
}

const SCALARS = ['~', 'null', '3000', '-1', '1.5', 'true', '"x"', "''", '[]', '{}', '[1, {a: b}]', 'shared', '${env:UNSET_VAR}', '$${x}', '&a x', '*a', '!tag x', '|', 'é', 'a: b'];

type Mutation = (lines: string[], rnd: number[]) => string[];
const mutations: Record<string, Mutation> = {
  deleteKey: (l, [i]) => l.filter((_, k) => k !== i! % l.length),
  changeScalar: (l, [i, j]) => l.map((x, k) => (k === i! % l.length ? x.replace(/:( .*)?$/, `: ${SCALARS[j! % SCALARS.length]}`) : x)),
  unknownKey: (l, [i, j]) => [...l.slice(0, i! % l.length), `${' '.repeat((j! % 4) * 2)}zz-unknown: 1`, ...l.slice(i! % l.length)],
  duplicateKey: (l, [i]) => [...l.slice(0, (i! % l.length) + 1), l[i! % l.length]!, ...l.slice((i! % l.length) + 1)],
  reindent: (l, [i, j]) => l.map((x, k) => (k === i! % l.length ? ' '.repeat(j! % 7) + x.trimStart() : x)),
  tab: (l, [i]) => l.map((x, k) => (k === i! % l.length ? x.replace(/^ {2}/, '\t') : x)),
  tabComment: (l, [i]) => l.map((x, k) => (k === i! % l.length ? `${x} #\tnote` : x)),
  documentMarker: (l, [i]) => (i! % 2 === 0 ? ['---', ...l] : [...l, '...']),
  envInFlow: (l, [i, j]) => l.map((x, k) => (k === i! % l.length ? x.replace(/:( .*)?$/, `: ${['[${env:A}]', '{id: ${env:B}}', '[x, a${env:C}-b]'][j! % 3]}`) : x)),
  unclosed: (l, [i, j]) => l.map((x, k) => (k === i! % l.length ? x.replace(/:( .*)?$/, `: ${['[a, b', '{a: 1', '"open', "'open"][j! % 4]}`) : x)),
};

describe('the loader on mutated examples (seeded)', () => {
  it('never throws and always positions its diagnostics', () => {
    fc.assert(
      fc.property(
        fc.nat(TEXTS.length - 1),
        fc.array(fc.tuple(fc.constantFrom(...Object.keys(mutations)), fc.array(fc.nat(10_000), { minLength: 2, maxLength: 2 })), { minLength: 1, maxLength: 5 }),
        (which, steps) => {
          let lines = TEXTS[which]!.split('\n');
          for (const [name, rnd] of steps) lines = mutations[name]!(lines, rnd);
          checkResult(lines.join('\n'));
        },
      ),
      { seed: 4242, numRuns: 600 },
    );
  });

  it('survives truncation at any point', () => {
    fc.assert(
      fc.property(fc.nat(TEXTS.length - 1), fc.nat(100_000), (which, at) => {
        const text = TEXTS[which]!;
        checkResult(text.slice(0, at % (text.length + 1)));
      }),
      { seed: 99, numRuns: 400 },
    );
  });

  it('survives random bytes anywhere', () => {
    fc.assert(
      fc.property(fc.nat(TEXTS.length - 1), fc.nat(100_000), fc.uint8Array({ minLength: 1, maxLength: 8 }), (which, at, noise) => {
        const bytes = new TextEncoder().encode(TEXTS[which]!);
        const i = at % (bytes.length + 1);
        checkResult(new Uint8Array([...bytes.subarray(0, i), ...noise, ...bytes.subarray(i)]));
      }),
      { seed: 7, numRuns: 400 },
    );
  });

  it('survives arbitrary text', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 200 }), (text) => checkResult(`version: 1\nproject_id: p\n${text}`)),
      { seed: 1234, numRuns: 400 },
    );
  });

  it('printed no process warnings', () => {
    expect(warnings).toEqual([]);
  });
});
