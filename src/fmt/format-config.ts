// `dbform fmt` (SPEC section 14): a config file in canonical form. In every block mapping that the
// schema describes, keys follow the schema's order (SPEC section 1's order: name first, a
// resource's children last), while keys the user chooses (service and VPC keys) keep theirs; block
// collections are indented by two spaces. Everything else is the user's text, byte for byte:
// comments (above a key, after a value, aligned or not), blank lines, quoting, flow style, block
// scalars. So it works on the source text, moving whole lines, guided by yaml's concrete syntax
// tree (which keeps every token with its offset), not by re-printing a parsed document.
// Only the syntax must be valid: a file with schema errors is formatted too (as Terraform's fmt
// does), so it can be fixed in a readable file. The result must mean exactly what the input
// meant; it is parsed again and compared, and refused if it does not.
import { isDeepStrictEqual } from 'node:util';
import { CST, LineCounter, parseDocument, Parser } from 'yaml';
import { buildConfigSchema } from '../config/schema.js';

type Schema = Record<string, unknown>;
type Token = CST.Token;
type Item = CST.CollectionItem;

export type FormatResult = { ok: true; text: string } | { ok: false; line: number; col: number; message: string };

/** The canonical text of one config file. */
export function formatConfigText(text: string): FormatResult {
  const lineCounter = new LineCounter();
  const before = parseDocument(text, { lineCounter, uniqueKeys: false, merge: true });
  const error = before.errors[0];
  if (error) {
    const at = lineCounter.linePos(error.pos[0]);
    return { ok: false, line: at.line, col: at.col, message: error.message.split('\n')[0]! };
  }
  let meant: unknown;
  try {
    meant = meaning(text);
  } catch (err) {
    return { ok: false, line: 1, col: 1, message: (err as Error).message.split('\n')[0]! };
  }
  // Reordering can put an alias before its anchor; then only the indentation is canonical.
  for (const reorder of [true, false]) {
    const out = new Formatter(text, reorder).document();
    try {
      if (isDeepStrictEqual(meaning(out), meant)) return { ok: true, text: out };
    } catch {
      // not the same meaning either
    }
  }
  return { ok: false, line: 1, col: 1, message: 'cannot be formatted without changing its meaning (please report this); the file is left as it is' };
}

const meaning = (text: string): unknown => parseDocument(text, { uniqueKeys: false, merge: true }).toJS({ maxAliasCount: 1000 }) as unknown;

class Formatter {
  private readonly schema = buildConfigSchema();

  constructor(
    private readonly text: string,
    private readonly reorder = true,
  ) {}

  document(): string {
    let out = '';
    let at = 0;
    for (const token of new Parser().parse(this.text)) {
      if (token.type !== 'document' || !isBlock(token.value)) continue;
      const start = this.lineStart(token.value.offset);
      out += this.text.slice(at, start) + this.block(token.value, 0, this.schema);
      at = start + this.extent(token.value, start);
    }
    return out + this.text.slice(at);
  }

  /** A block collection's lines, from the start of its first line, at indentation `indent`. */
  private block(node: CST.BlockMap | CST.BlockSequence, indent: number, schema: Schema | undefined): string {
    const regionStart = this.lineStart(node.offset);
    const regionEnd = regionStart + this.extent(node, regionStart);
    const delta = indent - node.indent;
    const starts = node.items.map((item) => this.lineStart(firstOffset(item)));
    const pieces = node.items.map((item, i) => {
      const end = i + 1 < starts.length ? starts[i + 1]! : regionEnd;
      return { key: node.type === 'block-map' ? keyText(item) : '', text: this.item(item, starts[i]!, end, delta, indent, node.type, schema) };
    });
    if (this.reorder && node.type === 'block-map' && schema !== undefined) sortByKeys(pieces, propertyOrder(schema));
    return pieces.map((p) => p.text).join('');
  }

  /** One item's lines [start, end): its own lines shifted by `delta`, nested collections formatted. */
  private item(item: Item, start: number, end: number, delta: number, indent: number, type: 'block-map' | 'block-seq', schema: Schema | undefined): string {
    const nested = isBlock(item.value) ? item.value : undefined;
    if (!nested) return shiftLines(this.text.slice(start, end), delta);
    const inner = schema && childSchema(schema, type === 'block-map' ? keyText(item) : undefined);
    const nestedStart = this.lineStart(nested.offset);
    const nestedEnd = nestedStart + this.extent(nested, nestedStart);
    // Comment lines between the key and its collection belong to the collection's indentation.
    const keyLineEnd = Math.min(nestedStart, this.text.indexOf('\n', item.key?.offset ?? firstOffset(item)) + 1 || nestedStart);
    const before = shiftLines(this.text.slice(start, keyLineEnd), delta) + shiftLines(this.text.slice(keyLineEnd, nestedStart), indent + 2 - nested.indent);
    const after = shiftLines(this.text.slice(nestedEnd, end), delta);
    const dash = item.start.find((t) => t.type === 'seq-item-ind');
    if (dash === undefined || this.lineStart(dash.offset) !== nestedStart) return before + this.block(nested, indent + 2, inner) + after;
    // `- key: v` with more keys below: the collection starts on the dash's line. Format it with the
    // dash blanked out, then put the dash on the line that now comes first.
    const dashLine = nestedStart;
    const masked = this.text.slice(0, dashLine) + ' '.repeat(nested.offset - dashLine) + this.text.slice(nested.offset);
    const body = new Formatter(masked, this.reorder).block(nested, indent + 2, inner);
    return before + withDash(body, indent) + after;
  }

