// Issue 13's measure of how far one field's knowledge spreads: a field declared once (its
// descriptor) and an op declared once (its row) leave few other files naming them; and issue
// 22's of how far one kind's does.
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
    expect(files).toContain('kinds/replica-set/kind.ts');
    expect(files.length, files.join('\n')).toBeLessThanOrEqual(5);
  });
});

// Issue 22's measure of how far one kind's knowledge spreads: a kind declared once (its folder and
// its registry entry) leaves few other files naming it (docs/adding-a-kind.md lists them).
describe('the spread of one kind (docs/adding-a-kind.md)', () => {
  const handWritten = (files: string[]) => files.filter((f) => !f.split('/').includes('generated'));

  it('names replica sets in at most 15 source files outside the emulator and generated code', () => {
    const files = handWritten(naming(/replica.?set/i));
    expect(files).toContain('kinds/replica-set/kind.ts');
    expect(files.length, files.join('\n')).toBeLessThanOrEqual(15);
  });

  it('names peerings in at most 15 source files outside the emulator and generated code', () => {
    const files = handWritten(naming(/peering/i));
    expect(files).toContain('kinds/peering/kind.ts');
    expect(files.length, files.join('\n')).toBeLessThanOrEqual(15);
  });
});
