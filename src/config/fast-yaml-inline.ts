// The one-line pieces of the fast YAML reader (see fast-yaml.ts): plain and quoted scalars,
// flow collections, keys. Each either reads its piece or throws BAIL to hand the file over.

export type LightPairs = Map<string, { keyOffset: number; value: LightNode }>;

export type LightNode =
  | { kind: 'scalar'; offset: number; value: unknown }
  | { kind: 'alias'; offset: number; target: LightNode; value: unknown }
  | { kind: 'map'; offset: number; pairs: LightPairs; merges: LightNode[]; value: Record<string, unknown> }
  | { kind: 'seq'; offset: number; items: LightNode[]; value: unknown[] };

export const BAIL = Symbol('outside the fast subset');

/**
 * Collections nested deeper than this are refused (a config needs fewer than ten levels): the
 * readers here recurse, and a file of 20,000 `[` must get a diagnostic, not a stack overflow.
 */
export const MAX_NESTING = 100;
export const bail = (): never => {
  throw BAIL;
};

const KEY = /[A-Za-z0-9_$][A-Za-z0-9_.$/-]*/y;
const ESCAPES: Record<string, string> = { '\\': '\\', '"': '"', '/': '/', n: '\n', t: '\t', r: '\r', '0': '\0', b: '\b', f: '\f', ' ': ' ' };

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

/** A single- or double-quoted scalar that closes on the same line. */
export function readQuoted(text: string, p: number): { value: string; end: number } {
  const quote = text[p];
  let out = '';
  let k = p + 1;
  while (k < text.length) {
    const c = text[k]!;
    if (c === quote) {
      if (quote === "'" && text[k + 1] === "'") {
        out += "'";
        k += 2;
        continue;
      }
      return { value: out, end: k + 1 };
    }
    if (c === '\\' && quote === '"') {
      const e = text[k + 1] ?? bail();
      const hex = e === 'x' ? 2 : e === 'u' ? 4 : e === 'U' ? 8 : 0;
      if (hex > 0) {
        const digits = text.slice(k + 2, k + 2 + hex);
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

/** A mapping key at `col` and where its value starts; undefined when there is no key there. */
export function readKey(text: string, col: number): { key: string; valueCol: number } | undefined {
  const c = text[col];
  let key: string;
  let after: number;
  if (c === '"' || c === "'") {
    const quoted = readQuoted(text, col);
    key = quoted.value;
    after = quoted.end;
  } else {
    KEY.lastIndex = col;
    const m = KEY.exec(text);
    if (!m || typeof resolvePlain(m[0]) !== 'string') return undefined;
    key = m[0];
    after = col + key.length;
  }
  if (text[after] !== ':' || (after + 1 < text.length && text[after + 1] !== ' ')) return undefined;
  // `__proto__` needs special care in objects, and YAML caps implicit keys at 1024 characters.
  if (key === '__proto__' || key.length > 1000) bail();
  return { key, valueCol: after + 1 };
}

/** A value on one line: quoted, flow or plain. `start` is the offset of the line in the file. */
export function readInline(text: string, p: number, start: number, depth: number): { node: LightNode; end: number } {
  const c = text[p]!;
  if (c === '"' || c === "'") {
    const q = readQuoted(text, p);
    return { node: { kind: 'scalar', offset: start + p, value: q.value }, end: q.end };
  }
  if (c === '[' || c === '{') return readFlow(text, p, start, depth + 1);
  if ('&*!|>%@`,]}#'.includes(c) || ('-?:'.includes(c) && (text[p + 1] === ' ' || p + 1 === text.length))) bail();
  const commentAt = text.indexOf(' #', p);
  const raw = (commentAt < 0 ? text.slice(p) : text.slice(p, commentAt)).trimEnd();
  if (raw.includes(': ') || raw.endsWith(':')) bail();
  return { node: { kind: 'scalar', offset: start + p, value: resolvePlain(raw) }, end: p + raw.length };
}

function readFlow(text: string, p: number, start: number, depth: number): { node: LightNode; end: number } {
  if (depth > MAX_NESTING) bail();
  const open = text[p]!;
  const close = open === '[' ? ']' : '}';
  const skip = (k: number) => {
    while (text[k] === ' ') k += 1;
    return k;
  };
  let k = skip(p + 1);
  const items: LightNode[] = [];
  const pairs: LightPairs = new Map();
  const value: Record<string, unknown> = {};
  if (text[k] === close) k += 1;
  else {
    for (;;) {
      if (open === '{') {
        const keyAt = k;
        const entry = readKey(text, k) ?? bail();
        if (pairs.has(entry.key)) bail();
        const item = readFlowValue(text, skip(entry.valueCol), start, depth);
        pairs.set(entry.key, { keyOffset: start + keyAt, value: item.node });
        value[entry.key] = item.node.value;
        k = skip(item.end);
      } else {
        const item = readFlowValue(text, k, start, depth);
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
  const offset = start + p;
  const node: LightNode =
    open === '[' ? { kind: 'seq', offset, items, value: items.map((n) => n.value) } : { kind: 'map', offset, pairs, merges: [], value };
  return { node, end: k };
}

function readFlowValue(text: string, k: number, start: number, depth: number): { node: LightNode; end: number } {
  const c = text[k];
  if (c === undefined) return bail();
  if (c === '"' || c === "'") {
    const q = readQuoted(text, k);
    return { node: { kind: 'scalar', offset: start + k, value: q.value }, end: q.end };
  }
  if (c === '[' || c === '{') return readFlow(text, k, start, depth + 1);
  const m = /^[^,[\]{}#:&*!|>%@`'"?\s-][^,[\]{}#:]*/.exec(text.slice(k)) ?? bail();
  const raw = m[0].trimEnd();
  const end = k + m[0].length;
  if (text[end] === ':' || text[end] === '#') bail();
  return { node: { kind: 'scalar', offset: start + k, value: resolvePlain(raw) }, end: k + raw.length };
}
