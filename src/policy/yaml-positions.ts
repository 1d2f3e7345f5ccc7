// Positions in a policy file, from the yaml package's Document API: the node at a path, its line
// and column, and where a character of an expression stands (scalar-offsets.ts). The package is
// loaded on first use (about 40 ms of CPU): a run whose policy files are sound, and that shows no
// verdict, never needs a position (load.ts).
import { createRequire } from 'node:module';
import type { Document, LineCounter, Node } from 'yaml';
import type { SourceRef } from '../model/index.js';
import { mapScalarOffsets, type ScalarStyle } from './scalar-offsets.js';
import type { PathSeg } from './structure.js';

type YamlModule = typeof import('yaml');
let lib: YamlModule | undefined;
const yaml = (): YamlModule => (lib ??= createRequire(import.meta.url)('yaml') as YamlModule);

/** Where a character of an expression is: exact through the scalar's mapping, else the scalar's first character. */
export interface ExpressionPositions {
  start: SourceRef;
  at(exprOffset: number): SourceRef;
}

/** One file parsed with positions. */
export class FileReader {
  readonly lines: LineCounter;
  readonly doc: Document;
  constructor(
    readonly path: string,
    readonly text: string,
  ) {
    const { LineCounter, parseDocument } = yaml();
    this.lines = new LineCounter();
    this.doc = parseDocument(text, { lineCounter: this.lines, prettyErrors: false, uniqueKeys: true, version: '1.2' });
  }

  /** The YAML syntax errors, each at its offset. */
  syntaxErrors(): { at: SourceRef; message: string }[] {
    return this.doc.errors.map((e) => ({ at: this.at(e.pos[0]), message: e.message.split('\n')[0]!.replace(/ at line \d+, column \d+:?$/, '') }));
  }

  data(): unknown {
    return this.doc.toJS({ maxAliasCount: 100 });
  }

  at(offset: number): SourceRef {
    const { line, col } = this.lines.linePos(offset);
    return { file: this.path, line, col };
  }

  /** The node at `path` (or the deepest one reached), following aliases; a key when asked. */
  node(path: readonly PathSeg[], target: 'key' | 'value'): Node | undefined {
    const { isAlias, isMap, isPair, isScalar, isSeq } = yaml();
    let node: unknown = this.doc.contents;
    for (let i = 0; i < path.length; i++) {
      if (isAlias(node)) node = node.resolve(this.doc);
      const seg = path[i];
      let next: unknown;
      if (isMap(node)) {
        const pair = node.items.find((p) => isScalar(p.key) && String(p.key.value) === String(seg));
        next = pair && i === path.length - 1 && target === 'key' ? pair.key : pair?.value;
      } else if (isSeq(node) && typeof seg === 'number') next = node.items[seg];
      if (next === undefined || next === null) return node as Node | undefined;
      node = next;
    }
    return isPair(node) ? undefined : (node as Node | undefined);
  }

  position(path: readonly PathSeg[], target: 'key' | 'value' = 'value'): SourceRef {
    return this.at(this.node(path, target)?.range?.[0] ?? 0);
  }

  /** The positions of the characters of the expression at `path`. */
  expression(path: readonly PathSeg[], expression: string): ExpressionPositions {
    const node = this.node(path, 'value');
    const range = node?.range;
    const start = this.at(range?.[0] ?? 0);
    if (!range || !yaml().isScalar(node)) return { start, at: () => start };
    const offsets = mapScalarOffsets(this.text, range[0], range[1], (node.type ?? 'PLAIN') as ScalarStyle, expression);
    if (!offsets) return { start, at: () => start };
    return { start: this.at(offsets[0]!), at: (o) => (o >= 0 && o < offsets.length ? this.at(offsets[o]!) : start) };
  }
}
