// The js-yaml event path must agree with the `yaml` package on everything it accepts: same data,
// same positions. Everything else it must hand over (return undefined), never guess. (These
// were the tests of the hand-written fast reader it replaced; what that reader handed over for
// being outside its subset but is valid YAML is now read, and must agree.)
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { readInChunks, type ChunkOptions } from '../../../src/config/event-chunks.js';
import { composeEvents, readYamlEvents } from '../../../src/config/event-yaml.js';
import { LightLocator } from '../../../src/config/light-locate.js';
import type { PathSeg } from '../../../src/config/locate.js';
import { MAX_NESTING } from '../../../src/config/yaml-core.js';
import { parseWithYamlPackage } from '../../../src/config/parse-yaml.js';
// @ts-expect-error: a plain JS script without type declarations
import { generateLargeConfig, STYLES } from '../../../scripts/gen-large-config.js';
import { HOSTILE_YAML } from '../../support/hostile-yaml.js';

const EXAMPLES = join(import.meta.dirname, '..', '..', '..', 'examples');

function pathsOf(value: unknown, prefix: PathSeg[] = []): PathSeg[][] {
  const out: PathSeg[][] = [prefix];
  if (Array.isArray(value)) value.forEach((v, i) => out.push(...pathsOf(v, [...prefix, i])));
  else if (value !== null && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) out.push(...pathsOf(v, [...prefix, k]));
  }
  return out;
}

/** Every file cut, into parts of one entry (event-chunks.ts), so that the cut is checked on every text. */
const EVERY_ENTRY: ChunkOptions = { over: 0, bytes: 1 };

/** 'same' when the event reader accepted the text and agrees with the yaml package; 'handed over' when it declined. */
function compare(text: string, chunking?: ChunkOptions): 'same' | 'handed over' {
  const parsed = readYamlEvents(text, { chunking });
  // The shallow read (what the config loader uses) accepts and declines the same texts, with the same data.
  const shallow = readYamlEvents(text, { chunking, positions: 'shallow' });
  expect(shallow === undefined, 'the shallow read declines as the full one').toBe(parsed === undefined);
  if (!parsed || !shallow) return 'handed over';
  const light = parsed.root;
  const full = parseWithYamlPackage(text, 'f.yaml');
  if (!full.ok || full.errors.length > 0) {
    throw new Error(`the event reader accepted what the yaml package reports:\n${text}\n${full.errors.map((e) => e.message).join('\n')}`);
  }
  expect(light.value).toStrictEqual(full.data);
  expect(shallow.root.value).toStrictEqual(full.data);
  expect(shallow.shared).toBe(parsed.shared);
  const fast = new LightLocator('f.yaml', text, light);
  const partial = new LightLocator('f.yaml', text, shallow.root, () => new LightLocator('f.yaml', text, readYamlEvents(text, { chunking })!.root));
  for (const path of pathsOf(full.data)) {
    expect(fast.at(path), `value ${path.join('.')}`).toEqual(full.locator.at(path));
    expect(partial.at(path), `value ${path.join('.')} (shallow)`).toEqual(full.locator.at(path));
    if (typeof path[path.length - 1] === 'string') {
      expect(fast.at(path, 'key'), `key ${path.join('.')}`).toEqual(full.locator.at(path, 'key'));
      expect(partial.at(path, 'key'), `key ${path.join('.')} (shallow)`).toEqual(full.locator.at(path, 'key'));
    }
  }
  return 'same';
}

