// A fast reader for the plain subset of YAML that config files are written in: block mappings
// and sequences, one-line scalars (plain, single- or double-quoted), one-line flow collections,
// comments. The `yaml` package needs about a second, cold, for a 1,000-service file; this reads
// it in a few tens of milliseconds. Anything outside the subset (anchors, aliases, tags, block
// scalars, multi-line values, directives, tabs, duplicate keys, any syntax error) returns
// undefined and the caller falls back to the `yaml` package, which also words the errors.
// A differential property test checks that both give the same data and positions.

export type LightNode =
  | { kind: 'scalar'; offset: number; value: unknown }
  | { kind: 'map'; offset: number; pairs: Map<string, { keyOffset: number; value: LightNode }>; value: Record<string, unknown> }
  | { kind: 'seq'; offset: number; items: LightNode[]; value: unknown[] };

interface Line {
  start: number;
  indent: number;
  text: string;
}

const BAIL = Symbol('outside the fast subset');
const bail = (): never => {
  throw BAIL;
};

const KEY = /[A-Za-z0-9_$][A-Za-z0-9_.$/-]*/y;
const FORBIDDEN = /[\t\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F\uFEFF\u2028\u2029]|\r(?!\n)/;

/** YAML 1.2 core schema, in the order the `yaml` package tries it. */
export function resolvePlain(s: string): unknown {
  // Most values are words: a letter other than n, t, f (null, true, false) starts a string.
  const c = s.charCodeAt(0) | 32;
  if (c >= 97 && c <= 122 && c !== 110 && c !== 116 && c !== 102) return s;
  if (/^(?:~|[Nn]ull|NULL)?$/.test(s)) return null;
  if (/^(?:[Tt]rue|TRUE)$/.test(s)) return true;
  if (/^(?:[Ff]alse|FALSE)$/.test(s)) return false;
  if (/^0o[0-7]+$/.test(s)) return parseInt(s.substring(2), 8);
  if (/^[-+]?[0-9]+$/.test(s)) return parseInt(s, 10);
  if (/^0x[0-9a-fA-F]+$/.test(s)) return parseInt(s.substring(2), 16);
  if (/^(?:[-+]?\.(?:inf|Inf|INF)|\.nan|\.NaN|\.NAN)$/.test(s)) {
    return s.slice(-3).toLowerCase() === 'nan' ? NaN : s[0] === '-' ? -Infinity : Infinity;
  }
  if (/^[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)[eE][-+]?[0-9]+$/.test(s) || /^[-+]?(?:\.[0-9]+|[0-9]+\.[0-9]*)$/.test(s)) return parseFloat(s);
  return s;
}

const ESCAPES: Record<string, string> = { '\\': '\\', '"': '"', '/': '/', n: '\n', t: '\t', r: '\r', '0': '\0', b: '\b', f: '\f', ' ': ' ' };

