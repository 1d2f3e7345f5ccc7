// The yaml package's syntax errors, worded for a config author. Two mistakes get their own
// message at the place to fix: an unquoted `${env:...}` inside `[ ]` or `{ }` (YAML reads its
// `{` as a mapping and every later line breaks), and a quote or bracket that is never closed
// (the package reports where it gave up, often a line or more later). The yaml package's lexer
// finds them: it knows quotes, comments and flow context, and never recurses.
import type { YAMLError } from 'yaml';
import { yamlLib } from './yaml-lib.js';

/**
 * Collections nested deeper than this are refused (a config needs fewer than ten levels): the
 * `yaml` package recurses when it composes, and a file of 20,000 `[` must get a diagnostic, not
 * a stack overflow.
 */
export const MAX_NESTING = 100;

export const tooDeepMessage = (): string =>
  `collections nest more than ${MAX_NESTING} levels deep here; dbform reads at most ${MAX_NESTING} (a config needs fewer than ten)`;

export interface SyntaxProblem {
  offset: number;
  message: string;
  code: string;
}

const YAML_MESSAGES: Record<string, (message: string) => string> = {
  TAB_AS_INDENT: () => 'a tab is used for indentation; YAML indents with spaces only',
  MULTIPLE_DOCS: () => 'the file holds more than one YAML document (separated by ---); dbform reads one document per file',
  TAG_RESOLVE_FAILED: (m) => `YAML tags such as ${m.replace(/^Unresolved tag: /, '')} are not supported; write plain values`,
  BAD_DIRECTIVE: (m) => `${m}; dbform reads plain YAML 1.2`,
};

export function yamlMessage(code: string, message: string): string {
  return YAML_MESSAGES[code]?.(message) ?? `YAML syntax error: ${message}`;
}

interface Token {
  offset: number;
  source: string;
  /** A plain scalar (the lexer marks them with U+001F). */
  plain: boolean;
}

/** The lexer's tokens with their offsets; its control characters (U+0002, U+0018, U+001F) take no room. */
function lex(text: string): Token[] {
  const tokens: Token[] = [];
  let offset = 0;
  let plain = false;
  for (const source of new (yamlLib().Lexer)().lex(text)) {
    if (source === '\u001f') {
      plain = true;
      continue;
    }
    tokens.push({ offset, source, plain });
    if (source !== '\u0002' && source !== '\u0018') offset += source.length;
    plain = false;
  }
  return tokens;
}

const FLOW_DELIMITERS = ',[]{}#\n';

/** Where the plain text holding `${` at `brace - 1` ends: past its `}` and any `-suffix` or further `${...}`. */
function endOfInterpolatedText(text: string, brace: number): number | undefined {
  let k = brace;
  for (;;) {
    const close = text.indexOf('}', k);
    if (close < 0 || text.slice(k, close).includes('\n')) return undefined;
    k = close + 1;
    while (k < text.length && !FLOW_DELIMITERS.includes(text[k]!)) {
      if (text[k] === '$' && text[k + 1] === '{') break;
      k += 1;
    }
    if (!(text[k] === '$' && text[k + 1] === '{')) break;
    k += 1;
  }
  while (text[k - 1] === ' ') k -= 1;
  return k;
}