describe('YAML through js-yaml events', () => {
  it.each(['quickstart.yaml', 'full.yaml'])('reads %s itself', (name) => {
    expect(compare(readFileSync(join(EXAMPLES, name), 'utf8'))).toBe('same');
  });

  it('reads a generated 1,000-service file itself (the `dbform validate` speed target depends on it)', () => {
    expect(compare(generateLargeConfig(1000))).toBe('same');
  });

  it.each(STYLES as string[])('reads the 1,000-service file written in the %s style itself, at no other reader\'s cost', (style) => {
    expect(compare(generateLargeConfig(1000, 20, style))).toBe('same');
  });

  it.each(Object.keys(HOSTILE_YAML))('agrees with the yaml package on the hostile file %s, or hands it over', (name) => {
    compare(HOSTILE_YAML[name]!);
  });

  it.each([
    ['an alias inside its own anchor', 'a: &a [*a]\n'],
    ['an alias to an open ancestor', 'a: &a\n  b:\n    c: *a\n'],
    ['an alias bomb', `a: &a [x, x, x, x, x, x, x, x, x, x]\n${'bcdefg'.split('').map((c, i) => `${c}: &${c} [${Array(10).fill(`*${'abcdefg'[i]}`).join(', ')}]`).join('\n')}\n`],
  ])('hands %s to the yaml package, which words it', (_what, text) => {
    expect(readYamlEvents(text)).toBe(undefined);
  });

  it('reads it itself with document markers and tabs in comments too', () => {
    const text = (generateLargeConfig(1000) as string).replace(/\n/g, ' #\tnote\n');
    expect(compare(`---\n${text}...\n`)).toBe('same');
  });

  it.each([
    'a: 1\nb: [1, "two", {c: ~}]\n',
    '# c\na:\n  b: x # comment\n  c: "q#x"\n',
    'a:\n- 1\n- x: 1\n  y: 2\n-   z: 3\nb: {}\n',
    "a: 'it''s'\nb: \"t\\tab \\u00e9 \\x41\"\nc: -1\nd: 0x1F\ne: 0o17\nf: .5\ng: 1e3\nh: .nan\ni: -.inf\nj: Null\nk: TRUE\n",
    'a: x:y\nb: a#b\nc: 2026-01-01T00:00:00Z\nd: "1"\ne:\nf: ""\n',
    'a: 1\r\nb:\r\n  c: 2\r\n',
    '"quoted key": 1\n\'single\': 2\n',
    'a: [ ]\nb: { }\nc: [[1, 2], [3]]\n',
    'x: café\ny: 😀\n',
    'x-d: &d\n  a: 1\n  b: [1, 2]\ns:\n  <<: *d\n  b: 3\nt: *d\nu:\n  - *d\n  - &e {c: 1}\n  - *e\n',
    'a: &x 1\nb: *x\nc: &y\n  - p\n  - q\nd: *y # comment\n',
    // The latest anchor of a name in document order wins, even when it is inside the earlier one.
    'services: &a0\n a: &a0 x\n cidr:\n - x\na:\n- *a0\n',
    'a: &a\n  k: 1\nb:\n  k: 2\n  <<: *a\n  m: {}\n',
    // One document marked by `---` and `...` (yamllint's default asks for `---`).
    '---\na: 1\n',
    '# head\n--- # c\na: 1\n...  # end\n# tail\n',
    '---\r\na:\r\n  b: 1\r\n...\r\n',
    // Tabs inside comments, wherever a comment may stand.
    '# a\tcomment\na: 1 #\tx\nb: # c\td\n  c: [1, 2] # \t\n  d: "q" #\t\n    # \tindented\n',
  ])('agrees with the yaml package on %j', (text) => {
    expect(compare(text)).toBe('same');
  });

  // Valid YAML the hand-written reader handed over for being outside its subset: read here.
  it.each([
    ['a merge of a mapping written in place', 'a: {x: 1}\nb:\n  <<: {y: 2}\n'],
    ['a merge of a list of anchors', 'a: &a {x: 1}\nb: &b {y: 1}\nc:\n  <<: [*a, *b]\n'],
    ['an anchor on nothing', 'a: &x\nb: 1\n'],
    ['aliases inside an anchored value', 'a: &a [1]\nb: &b\n  c: *a\n'],
    ['aliases in flow collections', 'a: &a 1\nb: [*a]\n'],
    ['block scalars', 'a: |\n  text\n'],
    ['multi-line plain scalars', 'a: one\n  two\n'],
    ['multi-line quoted scalars', 'a: "one\n  two"\n'],
    ['a tab before a comment', 'a: 1\t# x\n'],
    ['a tab as separation', 'a:\t1\n'],
    ['a tab before a comment line', '\t# c\na: 1\n'],
    ['a tab inside a plain scalar', 'a: x\ty\n'],
    ['a tab inside a quoted scalar', 'a: "x\ty"\n'],
    ['a trailing tab', 'a: 1\t\n'],
    ['a root sequence', '- a\n- b\n'],
    ['a trailing comma in flow', 'a: [1, 2,]\n'],
    ['a flow collection over two lines', 'a: [1,\n  2]\n'],
    ['complex keys', '? a\n: 1\n'],
  ])('reads %s itself, as the yaml package does', (_what, text) => {
    expect(compare(text)).toBe('same');
  });

  it.each([
    ['a merge of a scalar', 'a: &a 1\nc:\n  <<: *a\n'],
    ['a merge of a scalar written in place', 'c:\n  <<: 5\n  d: 1\n'],
    ['a merge of a list holding a scalar', 'a: &a {x: 1}\nc:\n  <<: [*a, 5]\n'],
    ['two merges in one mapping', 'a: &a {x: 1}\nb: &b {y: 1}\nc:\n  <<: *a\n  <<: *b\n'],
    ['an alias before its anchor', 'a: *x\nb: &x 1\n'],
    ['an alias to no anchor', 'a: *nope\n'],
    ['an anchor on a key', '&k a: 1\n'],
    ['tags', 'a: !!str 1\n'],
    ['tabs', 'a:\n\tb: 1\n'],
    ['duplicate keys', 'a: 1\na: 2\n'],
    ['two documents', '---\na: 1\n---\nb: 1\n'],
    ['a document after `...`', 'a: 1\n...\nb: 1\n'],
    ['two `...` markers', 'a: 1\n...\n...\n'],
    ['a `---` after the content', 'a: 1\n---\n'],
    ['content on the `---` line', '--- a: 1\n'],
    ['directives', '%YAML 1.2\n---\na: 1\n'],
    ['an empty document', '# nothing\n'],
    ['a nested mapping on one line', 'a: b: c\n'],
    ['bad indentation', 'a:\n    b: 1\n  c: 2\n'],
    ['an unknown escape', 'a: "\\q"\n'],
    ['empty sequence items', 'a:\n  -\n  - 1\n'],
    ['__proto__ keys', '__proto__: 1\n'],
    ['a key that is not a string', '1: a\n'],
  ])('hands %s to the yaml package', (_what, text) => {
    expect(compare(text)).toBe('handed over');
  });

  // The root mapping is level 1; MAX_NESTING levels are read, one more is handed over (whose
  // diagnostic the bad-config fixtures yaml-too-deep-* check).
  const nestedBlock = (levels: number) => `a:\n${Array.from({ length: levels - 2 }, (_, i) => `${' '.repeat(i + 1)}k:\n`).join('')}${' '.repeat(levels - 1)}k: 1\n`;
  const nestedFlow = (levels: number) => `a: ${'['.repeat(levels - 1)}${']'.repeat(levels - 1)}\n`;

  it.each([
    ['block', nestedBlock],
    ['flow', nestedFlow],
  ])('reads %s collections nested MAX_NESTING levels deep, and hands deeper ones over', (_kind, nested) => {
    expect(compare(nested(MAX_NESTING))).toBe('same');
    expect(compare(nested(MAX_NESTING + 1))).toBe('handed over');
    expect(readYamlEvents(nested(20_000))).toBe(undefined);
  });

  const KEYS = ['a', 'b', 'name', 'x-y', 'a.b', '1', 'true', 'null', '"q"', "'s'", 'a b', '<<', 'k:'];
  const PROPS = ['&a0 ', '&a1 ', '&a0', '*a0', '*a1', '*a1 ', '*a0 # c'];
  const SCALARS = [
    '', '~', 'null', 'Null', 'nUll', 'true', 'True', 'tRue', 'FALSE', '0', '-0', '+1', '007', '0o17', '0O17', '0x1F', '0X1F',
    '1.5', '1.', '.5', '1e3', '1E-3', '+.inf', '-.Inf', '.nan', '.NaN', '1_000', '2026-01-01', 'a b', 'a#b', 'a #b', 'a:b', 'a: b',
    'a:', '-a', '- a', '?a', ':a', '"q"', "'s'", '"a\\"b"', "'it''s'", '"\\u00e9"', '"\\x41"', '"\\t"', '"\\e"', '"\\', '[1, 2]',
    '[]', '{}', '{a: 1}', '{a: [1, {b: c}]}', '[a, b,]', '[a b]', '{a: 1, a: 2}', '{a:1}', '[a: 1]', '&x v', '*x', '!t v', '|', '>',
    '@x', '`x', '%x', 'é', '😀', 'x ', '#c', ' # c', '"unterminated', "'", ',a', ']', '{', 'a\tb', '\u0085', '\uFEFFx',
    ...PROPS, '&a0 x', '&a1 [1, 2]', '&a0 {k: v}', '&a1 "q"', '& x', '*', '*a0 x', '&a0 *a1',
  ];
  const line = fc.tuple(fc.integer({ min: 0, max: 6 }), fc.constantFrom(...KEYS), fc.constantFrom(...SCALARS), fc.integer({ min: 0, max: 11 })).map(
    ([indent, key, scalar, kind]) => {
      const pad = ' '.repeat(indent);
      return [
        `${pad}${key}: ${scalar}`, `${pad}${key}:`, `${pad}- ${scalar}`, `${pad}- ${key}: ${scalar}`, `${pad}-`, `${pad}# note`, '',
        '---', '...', `${pad}#\tnote`, `${pad}${key}: ${scalar} #\tnote`, `${pad}${key}:\t${scalar}`,
      ][kind]!;
    },
  );

  it('agrees with the yaml package on random lines (seeded)', () => {
    fc.assert(
      fc.property(fc.array(line, { minLength: 1, maxLength: 12 }), fc.constantFrom('\n', '\r\n'), (lines, eol) => {
        compare(lines.join(eol) + eol);
      }),
      { seed: 20261122, numRuns: 2000 },
    );
  });

  // Well-formed trees rendered in block style, with tricky scalars and keys at the leaves.
  type Tree = string | { map: Array<[string, Tree]> } | { seq: Tree[] };
  const scalar = fc.oneof(
    { weight: 3, arbitrary: fc.constantFrom('x', 'db', '10.0.0.0/16', '2000', 'us-east-1', 'PROD') },
    { weight: 2, arbitrary: fc.constantFrom(...SCALARS) },
    { weight: 1, arbitrary: fc.constantFrom('*a0', '*a1') },
  );
  const { tree } = fc.letrec<{ tree: Tree; map: Tree; seq: Tree }>((tie) => ({
    tree: fc.oneof({ depthSize: 'small', withCrossShrink: true }, scalar, tie('map'), tie('seq')),
    map: fc.array(fc.tuple(fc.oneof({ weight: 4, arbitrary: fc.constantFrom('a', 'b', 'name', 'cidr') }, { weight: 1, arbitrary: fc.constantFrom(...KEYS, '<<') }), tie('tree')), { minLength: 1, maxLength: 4 }).map((map) => ({ map })),
    seq: fc.array(tie('tree'), { minLength: 1, maxLength: 3 }).map((seq) => ({ seq })),
  }));

  // Every third block collection gets an anchor; scalars may be aliases (`*a0`) or merges.
  const anchorFor = (n: number) => (n % 3 === 0 ? ` &a${n % 2}` : '');

  function render(node: Tree, indent: number, step: number, out: string[], lead = ''): void {
    const pad = ' '.repeat(indent);
    if (typeof node === 'string') {
      out.push(`${pad}${lead}${node}`);
      return;
    }
    if ('map' in node) {
      node.map.forEach(([key, value], i) => {
        const first = i === 0 ? `${pad}${lead}` : ' '.repeat(indent + lead.length);
        const inner = indent + lead.length;
        if (typeof value === 'string') out.push(`${first}${key === '<<' ? '<<' : key}: ${value}`);
        else {
          out.push(`${first}${key}:${anchorFor(out.length)}`);
          render(value, 'seq' in value && step === 0 ? inner : inner + Math.max(step, 1), step, out);
        }
      });
      return;
    }
    for (const item of node.seq) {
      if (typeof item !== 'string' && 'map' in item) render(item, indent, step, out, '- ');
      else if (typeof item === 'string') out.push(`${pad}- ${item}`);
      else {
        out.push(`${pad}-`);
        render(item, indent + 2, step, out);
      }
    }
  }

  it('agrees with the yaml package on random documents (seeded)', () => {
    let accepted = 0;
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.constantFrom('a', 'services', 'x-y'), tree), { minLength: 1, maxLength: 3 }),
        fc.constantFrom(0, 2, 4),
        fc.constantFrom('', '---\n', '# c\n--- #\tc\n'),
        fc.constantFrom('', '...\n', '... # c\n#\tc\n'),
        (entries, step, head, tail) => {
          const out: string[] = [];
          render({ map: entries }, 0, step, out);
          if (compare(`${head}${out.join('\n')}\n${tail}`) === 'same') accepted += 1;
        },
      ),
      { seed: 20261122, numRuns: 3000 },
    );
    // The generator must exercise the fast path, not only the hand-over.
    expect(accepted).toBeGreaterThan(300);
  });

  it('agrees with the yaml package on line-level edits of the examples (seeded)', () => {
    const lines = readFileSync(join(EXAMPLES, 'quickstart.yaml'), 'utf8').split('\n');
    const edit = fc.tuple(fc.nat(lines.length - 1), fc.integer({ min: 0, max: 4 }), fc.integer({ min: -3, max: 3 }));
    fc.assert(
      fc.property(fc.array(edit, { minLength: 1, maxLength: 4 }), (edits) => {
        const out = [...lines];
        for (const [at, kind, shift] of edits) {
          const i = Math.min(at, out.length - 1);
          if (kind === 0) out.splice(i, 1);
          else if (kind === 1) out.splice(i, 0, out[i]!);
          else if (kind === 2) out[i] = ' '.repeat(Math.max(0, out[i]!.search(/\S|$/) + shift)) + out[i]!.trimStart();
          else if (kind === 3) out[i] = out[i]!.replace(/: .*/, ': [x, {y: 1}]');
          else out[i] = out[i]!.replace(/(\S+)$/, '"$1"');
        }
        compare(out.join('\n'));
      }),
      { seed: 7, numRuns: 1500 },
    );
  });

  it('a shallow read locates every resource entry without a second read, and a scalar below them with one (kept)', () => {
    const text = generateLargeConfig(50) as string;
    const shallow = readYamlEvents(text, { positions: 'shallow' })!;
    let wholeReads = 0;
    const locator = new LightLocator('f.yaml', text, shallow.root, () => {
      wholeReads += 1;
      return new LightLocator('f.yaml', text, readYamlEvents(text)!.root);
    });
    const full = parseWithYamlPackage(text, 'f.yaml');
    if (!full.ok) throw new Error('the generated config must read');
    const data = full.data as { services: Record<string, { replica_sets: Record<string, unknown> }>; vpcs: Record<string, { peerings: unknown[] }> };
    // What buildDesiredState asks for: each resource's key (a peering: its list item).
    const entries: Array<[PathSeg[], 'key' | 'value']> = [];
    for (const [name, svc] of Object.entries(data.services)) {
      entries.push([['services', name], 'key']);
      for (const rs of Object.keys(svc.replica_sets)) entries.push([['services', name, 'replica_sets', rs], 'key']);
    }
    for (const [name, vpc] of Object.entries(data.vpcs)) {
      entries.push([['vpcs', name], 'key']);
      vpc.peerings.forEach((_, i) => entries.push([['vpcs', name, 'peerings', i], 'value']));
    }
    expect(entries.length).toBeGreaterThan(150);
    for (const [path, target] of entries) expect(locator.at(path, target)).toEqual(full.locator.at(path, target));
    expect(wholeReads).toBe(0);
    expect(locator.at(['services', 'svc-3', 'cpu_millis'])).toEqual(full.locator.at(['services', 'svc-3', 'cpu_millis']));
    expect(locator.at(['services', 'svc-4', 'replica_sets', 'reporting', 'nodes'])).toEqual(full.locator.at(['services', 'svc-4', 'replica_sets', 'reporting', 'nodes']));
    expect(wholeReads).toBe(1);
  });

  describe('large files read a few hundred entries at a time', () => {
    it.each(STYLES as string[])('read a 300-service file in the %s style in parts, as the yaml package reads it whole', (style) => {
      const text = generateLargeConfig(300, 20, style) as string;
      expect(compare(text, EVERY_ENTRY)).toBe('same');
      expect(compare(text, { over: 0, bytes: 4096 })).toBe('same');
    });

    it('cuts the block-style file into its entries (and the examples too), and not a file without a cuttable mapping', () => {
      const cut = (text: string) => readInChunks(text, EVERY_ENTRY, composeEvents);
      const large = cut(generateLargeConfig(200) as string);
      expect(large).not.toBe('not chunked');
      expect(large).not.toBe(undefined);
      expect(cut(readFileSync(join(EXAMPLES, 'full.yaml'), 'utf8'))).not.toBe('not chunked');
      expect(cut('a: [1, 2]\nb: {c: 1}\n')).toBe('not chunked');
      // An alias to an anchor of another part: the parts decline, and the whole file is read.
      const across = 'services:\n  a: &x {cpu: 1}\n  b: *x\n';
      expect(cut(across)).toBe(undefined);
      expect(compare(across, EVERY_ENTRY)).toBe('same');
    });

    it.each([
      ['a key twice in two parts', 'services:\n  a: 1\n  a: 2\n'],
      ['a merge key among the entries', 'x: &x {k: 1}\nservices:\n  <<: *x\n  a: 1\n'],
      ['a tab in the indentation', 'services:\n  a: 1\n\t b: 2\n'],
      ['a line less indented', 'services:\n    a: 1\n  b: 2\n'],
      ['a sequence', 'services:\n  - a\n  - b\n'],
      ['block scalars', 'services:\n  a: |\n    text\n  b: >-\n    more\n'],
      ['a multi-line quoted scalar', 'services:\n  a: "one\n    two"\n  b: 1\n'],
      ['a flow mapping over lines', 'services:\n  a: {x: 1,\n    y: 2}\n  b: 1\n'],
      ['comments at column 0 inside', 'services:\n  a: 1\n# note\n  b: 2\n'],
      ['a document end after the entries', 'services:\n  a: 1\n  b: 2\n...\n'],
      ['a flow mapping at the root around the key', '{\nservices:\n  a: 1\n  b: 2\n}\n'],
      ['a flow sequence at the root around the key', '[\nservices:\n  a: 1\n  b: 2\n]\n'],
      ['the key inside a flow mapping, and again at the root', 'x: {\nservices:\n  a: 1\n  b: 2\n}\nservices:\n'],
    ])('reads %s in parts as the yaml package does (or hands it over as it would whole)', (_what, text) => {
      expect(compare(text, EVERY_ENTRY)).toBe(compare(text));
    });

    it('agrees with the yaml package on random documents cut into parts (seeded)', () => {
      let cut = 0;
      fc.assert(
        fc.property(fc.uniqueArray(fc.tuple(fc.constantFrom('a', 'b', 'name', 'db-1', '"q"', 'x.y', 'c', 'd'), tree), { minLength: 2, maxLength: 6, selector: ([k]) => k }), fc.constantFrom(0, 2, 4), fc.boolean(), (entries, step, tail) => {
          // A root key whose block mapping can be cut, between other root keys.
          const out = ['version: 1', 'services:'];
          render({ map: entries }, 2, step, out);
          if (tail) out.push('vpcs:', '  v: {cidr: 10.0.0.0/16}');
          const text = `${out.join('\n')}\n`;
          expect(compare(text, EVERY_ENTRY)).toBe(compare(text));
          const parts = readInChunks(text, EVERY_ENTRY, composeEvents);
          if (parts !== undefined && parts !== 'not chunked') cut += 1;
        }),
        { seed: 20261124, numRuns: 2000 },
      );
      // The generator must exercise the parts, not only the whole read.
      expect(cut).toBeGreaterThan(80);
    });

    it('agrees with the yaml package on random lines cut into parts (seeded)', () => {
      fc.assert(
        fc.property(fc.array(line, { minLength: 1, maxLength: 12 }), (lines) => {
          const text = `${lines.join('\n')}\n`;
          expect(compare(text, EVERY_ENTRY)).toBe(compare(text));
        }),
        { seed: 20261124, numRuns: 2000 },
      );
    });
  });
});
