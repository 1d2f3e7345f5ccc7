// A fast reader for the subset of YAML that config files are written in: block mappings and
// sequences, one-line scalars (plain, single- or double-quoted) and flow collections, comments,
// and anchors, aliases and `<<` merges of whole values, one leading `---` and one trailing `...`,
// and tabs inside comments. The `yaml` package needs about a second, cold, for a 1,000-service
// file; this reads it in a few tens of milliseconds. Anything outside the subset (tags, block
// scalars, multi-line values, directives, other tabs, duplicate keys, aliases inside anchored
// values, any syntax error) returns undefined and the caller falls back to the
// `yaml` package, which also words the errors. A differential property test checks that both
// give the same data and positions.
import { BAIL, bail, MAX_NESTING, readInline, readKey, type LightNode, type LightPairs } from './fast-yaml-inline.js';

export type { LightNode } from './fast-yaml-inline.js';

interface Line {
  start: number;
  indent: number;
  text: string;
  /** Column of the `#` that starts the line's comment, once the parser has read up to it. */
  comment?: number;
}

/** Tabs are checked apart (only inside comments); these never are in the subset. */
const FORBIDDEN = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F\uFEFF\u2028\u2029]|\r(?!\n)/;
/** A document marker alone on its line, or followed by a comment. */
const DOCUMENT_START = /^---(?: +#.*)?$/;
const DOCUMENT_END = /^\.\.\.(?: +#.*)?$/;
const ANCHOR = /[&*]([A-Za-z0-9_-]+)(?=$| )/y;
/** The `yaml` package refuses more uses of one anchor than this (its maxAliasCount): let it say so. */
const MAX_ALIAS_USES = 10_000;

class FastParser {
  private readonly lines: Line[] = [];
  private i = 0;
  /** Anchor name -> node, and the order its `&` was read in (document order: pre-order). */
  private readonly anchors = new Map<string, { node: LightNode; order: number }>();
  private anchorsRead = 0;
  /** Block collections open around the current line (the yaml package reports a file too deep). */
  private depth = 0;
  private readonly uses = new Map<LightNode, number>();
  /** Aliases read so far: an anchored value that contains one could multiply (alias bombs). */
  aliasCount = 0;

  constructor(text: string) {
    let start = 0;
    while (start <= text.length) {
      let end = text.indexOf('\n', start);
      if (end < 0) end = text.length;
      const body = text.charCodeAt(end - 1) === 13 ? text.slice(start, end - 1) : text.slice(start, end);
      let indent = 0;
      while (body.charCodeAt(indent) === 32) indent += 1;
      this.lines.push({ start, indent, text: body });
      start = end + 1;
    }
  }

  parseDocument(): LightNode {
    this.dropDocumentMarkers();
    this.skipBlank();
    const first = this.lines[this.i];
    if (!first || first.indent !== 0 || this.isSeqItem(first, 0)) bail();
    const root = this.parseMap(0);
    this.skipBlank();
    if (this.i < this.lines.length) bail();
    return root;
  }

  /**
   * A `---` before the content and a `...` after it mark one document: read them as blank lines.
   * Any other marker (a second document) is left for skipBlank to refuse.
   */
  private dropDocumentMarkers(): void {
    const isContent = (line: Line) => line.indent < line.text.length && line.text[line.indent] !== '#';
    const first = this.lines.findIndex(isContent);
    if (first < 0) return;
    const blank = (k: number) => {
      const line = this.lines[k]!;
      this.lines[k] = { start: line.start, indent: 0, text: '' };
    };
    if (DOCUMENT_START.test(this.lines[first]!.text)) blank(first);
    let last = this.lines.length - 1;
    while (last > first && !isContent(this.lines[last]!)) last -= 1;
    if (last > first && DOCUMENT_END.test(this.lines[last]!.text)) blank(last);
  }

  /** True when every tab of the file is inside a comment the parser read as one. */
  tabsAreInComments(): boolean {
    for (const line of this.lines) {
      const tab = line.text.indexOf('\t');
      if (tab >= 0 && (line.comment === undefined || tab < line.comment)) return false;
    }
    return true;
  }

  /** Skips blank and comment-only lines; refuses document markers and directives. */
  private skipBlank(): void {
    while (this.i < this.lines.length) {
      const line = this.lines[this.i]!;
      const first = line.text.charCodeAt(0);
      // `---`, `...` and `%` directives at column 0 are document structure the subset leaves out.
      if ((first === 45 && line.text.startsWith('---')) || (first === 46 && line.text.startsWith('...')) || first === 37) bail();
      const c = line.text.charCodeAt(line.indent);
      if (c === c && c !== 35) return; // neither blank (NaN past the end) nor a comment (#)
      if (c === 35) line.comment = line.indent;
      this.i += 1;
    }
  }

  private isSeqItem(line: Line, col: number): boolean {
    return line.text[col] === '-' && (line.text.length === col + 1 || line.text[col + 1] === ' ');
  }

  private parseNode(col: number): LightNode {
    const line = this.lines[this.i]!;
    return this.isSeqItem(line, col) ? this.parseSeq(col) : this.parseMap(col);
  }

  private parseMap(col: number): LightNode {
    if (++this.depth > MAX_NESTING) bail();
    const offset = this.lines[this.i]!.start + col;
    const pairs: LightPairs = new Map();
    const merges: LightNode[] = [];
    const value: Record<string, unknown> = {};
    for (;;) {
      const line = this.lines[this.i]!;
      if (line.text.startsWith('<<: ', col)) this.parseMerge(line, col, merges, value);
      else {
        const entry = readKey(line.text, col) ?? bail();
        if (pairs.has(entry.key)) bail();
        const node = this.parseValueAfter(line, entry.valueCol, col, true);
        pairs.set(entry.key, { keyOffset: line.start + col, value: node });
        value[entry.key] = node.value;
      }
      this.skipBlank();
      const next = this.lines[this.i];
      if (!next || next.indent < col) break;
      if (next.indent > col || this.isSeqItem(next, col)) bail();
    }
    this.depth -= 1;
    return { kind: 'map', offset, pairs, merges, value };
  }

  /** `<<: *anchor`: the anchor's keys that the mapping does not have yet, as the `yaml` package merges. */
  private parseMerge(line: Line, col: number, merges: LightNode[], value: Record<string, unknown>): void {
    if (merges.length > 0) bail();
    const source = this.parseValueAfter(line, col + 3, col, true);
    if (source.kind !== 'alias' || source.target.kind !== 'map') return bail();
    merges.push(source.target);
    for (const [key, item] of Object.entries(source.target.value)) if (!Object.hasOwn(value, key)) value[key] = item;
  }

  private parseSeq(col: number): LightNode {
    if (++this.depth > MAX_NESTING) bail();
    const offset = this.lines[this.i]!.start + col;
    const items: LightNode[] = [];
    for (;;) {
      const line = this.lines[this.i]!;
      let p = col + 1;
      while (line.text[p] === ' ') p += 1;
      if (p >= line.text.length || line.text[p] === '#' || this.isSeqItem(line, p)) bail();
      const item = readKey(line.text, p) ? this.parseMap(p) : this.parseValueAfter(line, p, col, false);
      items.push(item);
      this.skipBlank();
      const next = this.lines[this.i];
      if (!next || next.indent < col || (next.indent === col && !this.isSeqItem(next, col))) break;
      if (next.indent > col) bail();
    }
    this.depth -= 1;
    return { kind: 'seq', offset, items, value: items.map((n) => n.value) };
  }

  /** The value that starts at `from` on `line` (after a key's colon, or after a dash). */
  private parseValueAfter(line: Line, from: number, col: number, inMap: boolean): LightNode {
    let p = from;
    while (line.text[p] === ' ') p += 1;
    if (line.text[p] === '&') {
      const name = this.readName(line, p);
      const [aliasesBefore, order] = [this.aliasCount, this.anchorsRead++];
      const node = this.parseValueAfter(line, p + name.length + 1, col, inMap);
      // An anchor on nothing, or on a value holding aliases, is left to the yaml package.
      if (node.offset < 0 || node.kind === 'alias' || this.aliasCount !== aliasesBefore) bail();
      // An anchor of the same name inside this value was written later, so it stays the current one.
      if ((this.anchors.get(name)?.order ?? -1) < order) this.anchors.set(name, { node, order });
      return node;
    }
    if (line.text[p] === '*') return this.finishLine(line, p + this.readName(line, p).length + 1, col, this.readAlias(line, p));
    if (p >= line.text.length || line.text[p] === '#') {
      if (p < line.text.length && p === from) bail();
      if (p < line.text.length) line.comment = p;
      this.i += 1;
      this.skipBlank();
      const next = this.lines[this.i];
      if (next && next.indent > col) return this.parseNode(next.indent);
      if (next && inMap && next.indent === col && this.isSeqItem(next, col)) return this.parseSeq(col);
      // `key:` with nothing: null, positioned at the key by the locator.
      return { kind: 'scalar', offset: -1, value: null };
    }
    const { node, end } = readInline(line.text, p, line.start, this.depth);
    return this.finishLine(line, end, col, node);
  }

  private readName(line: Line, p: number): string {
    ANCHOR.lastIndex = p;
    return ANCHOR.exec(line.text)?.[1] ?? bail();
  }

  private readAlias(line: Line, p: number): LightNode {
    const target = this.anchors.get(this.readName(line, p))?.node ?? bail();
    const uses = (this.uses.get(target) ?? 0) + 1;
    if (uses > MAX_ALIAS_USES) bail();
    this.uses.set(target, uses);
    this.aliasCount += 1;
    return { kind: 'alias', offset: line.start + p, target, value: target.value };
  }

  /** After a one-line value: only a comment may follow, and no deeper line (a multi-line scalar). */
  private finishLine(line: Line, end: number, col: number, node: LightNode): LightNode {
    const rest = line.text.slice(end);
    if (rest.trim() !== '') {
      if (!/^ +#/.test(rest)) bail();
      line.comment = end + rest.indexOf('#');
    }
    this.i += 1;
    this.skipBlank();
    const next = this.lines[this.i];
    if (next && next.indent > col) bail();
    return node;
  }
}

/**
 * The document as light nodes and data, or undefined when it is outside the fast subset.
 * `shared`: the data reaches some containers twice (through aliases).
 */
export function parseFastYaml(text: string): { root: LightNode; shared: boolean } | undefined {
  if (FORBIDDEN.test(text)) return undefined;
  try {
    const parser = new FastParser(text);
    const root = parser.parseDocument();
    if (text.includes('\t') && !parser.tabsAreInComments()) return undefined;
    return { root, shared: parser.aliasCount > 0 };
  } catch (err) {
    if (err === BAIL) return undefined;
    throw err;
  }
}