class FastParser {
  private readonly lines: Line[] = [];
  private i = 0;

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
    this.skipBlank();
    const first = this.lines[this.i];
    if (!first || first.indent !== 0 || this.isSeqItem(first, 0)) bail();
    const root = this.parseMap(0);
    this.skipBlank();
    if (this.i < this.lines.length) bail();
    return root;
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
      this.i += 1;
    }
  }

  private isSeqItem(line: Line, col: number): boolean {
    return line.text[col] === '-' && (line.text.length === col + 1 || line.text[col + 1] === ' ');
  }

  /** Key at `col` of the current line, and where its value text starts; undefined if no key there. */
  private readKey(line: Line, col: number): { key: string; valueCol: number } | undefined {
    const c = line.text[col];
    let key: string;
    let after: number;
    if (c === '"' || c === "'") {
      const quoted = this.readQuoted(line, col);
      if (typeof quoted.value !== 'string') return undefined;
      key = quoted.value;
      after = quoted.end;
    } else {
      KEY.lastIndex = col;
      const m = KEY.exec(line.text);
      if (!m || typeof resolvePlain(m[0]) !== 'string') return undefined;
      key = m[0];
      after = col + key.length;
    }
    if (line.text[after] !== ':' || (after + 1 < line.text.length && line.text[after + 1] !== ' ')) return undefined;
    // `__proto__` needs special care in objects, and YAML caps implicit keys at 1024 characters.
    if (key === '__proto__' || key.length > 1000) bail();
    return { key, valueCol: after + 1 };
  }

  private parseNode(col: number): LightNode {
    const line = this.lines[this.i]!;
    return this.isSeqItem(line, col) ? this.parseSeq(col) : this.parseMap(col);
  }

  private parseMap(col: number): LightNode {
    const offset = this.lines[this.i]!.start + col;
    const pairs = new Map<string, { keyOffset: number; value: LightNode }>();
    const value: Record<string, unknown> = {};
    for (;;) {
      const line = this.lines[this.i]!;
      const entry = this.readKey(line, col) ?? bail();
      if (pairs.has(entry.key)) bail();
      const node = this.parseValueAfter(line, entry.valueCol, col, true);
      pairs.set(entry.key, { keyOffset: line.start + col, value: node });
      value[entry.key] = node.value;
      this.skipBlank();
      const next = this.lines[this.i];
      if (!next || next.indent < col) break;
      if (next.indent > col || this.isSeqItem(next, col)) bail();
    }
    return { kind: 'map', offset, pairs, value };
  }

  private parseSeq(col: number): LightNode {
    const offset = this.lines[this.i]!.start + col;
    const items: LightNode[] = [];
    for (;;) {
      const line = this.lines[this.i]!;
      let p = col + 1;
      while (line.text[p] === ' ') p += 1;
      if (p >= line.text.length || line.text[p] === '#' || this.isSeqItem(line, p)) bail();
      const item = this.readKey(line, p) ? this.parseMap(p) : this.parseValueAfter(line, p, col, false);
      items.push(item);
      this.skipBlank();
      const next = this.lines[this.i];
      if (!next || next.indent < col || (next.indent === col && !this.isSeqItem(next, col))) break;
      if (next.indent > col) bail();
    }
    return { kind: 'seq', offset, items, value: items.map((n) => n.value) };
  }

  /** The value that starts at `from` on `line` (after a key's colon, or after a dash). */
  private parseValueAfter(line: Line, from: number, col: number, inMap: boolean): LightNode {
    let p = from;
    while (line.text[p] === ' ') p += 1;
    if (p >= line.text.length || line.text[p] === '#') {
      if (p < line.text.length && p === from) bail();
      this.i += 1;
      this.skipBlank();
      const next = this.lines[this.i];
      if (next && next.indent > col) return this.parseNode(next.indent);
      if (next && inMap && next.indent === col && this.isSeqItem(next, col)) return this.parseSeq(col);
      // `key:` with nothing: null, positioned at the key by the locator.
      return { kind: 'scalar', offset: -1, value: null };
    }
    const { node, end } = this.readInline(line, p);
    this.expectLineEnd(line, end);
    this.i += 1;
    this.skipBlank();
    // A deeper line after a one-line value continues a multi-line scalar, or is an error.
    const next = this.lines[this.i];
    if (next && next.indent > col) bail();
    return node;
  }

  private expectLineEnd(line: Line, end: number): void {
    const rest = line.text.slice(end);
    if (rest.trim() !== '' && !/^ +#/.test(rest)) bail();
  }

  private readInline(line: Line, p: number): { node: LightNode; end: number } {
    const c = line.text[p]!;
    if (c === '"' || c === "'") {
      const q = this.readQuoted(line, p);
      return { node: { kind: 'scalar', offset: line.start + p, value: q.value }, end: q.end };
    }
    if (c === '[' || c === '{') return this.readFlow(line, p);
    if ('&*!|>%@`,]}#'.includes(c) || ('-?:'.includes(c) && (line.text[p + 1] === ' ' || p + 1 === line.text.length))) bail();
    const commentAt = line.text.indexOf(' #', p);
    const raw = (commentAt < 0 ? line.text.slice(p) : line.text.slice(p, commentAt)).trimEnd();
    if (raw.includes(': ') || raw.endsWith(':')) bail();
    return { node: { kind: 'scalar', offset: line.start + p, value: resolvePlain(raw) }, end: p + raw.length };
  }

  private readQuoted(line: Line, p: number): { value: string; end: number } {
    const quote = line.text[p];
    let out = '';
    let k = p + 1;
    while (k < line.text.length) {
      const c = line.text[k]!;
      if (c === quote) {
        if (quote === "'" && line.text[k + 1] === "'") {
          out += "'";
          k += 2;
          continue;
        }
        return { value: out, end: k + 1 };
      }
      if (c === '\\' && quote === '"') {
        const e = line.text[k + 1] ?? bail();
        const hex = e === 'x' ? 2 : e === 'u' ? 4 : e === 'U' ? 8 : 0;
        if (hex > 0) {
          const digits = line.text.slice(k + 2, k + 2 + hex);
          if (!/^[0-9a-fA-F]+$/.test(digits) || digits.length !== hex) bail();
          const code = parseInt(digits, 16);
          if (code > 0x10ffff || (code >= 0xd800 && code <= 0xdfff)) bail();
          out += String.fromCodePoint(code);
          k += 2 + hex;
          continue;
        }
        out += ESCAPES[e] ?? bail();
        k += 2;
        continue;
      }
      out += c;
      k += 1;
    }
    return bail();
  }

  private readFlow(line: Line, p: number): { node: LightNode; end: number } {
    const text = line.text;
    const open = text[p]!;
    const close = open === '[' ? ']' : '}';
    const offset = line.start + p;
    const skip = (k: number) => {
      while (text[k] === ' ') k += 1;
      return k;
    };
    let k = skip(p + 1);
    const items: LightNode[] = [];
    const pairs = new Map<string, { keyOffset: number; value: LightNode }>();
    const value: Record<string, unknown> = {};
    if (text[k] === close) k += 1;
    else {
      for (;;) {
        if (open === '{') {
          const keyAt = k;
          const entry = this.readKey(line, k) ?? bail();
          if (pairs.has(entry.key)) bail();
          const item = this.readFlowValue(line, skip(entry.valueCol));
          pairs.set(entry.key, { keyOffset: line.start + keyAt, value: item.node });
          value[entry.key] = item.node.value;
          k = skip(item.end);
        } else {
          const item = this.readFlowValue(line, k);
          items.push(item.node);
          k = skip(item.end);
        }
        if (text[k] === close) {
          k += 1;
          break;
        }
        if (text[k] !== ',') bail();
        k = skip(k + 1);
        if (text[k] === close || text[k] === ',') bail();
      }
    }
    const node: LightNode =
      open === '[' ? { kind: 'seq', offset, items, value: items.map((n) => n.value) } : { kind: 'map', offset, pairs, value };
    return { node, end: k };
  }

  private readFlowValue(line: Line, k: number): { node: LightNode; end: number } {
    const c = line.text[k];
    if (c === undefined) return bail();
    if (c === '"' || c === "'") {
      const q = this.readQuoted(line, k);
      return { node: { kind: 'scalar', offset: line.start + k, value: q.value }, end: q.end };
    }
    if (c === '[' || c === '{') return this.readFlow(line, k);
    const m = /^[^,[\]{}#:&*!|>%@`'"?\s-][^,[\]{}#:]*/.exec(line.text.slice(k)) ?? bail();
    const raw = m[0].trimEnd();
    const end = k + m[0].length;
    if (line.text[end] === ':' || line.text[end] === '#') bail();
    return { node: { kind: 'scalar', offset: line.start + k, value: resolvePlain(raw) }, end: k + raw.length };
  }
}

/** The document as light nodes and data, or undefined when it is outside the fast subset. */
export function parseFastYaml(text: string): LightNode | undefined {
  if (FORBIDDEN.test(text)) return undefined;
  try {
    return new FastParser(text).parseDocument();
  } catch (err) {
    if (err === BAIL) return undefined;
    throw err;
  }
}
