// A file's tree of YAML nodes, read in one pass over js-yaml's events (positions.ts finds places
// in it), and the problems a YAML document can have while being well-formed: duplicate keys, keys
// that are lists, mappings or aliases, `<<` merges of something other than a mapping, aliases to no
// anchor or inside their own anchor's value. Each is reported, then made harmless in the events
// the data is built from (the last duplicate wins, as js-yaml's `json` option reads it; a bad key
// or merge is left out; a bad alias reads as null) and in the tree, so that the schema and the
// rules still report everything else in the file at once. What they would say about the nodes
// involved is a follow-on, not news: the places are returned as suspect ranges.
import { EVENT_ID, getScalarValue, SCALAR_STYLE, type Event } from 'js-yaml';
import type { Diagnostic } from '../model/diagnostics.js';
import type { Suspects } from './follow-ons.js';
import { formatPath } from './paths.js';
import { isPasswordPath } from './password-messages.js';
import type { Locator, PathSeg } from './positions.js';
import { quoteCode } from './quote.js';
import { countWork } from './work-meter.js';

/** Sections of the file whose entries are resources (or `moved` items): a problem inside one taints it. */
const SECTIONS = new Set(['vpcs', 'services', 'moved']);

/**
 * A node of the file. A scalar is its first character's offset alone (-1: a value written as
 * nothing, `key:` or `- `): a file of 10,000 services has 400,000 of them.
 */
export type YNode = number | Collection | Alias;
type Collection = MapNode | SeqNode;
/** `merges`: what its `<<` keys bring in, each a mapping or a list of them (most mappings have none). */
export type MapNode = { kind: 'map'; start: number; pairs: Map<string, Pair>; merges?: YNode[] };
export type SeqNode = { kind: 'seq'; start: number; items: YNode[] };
/**
 * `written`: the node anchored last before it as written, what it is checked against (undefined:
 * none, or one still open around it; it then reads as null). `target`: the node it stands for in
 * the data, the same unless a pair left out of the data took that anchor along.
 */
type Alias = { kind: 'alias'; start: number; written: number | Collection | undefined; target: number | Collection | undefined };
/** An anchored node, its event's index, and the node anchored before it under the same name. */
type Anchor = { node: number | Collection; mark: number; hides: Anchor | undefined };
/** A mapping's key, where it starts, and its value, which ends at `end` (where its last scalar does). */
export type Pair = { keyStart: number; value: YNode; end: number };

/** A pending key of a mapping (`mark`: its event's index; `bad`: a list, mapping or alias written as the key). */
type Key = { text: string; start: number; merge: boolean; mark: number; bad?: Collection | Alias };
/** `suspect`: a resource (or `x-` block) that rule errors are follow-ons about. */
type Frame = { node: Collection; path: PathSeg[]; key?: Key; suspect?: boolean };

/** From one offset to another; without `to`, the start alone. */
type Range = { from: number; to?: number; codes?: readonly string[] };

export const resolve = (node: YNode | undefined): number | Collection | undefined => (typeof node === 'object' && node.kind === 'alias' ? node.target : node);
export const isMap = (node: YNode | undefined): node is MapNode => typeof node === 'object' && node.kind === 'map';
const written = (node: YNode): number | Collection | undefined => (typeof node === 'object' && node.kind === 'alias' ? node.written : node);
/** What `<<` may merge: a mapping, or a list whose every item is (an alias of) one, as written. */
const isMergeable = (node: YNode): boolean => {
  const from = written(node);
  return isMap(from) || (typeof from === 'object' && from.kind === 'seq' && from.items.every((item) => isMap(written(item))));
};

type NodeEvent = Exclude<Event, { type: typeof EVENT_ID.DOCUMENT | typeof EVENT_ID.POP }>;