  /**
   * Characters from `from` (a line start) to the end of `node`'s last line: a collection's last
   * token may be the indentation of the line after it, which belongs to what follows.
   */
  private extent(node: Token, from: number): number {
    const end = node.offset + CST.stringify(node).length;
    const lineStart = this.lineStart(end);
    return (this.text.slice(lineStart, end).trim() === '' && lineStart > from ? lineStart : end) - from;
  }

  private readonly lineStart = (offset: number): number => this.text.lastIndexOf('\n', offset - 1) + 1;
}

const isBlock = (node: Token | undefined): node is CST.BlockMap | CST.BlockSequence => node?.type === 'block-map' || node?.type === 'block-seq';
const firstOffset = (item: Item): number => item.start[0]?.offset ?? item.key?.offset ?? item.sep?.[0]?.offset ?? item.value?.offset ?? 0;
const keyText = (item: Item): string => (!item.key ? '' : ((CST.isScalar(item.key) ? CST.resolveAsScalar(item.key)?.value : undefined) ?? CST.stringify(item.key)));

/** The first line that is not blank or a comment gets the dash of its sequence item at column `indent`. */
function withDash(body: string, indent: number): string {
  const lines = body.split('\n');
  const i = lines.findIndex((l) => l.trim() !== '' && !l.trimStart().startsWith('#'));
  if (i === -1) return body;
  // Comments that came with the key now first stand above the dash, at its column.
  for (let j = 0; j < i; j++) if (lines[j]!.trim() !== '') lines[j] = `${' '.repeat(indent)}${lines[j]!.trimStart()}`;
  lines[i] = `${' '.repeat(indent)}- ${lines[i]!.slice(indent + 2)}`;
  return lines.join('\n');
}

/**
 * Each line start of `text` moved by `delta` columns (never into the text: only spaces are
 * removed). Blank lines stay empty.
 */
function shiftLines(text: string, delta: number): string {
  if (delta === 0) return text;
  return text.replace(/^( *)(?=[^\n])/gm, (spaces: string) => (delta > 0 ? spaces + ' '.repeat(delta) : spaces.slice(Math.min(spaces.length, -delta))));
}

/** Stable: a merge key (`<<`) first, the schema's keys in its order, then the keys it does not name as written. */
function sortByKeys(pieces: Array<{ key: string; text: string }>, order: string[]): void {
  if (order.length === 0) return;
  // `x-` blocks hold anchors that resources use: they come before the resources.
  const firstSection = order.includes('vpcs') ? order.indexOf('vpcs') - 0.5 : order.length;
  const rank = (key: string) => (key === '<<' ? -1 : order.includes(key) ? order.indexOf(key) : key.startsWith('x-') ? firstSection : order.length);
  const ranked = pieces.map((p, i) => ({ p, i })).sort((a, b) => rank(a.p.key) - rank(b.p.key) || a.i - b.i);
  for (let i = 0; i < pieces.length; i++) pieces[i] = ranked[i]!.p;
}

const alternatives = (schema: Schema): Schema[] => [...((schema.anyOf as Schema[]) ?? []), ...((schema.oneOf as Schema[]) ?? [])];

/** The properties an object schema names, in order, through anyOf/oneOf alternatives. */
function propertyOrder(schema: Schema): string[] {
  const order: string[] = [];
  const visit = (s: Schema) => {
    for (const k of Object.keys((s.properties as Schema | undefined) ?? {})) if (!order.includes(k)) order.push(k);
    for (const alt of alternatives(s)) visit(alt);
  };
  visit(schema);
  return order;
}

const isSchema = (v: unknown): v is Schema => v !== null && typeof v === 'object';

/** The schema of the value under `key` (undefined: of a list's items), wherever the schema or one of its alternatives names it. */
function childSchema(schema: Schema, key?: string): Schema | undefined {
  const props = schema.properties as Schema | undefined;
  if (key === undefined ? isSchema(schema.items) : props && key in props) return (key === undefined ? schema.items : props![key]) as Schema;
  for (const found of alternatives(schema).map((alt) => childSchema(alt, key))) if (found) return found;
  return key !== undefined && isSchema(schema.additionalProperties) ? schema.additionalProperties : undefined;
}
