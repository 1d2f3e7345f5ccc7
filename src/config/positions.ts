// Where the nodes of a file read by read-yaml.ts are: a second pass of js-yaml's event parser over
// the file, made the first time a diagnostic asks for a position (a valid file never does), then
// each position in a few steps: a value at its first character (a quoted one at its quote, a block
// scalar at its `|` or `>`, an alias at its `*`, `key:` with nothing at its key), a key at its
// first character. Follows aliases and `<<` merges; a path that leaves the tree (a missing key)
// stops at the deepest node it reached.
import { EVENT_ID, getScalarValue, parseEvents, SCALAR_STYLE, type Event } from 'js-yaml';
import type { SourceRef } from '../model/diagnostics.js';
import { countWork } from './work-meter.js';

/** Collections nested deeper than this are refused (a config needs fewer than ten levels). */
export const MAX_NESTING = 100;

export type PathSeg = string | number;
/** `key`: the key of the last segment (unknown keys, duplicates); `value`: the node it holds. */
export type Target = 'value' | 'key';

/** Positions of the nodes of one parsed file. */
export interface Locator {
  readonly file: string;
  at(path: readonly PathSeg[], target?: Target): SourceRef;
}

type Pair = { keyOffset: number; value: PosNode };

/**
 * A scalar is its offset alone (-1: a value written as nothing, `key:`, positioned at its key):
 * a file of 10,000 services has 400,000 of them.
 */
type PosNode =
  | number
  | { kind: 'alias'; offset: number; target: PosNode | undefined }
  | { kind: 'map'; offset: number; pairs: Map<string, Pair>; merges: PosNode[] }
  | { kind: 'seq'; offset: number; items: PosNode[] };

type Collection = Extract<PosNode, { kind: 'map' | 'seq' }>;
type MapNode = Extract<PosNode, { kind: 'map' }>;

const offsetOf = (node: PosNode): number => (typeof node === 'number' ? node : node.offset);
type ScalarEvent = Extract<Event, { type: typeof EVENT_ID.SCALAR }>;

export const scalarText = (text: string, e: ScalarEvent): string => (e.fast ? text.slice(e.valueStart, e.valueEnd) : getScalarValue(text, e));

