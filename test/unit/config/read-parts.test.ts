// A large file read in parts (src/config/read-parts.ts) gives the data of the whole read, or is read
// whole: a cut never changes what is read. Here every file is cut at every entry (sizes of 1), so
// that each text is checked, not only files of 2 MB.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readInParts } from '../../../src/config/read-parts.js';
import { readDocument } from '../../../src/config/read-yaml.js';
// @ts-expect-error: a plain JS script without type declarations
import { generateLargeConfig, STYLES } from '../../../scripts/gen-large-config.js';
import { HOSTILE_YAML } from '../../support/hostile-yaml.js';

const EVERY_ENTRY = { over: 0, part: 1, most: Infinity };
const gen = generateLargeConfig as (services: number, vpcs?: number, style?: string) => string;

/** 'parts' when the text was read in parts (then with the whole read's data), 'whole' when it was left to it. */
function read(text: string): 'parts' | 'whole' {
  const parts = readInParts(text, readDocument, EVERY_ENTRY);
  if (!parts) return 'whole';
  expect(parts.data).toStrictEqual(readDocument(text)?.data);
  return 'parts';
}

describe('reading a large file in parts', () => {
  it.each(['block', 'block-scalars', 'flow', 'comments'])('reads the %s style in parts, to the same data', (style) => {
    expect(read(gen(50, 5, style))).toBe('parts');
  });

  it('reads the examples in parts, or whole, to the same data', () => {
    for (const name of ['quickstart.yaml', 'full.yaml']) read(readFileSync(join(import.meta.dirname, '..', '..', '..', 'examples', name), 'utf8'));
  });

  it.each(Object.keys(HOSTILE_YAML))('never reads the hostile file %s otherwise than whole', (name) => {
    read(HOSTILE_YAML[name]!);
  });

  it.each([
    ['aliases to anchors of another part (the anchors style)', gen(20, 2, 'anchors')],
    ['a key line inside a flow mapping at the root', '{x: 1,\nservices:\n  a: 1\n  b: 2\n}\n'],
    ['a key line inside a flow list', 'x: [\nservices:\n  a: 1\n  b: 2\n]\n'],
    ['a key in two parts', 'services:\n  a: 1\n  b: 2\n  a: 3\n'],
    ['a tab where indentation is read', 'services:\n  a: 1\n\tb: 2\n'],
    ['a merge among the entries', 'x: &x {m: 1}\nservices:\n  a: 1\n  <<: *x\n'],
    ['a line less indented than the entries', 'services:\n    a: 1\n  b: 2\n'],
    ['a flow mapping cut in two', 'services:\n  a: {x: 1,\n  y: 2}\n  b: 3\n'],
    ['a list of entries', 'services:\n  - a\n  - b\n'],
    ['a body that is a block scalar', 'services: |\n  a: 1\n  b: 2\n'],
  ])('reads whole: %s', (_what, text) => {
    expect(read(text)).toBe('whole');
  });

  it('reads a body in at most `most` parts, each as large as it takes, to the same data', () => {
    const text = gen(50, 5);
    const parts: string[] = [];
    const counted = (part: string, depth: number) => (depth === 1 && parts.push(part), readDocument(part, depth));
    const read = readInParts(text, counted, { over: 0, part: 1, most: 3 });
    expect(read?.data).toStrictEqual(readDocument(text)?.data);
    // Two sections cut (vpcs, services), three parts each; without the bound, one per entry.
    expect(parts).toHaveLength(6);
    expect(Object.keys((readDocument(parts.at(-1)!, 1)!.data as object)).length).toBeGreaterThan(10);
  });

  it('keeps a file under the size it cuts from whole, and leaves a small body alone', () => {
    const text = gen(50);
    expect(readInParts(text, readDocument)).toBeUndefined();
    expect(readInParts(text, readDocument, { over: 0, part: text.length, most: Infinity })).toBeUndefined();
  });
});
