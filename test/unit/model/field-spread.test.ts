// Issue 13's measure of how far one field's knowledge spreads: a field declared once (its
// descriptor) and an op declared once (its row) leave few other files naming them.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

const SRC = join(import.meta.dirname, '..', '..', '..', 'src');

function sourcesOutsideEmulator(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) return name === 'emulator' ? [] : sourcesOutsideEmulator(p);
    return p.endsWith('.ts') ? [p] : [];
  });
}

const naming = (word: RegExp) =>
  sourcesOutsideEmulator(SRC)
    .filter((f) => word.test(readFileSync(f, 'utf8')))
    .map((f) => relative(SRC, f))
    .sort();

describe('the spread of one field (docs/adding-a-field.md)', () => {
  it('names `pooler` in at most 10 source files outside the emulator, generated ones included', () => {
    const files = naming(/pooler/i);
    expect(files.length, files.join('\n')).toBeLessThanOrEqual(10);
  });

  it('names an op of a field (setReplicaEnvironment) in at most 5 files: its row, its descriptor, its handler entry, a client method', () => {
    const files = naming(/setReplicaEnvironment/);
    expect(files).toContain('model/operations.ts');
    expect(files.length, files.join('\n')).toBeLessThanOrEqual(5);
  });
});