const quoteForYaml = (s: string): string => (/["\\]/.test(s) ? `'${s.replace(/'/g, "''")}'` : `"${s}"`);

/**
 * Every `${` written unquoted inside a flow collection: the lexer ends the plain scalar at the `$`
 * and starts a flow mapping at the `{`. Also the text with each such value replaced by a quoted
 * placeholder of the same length, to find the file's other syntax errors without the cascade.
 */
function findUnquotedInterpolations(text: string, tokens: readonly Token[]): { problems: SyntaxProblem[]; masked: string } {
  const problems: SyntaxProblem[] = [];
  let masked = text;
  let maskedUpTo = 0;
  for (let i = 0; i + 1 < tokens.length; i++) {
    const [scalar, next] = [tokens[i]!, tokens[i + 1]!];
    if (!scalar.plain || !scalar.source.endsWith('$') || next.source !== '{' || scalar.offset < maskedUpTo) continue;
    const brace = scalar.offset + scalar.source.length;
    if (next.offset !== brace) continue;
    const end = endOfInterpolatedText(text, brace);
    if (end === undefined) continue;
    const written = text.slice(scalar.offset, end);
    const dollar = brace - (scalar.source.endsWith('$$') ? 2 : 1);
    problems.push({
      offset: dollar,
      code: 'yaml-unquoted-interpolation',
      message: `YAML syntax error: \${...} inside [ ] or { } must be in quotes, or YAML reads its { as a mapping; write ${quoteForYaml(written)}`,
    });
    masked = masked.slice(0, scalar.offset) + `"${'x'.repeat(written.length - 2)}"` + masked.slice(end);
    maskedUpTo = end;
  }
  return { problems, masked };
}

/** The innermost `[` (or `{`) still open just before `offset`, as the lexer paired them. */
function openBracketBefore(tokens: readonly Token[], offset: number, open: '[' | '{'): number | undefined {
  const stack: Token[] = [];
  for (const t of tokens) {
    if (t.offset >= offset) break;
    if (t.plain) continue;
    if (t.source === '\u0018') stack.length = 0; // the lexer cut the open collections here
    else if (t.source === '[' || t.source === '{') stack.push(t);
    else if ((t.source === ']' || t.source === '}') && stack.at(-1)?.source === (t.source === ']' ? '[' : '{')) stack.pop();
  }
  for (let k = stack.length - 1; k >= 0; k--) if (stack[k]!.source === open) return stack[k]!.offset;
  return undefined;
}

/** The quoted scalar that runs up to `offset` without its closing quote. */
function openQuoteBefore(tokens: readonly Token[], offset: number, quote: string): number | undefined {
  for (let k = tokens.length - 1; k >= 0; k--) {
    const t = tokens[k]!;
    if (t.offset >= offset || t.plain) continue;
    if (t.source.startsWith(quote)) return t.offset + t.source.length >= offset ? t.offset : undefined;
  }
  return undefined;
}

function explainOne(e: YAMLError, tokens: readonly Token[]): SyntaxProblem {
  const offset = e.pos[0];
  const flow = /^Flow (sequence|map) in block collection must be sufficiently indented and end with a/.exec(e.message);
  if (e.code === 'BAD_INDENT' && flow) {
    const [open, close, noun] = flow[1] === 'sequence' ? (['[', ']', 'list'] as const) : (['{', '}', 'mapping'] as const);
    const at = openBracketBefore(tokens, offset, open);
    if (at !== undefined) {
      const message = `YAML syntax error: this ${open} is never closed; end the ${noun} with ${close} (on this line, or on later lines indented past its key)`;
      return { offset: at, message, code: 'yaml-syntax' };
    }
  }
  const quote = /^Missing closing (["'])quote/.exec(e.message);
  if (e.code === 'MISSING_CHAR' && quote) {
    const at = openQuoteBefore(tokens, offset, quote[1]!);
    if (at !== undefined) return { offset: at, message: `YAML syntax error: the ${quote[1]} that opens this string is never closed`, code: 'yaml-syntax' };
  }
  return { offset, message: yamlMessage(e.code, e.message), code: 'yaml-syntax' };
}

interface CstNode {
  type: string;
  offset: number;
  value?: CstNode;
  items?: Array<{ key?: CstNode | null; value?: CstNode | null }>;
}

/**
 * Offset of the first collection nested deeper than MAX_NESTING, from the yaml package's
 * concrete syntax tree (its parser keeps an explicit stack; only composing recurses).
 */
export function findTooDeepOffset(text: string): number | undefined {
  const stack: Array<[CstNode, number]> = [];
  for (const doc of new (yamlLib().Parser)().parse(text)) if ((doc as CstNode).value) stack.push([(doc as CstNode).value!, 1]);
  stack.reverse();
  while (stack.length > 0) {
    const [node, depth] = stack.pop()!;
    if (!node.items || !/^(block-map|block-seq|flow-collection)$/.test(node.type)) continue;
    if (depth > MAX_NESTING) return node.offset;
    for (let i = node.items.length - 1; i >= 0; i--) {
      const { key, value } = node.items[i]!;
      if (value) stack.push([value, depth + 1]);
      if (key) stack.push([key, depth + 1]);
    }
  }
  return undefined;
}

/**
 * The syntax errors of `text` (as the yaml package found them) as problems to report.
 * `reparse` parses a text of the same length and returns its errors.
 */
export function explainSyntaxErrors(text: string, errors: readonly YAMLError[], reparse: (text: string) => readonly YAMLError[]): SyntaxProblem[] {
  // The yaml package catches its own stack overflow; where it ran out depends on the stack size.
  if (errors.some((e) => e.code === 'RESOURCE_EXHAUSTION')) {
    const offset = findTooDeepOffset(text);
    if (offset !== undefined) return [{ offset, message: tooDeepMessage(), code: 'yaml-too-deep' }];
  }
  const tokens = lex(text);
  const { problems, masked } = findUnquotedInterpolations(text, tokens);
  if (problems.length === 0) return errors.map((e) => explainOne(e, tokens));
  const maskedTokens = lex(masked);
  return [...problems, ...reparse(masked).map((e) => explainOne(e, maskedTokens))];
}
