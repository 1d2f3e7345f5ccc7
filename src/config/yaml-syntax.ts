// js-yaml's syntax errors, worded for a config author. Some mistakes get their own message at the
// place to fix: an unquoted `${env:...}` inside `[ ]` or `{ }` (YAML reads its `{` as a mapping
// and every later line breaks), a quote or bracket that is never closed (js-yaml stops where the
// next line is less indented), a mapping begun on the line of its key, a tab, a tag. A scan of the
// text, one pass that knows quotes, comments, block scalars and flow context, finds them.
import { YAMLException } from 'js-yaml';
import { MAX_NESTING } from './positions.js';

export const tooDeepMessage = (): string =>
  `collections nest more than ${MAX_NESTING} levels deep here; dbform reads at most ${MAX_NESTING} (a config needs fewer than ten)`;

export type SyntaxProblem = { offset: number; message: string; code: string };

/** An opening bracket or quote and where it closes (-1: never). */
type Opened = { offset: number; char: string; close: number };

/** `unquoted`: where plain text inside `[ ]` or `{ }` that ends in `$` just before a `{` starts. */
type Scan = { brackets: Opened[]; quotes: Opened[]; unquoted: number[] };

const isSpace = (c: string | undefined): boolean => c === undefined || c === ' ' || c === '\t' || c === '\n' || c === '\r';
const FLOW = ',[]{}';

/** Where the quoted scalar opened at `i` ends (its closing quote), or -1. */
function closingQuote(text: string, i: number): number {
  const q = text[i]!;
  for (let j = i + 1; j < text.length; j++) {
    if (q === '"' && text[j] === '\\') j++;
    else if (text[j] === q && !(q === "'" && text[j + 1] === "'")) return j;
    else if (q === "'" && text[j] === "'") j++;
  }
  return -1;
}

/** Past a block scalar whose `|` or `>` is at `i`: its header line and the lines indented past `indent`. */
function endOfBlockScalar(text: string, i: number, indent: number): number {
  let at = text.indexOf('\n', i);
  while (at >= 0) {
    let k = at + 1;
    while (text[k] === ' ') k++;
    if (k - at - 1 <= indent && text[k] !== '\n' && text[k] !== '\r' && k < text.length) return at;
    at = text.indexOf('\n', k);
  }
  return text.length;
}

/** One pass over the text: brackets, quotes and unquoted `${` in flow context. */
function scan(text: string): Scan {
  const out: Scan = { brackets: [], quotes: [], unquoted: [] };
  const open: Opened[] = [];
  let nodeStart = true;
  let lineStart = 0;
  for (let i = 0; i < text.length; ) {
    const c = text[i]!;
    if (c === '\n') [i, lineStart, nodeStart] = [i + 1, i + 1, true];
    else if (c === ' ' || c === '\t' || c === '\r') i++;
    else if (c === '#' && isSpace(text[i - 1])) i = text.indexOf('\n', i) < 0 ? text.length : text.indexOf('\n', i);
    else if ((c === '"' || c === "'") && nodeStart) {
      const close = closingQuote(text, i);
      out.quotes.push({ offset: i, char: c, close });
      [i, nodeStart] = [close < 0 ? text.length : close + 1, false];
    } else if ((c === '[' || c === '{') && (nodeStart || open.length > 0)) {
      open.push({ offset: i, char: c, close: -1 });
      out.brackets.push(open.at(-1)!);
      [i, nodeStart] = [i + 1, true];
    } else if ((c === ']' || c === '}') && open.length > 0) {
      if (open.at(-1)!.char === (c === ']' ? '[' : '{')) open.pop()!.close = i;
      [i, nodeStart] = [i + 1, false];
    } else if ((c === ',' && open.length > 0) || ('-?:'.includes(c) && isSpace(text[i + 1]))) [i, nodeStart] = [i + 1, true];
    else if ((c === '|' || c === '>') && nodeStart && open.length === 0) {
      let indent = 0;
      while (text[lineStart + indent] === ' ') indent++;
      i = endOfBlockScalar(text, i, indent);
    } else if ((c === '&' || c === '!') && nodeStart) while (i < text.length && !isSpace(text[i])) i++;
    else i = plainScalar(text, i, open.length > 0, out);
  }
  return out;
}

/** Past the plain scalar starting at `start`; notes a `$` just before a `{` in flow context. */
function plainScalar(text: string, start: number, flow: boolean, out: Scan): number {
  let i = start;
  for (; i < text.length; i++) {
    const ch = text[i]!;
    if (ch === '\n' || (flow && FLOW.includes(ch)) || (ch === '#' && isSpace(text[i - 1]))) break;
    if (ch === ':' && (isSpace(text[i + 1]) || (flow && FLOW.includes(text[i + 1]!)))) break;
  }
  if (flow && text[i] === '{' && text[i - 1] === '$') out.unquoted.push(start);
  return i === start ? i + 1 : i;
}

/** Where the plain text holding `${` at `brace - 1` ends: past its `}` and any `-suffix` or further `${...}`. */
function endOfInterpolatedText(text: string, brace: number): number | undefined {
  let k = brace;
  for (;;) {
    const close = text.indexOf('}', k);
    if (close < 0 || text.slice(k, close).includes('\n')) return undefined;
    k = close + 1;
    while (k < text.length && !`${FLOW}#\n`.includes(text[k]!) && !(text[k] === '$' && text[k + 1] === '{')) k += 1;
    if (!(text[k] === '$' && text[k + 1] === '{')) break;
    k += 1;
  }
  while (text[k - 1] === ' ') k -= 1;
  return k;
}