/** A scalar's first character: a quoted one's quote, a block scalar's `|` or `>` (`a: |`, `- >-2 # c`) on the line before its content. */
function scalarOffset(text: string, e: Extract<NodeEvent, { type: typeof EVENT_ID.SCALAR }>): number {
  if (e.style === SCALAR_STYLE.PLAIN) return e.valueStart;
  if (e.style === SCALAR_STYLE.SINGLE_QUOTED || e.style === SCALAR_STYLE.DOUBLE_QUOTED) return e.valueStart - 1;
  const lineEnd = text.lastIndexOf('\n', e.valueStart - 1);
  const lineStart = text.lastIndexOf('\n', lineEnd - 1) + 1;
  const header = /(?:^|[\s:-])([|>])[0-9+-]*[ \t]*(?:#.*)?\r?$/.exec(text.slice(lineStart, lineEnd));
  return header ? lineStart + header.index + header[0].indexOf(header[1]!) : e.valueStart;
}

const NULL_SCALAR = { type: EVENT_ID.SCALAR, anchorStart: -1, anchorEnd: -1, tagStart: -1, tagEnd: -1, style: SCALAR_STYLE.PLAIN, chomping: 1, indent: 0, fast: true } as const;

/** Reads a file's events into its tree, reporting their structural problems (all of them, in document order). */
export class StructureChecker {
  readonly errors: Diagnostic[] = [];
  /** The document, a list of its one node. */
  readonly document: SeqNode = { kind: 'seq', start: 0, items: [] };
  /** Events the data reads as null (bad aliases), and those it leaves out (bad keys and merges), by index. */
  private readonly nulls = new Map<number, Event>();
  private readonly left: Uint8Array;
  private readonly stack: Frame[] = [];
  private readonly anchors = new Map<string, Anchor>();
  private readonly schema: Range[] = [];
  private readonly rules: Range[] = [];
  private skipRules = false;
  private lastEnd = 0;
  firstAlias: number | undefined;

  constructor(
    private readonly text: string,
    private readonly events: readonly Event[],
    private readonly locator: Locator,
  ) {
    this.left = new Uint8Array(events.length);
  }

  /** The events the data is built from. */
  repaired(): Event[] {
    return this.events.map((e, i) => this.nulls.get(i) ?? e).filter((_, i) => this.left[i] === 0);
  }

  private diag(offset: number, message: string, code: string): void {
    this.errors.push({ severity: 'error', message, source: this.locator.position(offset), code });
  }

  /** A problem from `from` to `to` in the mapping at `path`: what is said inside it and about its resource is a follow-on. */
  private taint(path: readonly PathSeg[], from: number, to: number): void {
    this.schema.push({ from, to });
    this.suspectRules(path, from, to);
  }

  /** What the rules say from `from` to `to` in the mapping at `path`, or about the resource (or `x-` block) it is in, is a follow-on. */
  private suspectRules(path: readonly PathSeg[], from: number, to: number): void {
    const top = String(path[0] ?? '');
    const size = SECTIONS.has(top) ? 2 : top.startsWith('x-') ? 1 : 0;
    // stack[0] is the document, stack[1] the root mapping; the resource's range is known once it closes.
    const resource = size > 0 && path.length >= size ? this.stack[size + 1] : undefined;
    if (resource) resource.suspect = true;
    else this.rules.push({ from, to });
  }

  run(): this {
    countWork(this.events.length);
    this.events.forEach((e, i) => {
      if (e.type === EVENT_ID.DOCUMENT) this.stack.push({ node: this.document, path: [] });
      else if (e.type !== EVENT_ID.POP) this.node(e, i);
      else {
        const { node, suspect } = this.stack.pop()!;
        if (suspect) this.rules.push({ from: node.start, to: this.lastEnd });
        if (this.stack.length > 0) this.complete(node, i);
      }
    });
    return this;
  }

  private node(e: NodeEvent, mark: number): void {
    const top = this.stack.at(-1)!;
    const wantKey = top.node.kind === 'map' && !top.key;
    if (wantKey && e.type === EVENT_ID.SCALAR) {
      const text = e.fast ? this.text.slice(e.valueStart, e.valueEnd) : getScalarValue(this.text, e);
      top.key = { text, start: scalarOffset(this.text, e), merge: e.style === SCALAR_STYLE.PLAIN && text === '<<', mark };
      this.lastEnd = Math.max(this.lastEnd, e.valueEnd);
      return;
    }
    const node = e.type === EVENT_ID.ALIAS ? this.alias(e, top.path, wantKey, mark) : this.anchored(e, mark);
    if (wantKey && typeof node === 'object') {
      // A list, mapping or alias as a key: reported, and the pair left out.
      this.diag(node.start, 'keys must be plain strings, not lists or mappings', 'yaml-key');
      top.key = { text: '', start: node.start, merge: false, mark, bad: node };
    }
    if (typeof node !== 'object' || node.kind === 'alias') return this.complete(node, mark);
    const seg = top.node.kind === 'seq' ? top.node.items.length : (top.key?.text ?? '');
    this.stack.push({ node, path: this.stack.length > 1 ? [...top.path, seg] : [] });
  }

  /** A scalar, mapping or list, under its anchor's name if it has one. */
  private anchored(e: Exclude<NodeEvent, { type: typeof EVENT_ID.ALIAS }>, mark: number): number | Collection {
    let node: number | Collection;
    if (e.type === EVENT_ID.SCALAR) node = e.valueStart < 0 ? -1 : scalarOffset(this.text, e);
    else node = e.type === EVENT_ID.MAPPING ? { kind: 'map', start: e.start, pairs: new Map() } : { kind: 'seq', start: e.start, items: [] };
    this.lastEnd = Math.max(this.lastEnd, e.type === EVENT_ID.SCALAR ? e.valueEnd : e.start);
    if (e.anchorStart >= 0) {
      const name = this.text.slice(e.anchorStart, e.anchorEnd);
      this.anchors.set(name, { node, mark, hides: this.anchors.get(name) });
    }
    return node;
  }

  /** The newest of `anchor` and those it hides that the data keeps: what an alias reads there. */
  private kept(anchor: Anchor): Anchor | undefined {
    // Those left out stay left out: unlinked, the next alias of the name need not pass them again.
    while (anchor.hides && this.left[anchor.hides.mark] === 1) anchor.hides = anchor.hides.hides;
    return this.left[anchor.mark] === 1 ? anchor.hides : anchor;
  }

  /** An alias; one to no anchor, or to one still open around it, is reported (unless it is a key) and reads as null. */
  private alias(e: Extract<NodeEvent, { type: typeof EVENT_ID.ALIAS }>, path: readonly PathSeg[], asKey: boolean, mark: number): Alias {
    const name = this.text.slice(e.anchorStart, e.anchorEnd);
    const anchored = this.anchors.get(name);
    const open = this.stack.some((frame) => frame.node === anchored?.node);
    const found = open ? undefined : anchored;
    const start = e.anchorStart - 1;
    this.lastEnd = Math.max(this.lastEnd, e.anchorEnd);
    this.firstAlias ??= start;
    if (!found && !asKey) {
      const message = open
        ? `alias *${name} is used inside the value anchored &${name}, so that value would contain itself without end; anchor a part that does not hold the alias`
        : `alias *${name} refers to no anchor &${name} defined before it`;
      this.diag(start, message, 'yaml-alias');
      this.taint(path, start, e.anchorEnd);
      // Read as null where it is written (placed at its `*`, as the alias is).
      this.nulls.set(mark, { ...NULL_SCALAR, valueStart: start, valueEnd: start });
    }
    return { kind: 'alias', start, written: found?.node, target: found ? this.kept(found)?.node : undefined };
  }

  /** `node` is read whole (its last event at `last`): an item of a list, a key or value of a mapping. */
  private complete(node: YNode, last: number): void {
    const top = this.stack.at(-1)!;
    if (top.node.kind === 'seq') return void top.node.items.push(node);
    const key = top.key!;
    if (key.bad === node) return; // the key itself; its value follows
    top.key = undefined;
    // A key written as nothing (`: x`) has no place of its own: its value's, or its mapping's.
    if (key.start < 0) key.start = typeof node === 'object' ? node.start : node >= 0 ? node : top.node.start;
    // A value ends where its last scalar does; one written as nothing, where its key starts.
    const end = node === -1 ? key.start : this.lastEnd;
    if (key.bad) this.taint(top.path, key.start, end);
    else if (!key.merge) return this.checkDuplicate(top.node, top.path, key, node, end);
    else if (isMergeable(node)) return void (top.node.merges ??= []).push(node);
    else {
      const start = typeof node === 'object' ? node.start : node < 0 ? key.start : node;
      // `<<: *nope`: the alias's own error says it.
      if (written(node) !== undefined) this.diag(start, '`<<` merges a mapping: write `<<: *anchor` (or a list of anchors of mappings)', 'yaml-merge');
      this.taint(top.path, key.start, end);
      // Without the merge, the mapping misses the keys it meant to bring in: say nothing of them.
      this.schema.push({ from: top.node.start, codes: MISSING });
    }
    // A bad key or merge is left out of the data, with its value.
    this.left.fill(1, key.mark, last + 1);
  }

  private checkDuplicate(map: MapNode, path: readonly PathSeg[], key: Key, value: YNode, end: number): void {
    const first = map.pairs.get(key.text);
    const pair = { keyStart: key.start, value, end };
    map.pairs.set(key.text, pair);
    if (!first) return;
    const where = path.length === 0 ? 'at the top level' : `under ${formatPath(path)}`;
    const shown = isPasswordPath(path) ? '(sensitive)' : quoteCode(key.text);
    this.diag(key.start, `duplicate key ${shown} ${where} (first defined on line ${this.locator.position(first.keyStart).line})`, 'duplicate-key');
    // Two sections of resources: the first is lost, so references into it would fail.
    if (path.length === 0 && SECTIONS.has(key.text)) this.skipRules = true;
    for (const dup of [first, pair]) {
      this.suspectSchema(dup);
      this.suspectRules(path, dup.keyStart, dup.end);
    }
    // Two mappings under one key are likely to be merged by the fix: a key of both is a duplicate too.
    if (isMap(first.value) && isMap(value)) {
      for (const [k, item] of value.pairs) if (first.value.pairs.has(k)) this.suspectSchema(item);
    }
  }

  /**
   * Which of two scalars stays is the user's choice: say nothing of either. Two mappings or lists
   * are more likely to be merged, so what is wrong inside them stays news, except what the other
   * one may hold (missing keys, reported at the start of the mapping).
   */
  private suspectSchema({ keyStart, value, end }: Pair): void {
    this.schema.push(typeof value === 'object' && value.kind !== 'alias' ? { from: value.start, codes: MISSING } : { from: keyStart, to: end });
  }

  suspects(): Suspects {
    const range = ({ from, to = from }: Range) => ({ start: this.locator.position(from), end: this.locator.position(Math.max(from, to)) });
    return { schema: this.schema.map((s) => ({ range: range(s), ...(s.codes && { codes: s.codes }) })), rules: this.rules.map(range), skipRules: this.skipRules };
  }
}

const MISSING = ['missing-key', 'incomplete-size'];
