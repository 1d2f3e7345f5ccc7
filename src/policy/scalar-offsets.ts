// Where a character of a YAML scalar's value stands in the file, so that a CEL error at column 31
// of an expression is reported at the line and column of that character in the policy file, for
// every way of writing a scalar: plain (one line or folded over several), single- or
// double-quoted (escapes, folding), literal `|` and folded `>` blocks.
//
// The value and the source are walked together: equal characters match; an escape (`\"`, `\n`,
// `\u00e9`) or a doubled quote matches the one character it stands for; the line breaks and
// indentation that YAML folds or strips are skipped; a value's space or newline that folding made
// stands at the next source character. When the walk cannot account for every character (a shape
// it does not know), there is no mapping and callers point at the scalar's first character.

export type ScalarStyle = 'PLAIN' | 'QUOTE_SINGLE' | 'QUOTE_DOUBLE' | 'BLOCK_LITERAL' | 'BLOCK_FOLDED';

const isSpace = (c: string | undefined) => c === ' ' || c === '\t' || c === '\n' || c === '\r';

const ESCAPE_LENGTH: Record<string, number> = { x: 4, u: 6, U: 10 };

/** Length in the source of the escape at `j` (a backslash) and the value it stands for. */
function escapeAt(src: string, j: number): { length: number; value: string | undefined } {
  const c = src[j + 1];
  if (c === undefined) return { length: 1, value: undefined };
  if (c === '\n' || c === '\r') return { length: 0, value: undefined }; // a line continuation: see below
  const length = ESCAPE_LENGTH[c] ?? 2;
  if (length > 2) {
    const code = Number.parseInt(src.slice(j + 2, j + length), 16);
    return { length, value: Number.isNaN(code) ? undefined : String.fromCodePoint(code) };
  }
  const simple: Record<string, string> = { n: '\n', t: '\t', r: '\r', '0': '\0', a: '\x07', b: '\b', e: '\x1b', f: '\f', v: '\v', N: '\u0085', _: '\u00a0', L: '\u2028', P: '\u2029', ' ': ' ', '\t': '\t' };
  return { length: 2, value: simple[c] ?? c };
}

/** Offset in `src` where the scalar's content starts (past a quote, or past a block's header line). */
function contentStart(src: string, start: number, style: ScalarStyle): number {
  if (style === 'QUOTE_SINGLE' || style === 'QUOTE_DOUBLE') return start + 1;
  if (style === 'BLOCK_LITERAL' || style === 'BLOCK_FOLDED') {
    const eol = src.indexOf('\n', start);
    return eol < 0 ? src.length : eol + 1;
  }
  return start;
}

/** The indentation of a block scalar's content: that of its least indented non-blank line. */
function blockIndent(src: string, from: number, end: number): number {
  let indent = Infinity;
  for (const line of src.slice(from, end).split('\n')) {
    const spaces = line.length - line.trimStart().length;
    if (line.trim() !== '') indent = Math.min(indent, spaces);
  }
  return indent === Infinity ? 0 : indent;
}

/**
 * For each index of `value` (and one past its end), the offset in `src` of the character it came
 * from; undefined when the walk cannot explain the value from the source.
 */
export function mapScalarOffsets(src: string, start: number, end: number, style: ScalarStyle, value: string): number[] | undefined {
  const out: number[] = [];
  const double = style === 'QUOTE_DOUBLE';
  const single = style === 'QUOTE_SINGLE';
  const block = style === 'BLOCK_LITERAL' || style === 'BLOCK_FOLDED';
  let j = contentStart(src, start, style);
  // After a line break: a flow scalar strips all of the next line's indentation, a block scalar its own.
  const indent = block ? blockIndent(src, j, end) : Infinity;
  const skipIndent = () => {
    for (let n = 0; n < indent && (src[j] === ' ' || (!block && src[j] === '\t')); n++) j++;
  };
  if (block) skipIndent();
  const stop = double || single ? end - 1 : end;
  let i = 0;
  while (i < value.length) {
    if (j > stop) return undefined;
    const c = src[j];
    if (double && c === '\\') {
      const e = escapeAt(src, j);
      if (e.length === 0) {
        j = skipLineBreak(src, j + 1);
        continue;
      }
      if (e.value === undefined || value.slice(i, i + e.value.length) !== e.value) return undefined;
      for (let k = 0; k < e.value.length; k++) out.push(j);
      i += e.value.length;
      j += e.length;
      continue;
    }
    if (single && c === "'" && src[j + 1] === "'" && value[i] === "'") {
      out.push(j);
      i++;
      j += 2;
      continue;
    }
    if (!block && isSpace(c)) {
      const fold = foldAt(src, j, stop);
      if (fold) {
        if (value.slice(i, i + fold.makes.length) !== fold.makes) return undefined;
        for (let k = 0; k < fold.makes.length; k++) out.push(fold.next);
        i += fold.makes.length;
        j = fold.next;
        continue;
      }
    }
    if (c === value[i]) {
      out.push(j);
      i++;
      j++;
      if (c === '\n') skipIndent();
      continue;
    }
    if (c === '\n') {
      j++;
      skipIndent();
      continue;
    }
    // Trailing spaces before a fold, or a carriage return.
    if (isSpace(c)) {
      j++;
      continue;
    }
    // Folding turned the line break (and indentation) before this character into value[i].
    if (isSpace(value[i])) {
      out.push(j);
      i++;
      continue;
    }
    return undefined;
  }
  out.push(Math.min(j, end));
  return out;
}

/**
 * A line break in a flow scalar (plain or quoted) with the spaces around it: YAML drops the
 * spaces before it and the indentation after it, and makes one space of a single break and n-1
 * newlines of n breaks (blank lines). Undefined when the spaces at `j` end before a line break.
 */
function foldAt(src: string, j: number, stop: number): { makes: string; next: number } | undefined {
  let k = j;
  while (src[k] === ' ' || src[k] === '\t') k++;
  if (src[k] !== '\n' && src[k] !== '\r') return undefined;
  let breaks = 0;
  while (k < stop && isSpace(src[k])) {
    if (src[k] === '\n') breaks++;
    k++;
  }
  return { makes: breaks === 1 ? ' ' : '\n'.repeat(breaks - 1), next: k };
}

/** Past a line break and the indentation of the next line. */
function skipLineBreak(src: string, j: number): number {
  if (src[j] === '\r') j++;
  if (src[j] === '\n') j++;
  while (src[j] === ' ' || src[j] === '\t') j++;
  return j;
}