/** A scalar's first character: a quoted one's quote, a block scalar's `|` or `>` (`a: |`, `- >-2 # c`) on the line before its content. */
export function scalarOffset(text: string, e: ScalarEvent): number {
  if (e.style === SCALAR_STYLE.PLAIN) return e.valueStart;
  if (e.style === SCALAR_STYLE.SINGLE_QUOTED || e.style === SCALAR_STYLE.DOUBLE_QUOTED) return e.valueStart - 1;
  const lineEnd = text.lastIndexOf('\n', e.valueStart - 1);
  const lineStart = text.lastIndexOf('\n', lineEnd - 1) + 1;
  const header = /(?:^|[\s:-])([|>])[0-9+-]*[ \t]*(?:#.*)?\r?$/.exec(text.slice(lineStart, lineEnd));
  return header ? lineStart + header.index + header[0].indexOf(header[1]!) : e.valueStart;
}

/** The nodes of a document the reader accepted (so every key is a scalar). */
function readNodes(text: string, events = parseEvents(text, { maxDepth: MAX_NESTING })): PosNode | undefined {
  countWork(events.length);
  const stack: Array<{ node: Collection; key?: { text: string; offset: number; merge: boolean } }> = [];
  const anchors = new Map<string, PosNode>();
  let root: PosNode | undefined;
  for (const e of events) {
    if (e.type === EVENT_ID.DOCUMENT) continue;
    if (e.type === EVENT_ID.POP) {
      stack.pop();
      continue;
    }
    const top = stack[stack.length - 1];
    if (top?.node.kind === 'map' && top.key === undefined && e.type === EVENT_ID.SCALAR) {
      const key = scalarText(text, e);
      top.key = { text: key, offset: scalarOffset(text, e), merge: e.style === SCALAR_STYLE.PLAIN && key === '<<' };
      continue;
    }
    let node: PosNode;
    if (e.type === EVENT_ID.SCALAR) node = e.valueStart < 0 ? -1 : scalarOffset(text, e);
    else if (e.type === EVENT_ID.ALIAS) node = { kind: 'alias', offset: e.anchorStart - 1, target: anchors.get(text.slice(e.anchorStart, e.anchorEnd)) };
    else node = e.type === EVENT_ID.MAPPING ? { kind: 'map', offset: e.start, pairs: new Map(), merges: [] } : { kind: 'seq', offset: e.start, items: [] };
    if (e.anchorStart >= 0 && e.type !== EVENT_ID.ALIAS) anchors.set(text.slice(e.anchorStart, e.anchorEnd), node);
    if (!top) root = node;
    else if (top.node.kind === 'seq') top.node.items.push(node);
    else {
      const key = top.key!;
      top.key = undefined;
      // The last of two equal keys wins, as in the data.
      if (key.merge) top.node.merges.push(node);
      else top.node.pairs.set(key.text, { keyOffset: key.offset, value: node });
    }
    if (typeof node !== 'number' && node.kind !== 'alias') stack.push({ node });
  }
  return root;
}

const resolve = (node: PosNode | undefined): PosNode | undefined => (typeof node === 'object' && node.kind === 'alias' ? node.target : node);
const isMap = (node: PosNode | undefined): node is MapNode => typeof node === 'object' && node.kind === 'map';

/** Own keys first, then those merged in with `<<` (in order, and theirs). */
function findPair(map: MapNode, key: string, depth = 0): Pair | undefined {
  countWork(1);
  const own = map.pairs.get(key);
  if (own || depth > 20) return own;
  for (const merge of map.merges) {
    const from = resolve(merge);
    const sources = typeof from === 'object' && from.kind === 'seq' ? from.items.map(resolve) : [from];
    for (const source of sources) {
      const found = isMap(source) ? findPair(source, key, depth + 1) : undefined;
      if (found) return found;
    }
  }
  return undefined;
}

/** Positions of the nodes of a file read by read-yaml.ts, read on the first question. */
export class EventLocator implements Locator {
  private root: PosNode | undefined | null = null;
  private lineStarts: number[] | undefined;

  private events: Event[] | undefined;

  constructor(
    readonly file: string,
    private readonly text: string,
  ) {}

  /** The file's events, when they are at hand before the first question (a file with problems: read-yaml.ts left them out or made them null). */
  readFrom(events: Event[]): this {
    this.events = events;
    return this;
  }

  at(path: readonly PathSeg[], target: Target = 'value'): SourceRef {
    if (this.root === null) this.root = readNodes(this.text, this.events);
    this.events = undefined;
    let node = this.root;
    let best = node === undefined ? 0 : Math.max(0, offsetOf(node));
    for (let i = 0; i < path.length && node !== undefined; i++) {
      node = resolve(node);
      if (typeof node !== 'object' || node.kind === 'alias') break;
      if (node.kind === 'map') {
        const pair = findPair(node, String(path[i]));
        if (!pair) break;
        if (i === path.length - 1 && target === 'key') return this.position(pair.keyOffset);
        best = offsetOf(pair.value) >= 0 ? offsetOf(pair.value) : pair.keyOffset;
        node = pair.value;
      } else {
        const item = node.items[Number(path[i])];
        if (item === undefined) break;
        if (offsetOf(item) >= 0) best = offsetOf(item);
        node = item;
      }
    }
    return this.position(best);
  }

  position(offset: number): SourceRef {
    const starts = (this.lineStarts ??= lineStartsOf(this.text));
    let lo = 0;
    let hi = starts.length - 1;
    while (lo < hi) {
      countWork(1);
      const mid = (lo + hi + 1) >> 1;
      if (starts[mid]! <= offset) lo = mid;
      else hi = mid - 1;
    }
    return { file: this.file, line: lo + 1, col: offset - starts[lo]! + 1 };
  }
}

function lineStartsOf(text: string): number[] {
  const starts = [0];
  for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) starts.push(i + 1);
  // A CR alone ends a line too (YAML reads it so); rare enough to look for only when there is one.
  if (/\r(?!\n)/.test(text)) return [0, ...[...text.matchAll(/\r\n?|\n/g)].map((m) => m.index + m[0].length)];
  countWork(starts.length);
  return starts;
}