const quoteForYaml = (s: string): string => (/["\\]/.test(s) ? `'${s.replace(/'/g, "''")}'` : `"${s}"`);

/**
 * Every `${` written unquoted inside a flow collection, and the text with each such value replaced
 * by a quoted placeholder of the same length, to find the file's next syntax error without the cascade.
 */
function unquotedInterpolations(text: string, starts: readonly number[]): { problems: SyntaxProblem[]; masked: string } {
  const problems: SyntaxProblem[] = [];
  // The text in pieces, joined once: a file of many such values stays linear.
  const pieces: string[] = [];
  let maskedUpTo = 0;
  for (const start of starts) {
    const brace = text.indexOf('{', start);
    const end = start < maskedUpTo ? undefined : endOfInterpolatedText(text, brace);
    if (end === undefined) continue;
    const written = text.slice(start, end);
    problems.push({
      offset: brace - (text[brace - 2] === '$' && brace - 2 >= start ? 2 : 1),
      code: 'yaml-unquoted-interpolation',
      message: `YAML syntax error: \${...} inside [ ] or { } must be in quotes, or YAML reads its { as a mapping; write ${quoteForYaml(written)}`,
    });
    pieces.push(text.slice(maskedUpTo, start), `"${'x'.repeat(written.length - 2)}"`);
    maskedUpTo = end;
  }
  return { problems, masked: pieces.join('') + text.slice(maskedUpTo) };
}

/** One error of js-yaml (its parser, or its constructor: a tag it does not know), worded at its place. */
export function explainYamlError(text: string, err: unknown): SyntaxProblem {
  const [reason, at] = err instanceof YAMLException ? [err.reason, err.mark?.position ?? 0] : [(err as Error).message.replace(/\s*\n\s*/g, ' '), 0];
  const problem = (message: string, offset = at, code = 'yaml-syntax') => ({ offset, message, code });
  const lineStart = text.lastIndexOf('\n', at - 1) + 1;
  // js-yaml stops at the key whose value nests too deep: point at that value, on the next line.
  const deeper = /^[^\n]*:[ \t]*(?:#.*)?\n\s*/.exec(text.slice(at));
  if (/nesting exceeded/.test(reason)) return problem(tooDeepMessage(), deeper ? at + deeper[0].length : at, 'yaml-too-deep');
  if (/^tab characters/.test(reason) || (/indentation/.test(reason) && /^ *\t/.test(text.slice(lineStart, at + 1)))) {
    return problem('a tab is used for indentation; YAML indents with spaces only', lineStart);
  }
  const code = text.codePointAt(at) ?? 0;
  if (/character/.test(reason) && (code < 0x20 || (code >= 0x7f && code <= 0x9f) || code >= 0xfffe)) {
    const hex = code.toString(16).toUpperCase().padStart(4, '0');
    return problem(`YAML syntax error: the character U+${hex} cannot be written as is; write it as "\\u${hex}" inside double quotes`);
  }
  if (/escape/.test(reason) && text[at - 1] === '\\') return problem(`YAML syntax error: ${reason} \\${text[at]}`, at - 1);
  const tag = /^unknown \w+ tag/.test(reason) ? /^![^\s,[\]{}]*/.exec(text.slice(at))?.[0] : undefined;
  if (tag) return problem(`YAML tags such as ${tag} are not supported; write plain values`);
  const found = /escape|character/.test(reason) ? undefined : scan(text);
  const quote = found?.quotes.find((q) => q.offset < at && (q.close < 0 || q.close >= at));
  if (quote) return problem(`YAML syntax error: the ${quote.char} that opens this string is never closed`, quote.offset);
  const bracket = found?.brackets.findLast((b) => b.offset < at && b.close < 0);
  if (bracket) {
    const [close, noun] = bracket.char === '[' ? [']', 'list'] : ['}', 'mapping'];
    return problem(`YAML syntax error: this ${bracket.char} is never closed; end the ${noun} with ${close} (on this line, or on later lines indented past its key)`, bracket.offset);
  }
  // `db: environment: DEV`: the inner mapping's key.
  const inner = /^bad indentation of a mapping entry/.test(reason) && /^[ \t]*(?:- +)?[^\s:#][^:#]*:[ \t]+(?=[^\s#])/.exec(text.slice(lineStart, at));
  if (inner && lineStart + inner[0].length < at) {
    return problem('YAML syntax error: a mapping cannot start on the line of its key; put this key on a line of its own, indented under its parent', lineStart + inner[0].length);
  }
  return problem(`YAML syntax error: ${reason}`);
}

/**
 * The syntax errors of `text`, which `parse` refused with `err`: every unquoted `${` in flow
 * context, then the first other error (`parse` reads a text of the same length with them quoted).
 */
export function explainSyntaxError(text: string, err: unknown, parse: (text: string) => unknown): SyntaxProblem[] {
  const { problems, masked } = unquotedInterpolations(text, scan(text).unquoted);
  if (problems.length === 0) return [explainYamlError(text, err)];
  try {
    parse(masked);
    return problems;
  } catch (next) {
    return [...problems, explainYamlError(masked, next)];
  }
}
