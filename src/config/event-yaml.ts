// The fast path of YAML reading: js-yaml's event parser (a full YAML 1.2 parser that reports
// every node's offsets) and a small composer that builds the data and the light nodes the
// locator needs, in one pass over a flat list of events, without recursion. It reads every style
// (block scalars, flow collections, anchors, aliases, `<<` merges, comments) at the same cost.
//
// The `yaml` package stays the authority for everything else: a file this path declines (any
// syntax error, a duplicate or non-string key, a tag, a directive, several documents, an alias
// to no anchor or inside its own anchor, too deep a nesting, an alias bomb, characters YAML
// forbids) is read again by it, and it words the diagnostics (yaml-syntax.ts, yaml-structure.ts).
// A differential property test checks that both give the same data and positions.
import { EVENT_ID, getScalarValue, parseEvents, SCALAR_STYLE, type Event } from 'js-yaml';
import type { LightNode, LightPairs } from './light-locate.js';
import { DEFAULT_CHUNKING, readInChunks, type ChunkOptions, type PartOptions } from './event-chunks.js';
import { blockHeaderOffset, detach, endsOneDocument, FORBIDDEN } from './event-text.js';
import { MAX_NESTING, resolvePlain } from './yaml-core.js';

const DECLINE = Symbol('declined: read by the yaml package');
const decline = (): never => {
  throw DECLINE;
};

type MapNode = Extract<LightNode, { kind: 'map' }>;
type SeqNode = Extract<LightNode, { kind: 'seq' }>;

interface Frame {
  node: MapNode | SeqNode;
  /** For a mapping: the key read, waiting for its value (undefined: the next event is a key). */
  key?: { text: string; offset: number; merge: boolean };
  /** Nodes this collection expands to, aliases expanded (alias bombs multiply it). */
  size: number;
  /** The mapping whose `<<` this collection is, merged when it closes. */
  mergeInto?: MapNode;
  /** A mapping that merged keys in and does not keep its pairs: the keys it has itself. */
  ownKeys?: Set<string>;
  /** Whether its scalar children get nodes (positions); else it keeps only its collections. */
  keepScalars: boolean;
}

/**
 * Which nodes a read keeps for positions: 'all', or 'shallow': every node of the top two levels
 * (the sections and their entries) and every collection, but no scalar below them (a config of
 * 10,000 services has 400,000 such scalars; a node and a pair for each held ~45 MB). A node that
 * left scalars out is `partial`; the locator reads the file again with 'all' to find a position
 * inside one (light-locate.ts), which only diagnostics need.
 */
export type Positions = 'all' | 'shallow';

/** Shared by the nodes that have not kept any child yet (never written: replaced on the first). */
const NO_PAIRS: LightPairs = new Map();
const NO_NODES: LightNode[] = [];

class Composer {
  private readonly stack: Frame[] = [];
  /** Anchor name -> its node (the latest in document order), and the anchored nodes still open. */
  private readonly anchors = new Map<string, LightNode>();
  private readonly open = new Set<LightNode>();
  /** How many nodes each anchored node expands to (what an alias to it adds). */
  private readonly sizes = new Map<LightNode, number>();
  private readonly maxSize: number;
  root: LightNode | undefined;
  shared = false;

  /**
   * `at`: an offset in `text` as an offset in the whole file (a part read on its own,
   * event-chunks.ts); `depth`: the collections around it there.
   */
  constructor(
    private readonly text: string,
    events: number,
    private readonly at: (offset: number) => number = (offset) => offset,
    private readonly depth = 0,
    private readonly positions: Positions = 'all',
  ) {
    // Generous for real files, fatal to anchors that nest aliases (each level multiplies).
    this.maxSize = 4 * events + 10_000;
  }

  private name(start: number, end: number): string {
    return this.text.slice(start, end);
  }

  private anchor(e: { anchorStart: number; anchorEnd: number }, node: LightNode): void {
    if (e.anchorStart < 0) return;
    this.anchors.set(this.name(e.anchorStart, e.anchorEnd), node);
    this.sizes.set(node, 1);
  }

  scalar(e: Extract<Event, { type: typeof EVENT_ID.SCALAR }>): void {
    if (e.tagStart >= 0) decline();
    const top = this.stack[this.stack.length - 1];
    if (top?.node.kind === 'map' && top.key === undefined) return this.readKey(top, e);
    let offset: number;
    let value: unknown = null;
    if (e.style === SCALAR_STYLE.PLAIN) {
      // `key:` with nothing: null, positioned at its key (or at the spot, in a list).
      if (e.valueStart < 0) offset = top?.node.kind === 'map' ? -1 : decline();
      else {
        offset = this.at(e.valueStart);
        value = detach(resolvePlain(e.fast ? this.text.slice(e.valueStart, e.valueEnd) : getScalarValue(this.text, e)));
      }
    } else {
      const quoted = e.style === SCALAR_STYLE.SINGLE_QUOTED || e.style === SCALAR_STYLE.DOUBLE_QUOTED;
      const start = quoted ? e.valueStart - 1 : blockHeaderOffset(this.text, e.valueStart);
      offset = this.at(start >= 0 ? start : decline());
      value = detach(getScalarValue(this.text, e));
    }
    // A `<<` with a scalar is declined in place(); an anchored scalar is the target of its aliases.
    if (top && !top.keepScalars && e.anchorStart < 0 && !top.key?.merge) return this.place(undefined, value, 1);
    const node: LightNode = { kind: 'scalar', offset, value };
    this.anchor(e, node);
    this.place(node, value, 1);
  }

  private readKey(frame: Frame, e: Extract<Event, { type: typeof EVENT_ID.SCALAR }>): void {
    if (e.anchorStart >= 0 || e.valueStart < 0) decline();
    let text: string;
    let merge = false;
    if (e.style === SCALAR_STYLE.PLAIN) {
      const raw = e.fast ? this.text.slice(e.valueStart, e.valueEnd) : getScalarValue(this.text, e);
      merge = raw === '<<';
      const value = resolvePlain(raw);
      text = typeof value === 'string' ? value : decline();
    } else if (e.style === SCALAR_STYLE.SINGLE_QUOTED || e.style === SCALAR_STYLE.DOUBLE_QUOTED) {
      text = getScalarValue(this.text, e);
      if (text === '<<') decline();
    } else return decline();
    // `__proto__` needs special care in objects, and YAML caps implicit keys at 1024 characters.
    const node = frame.node as MapNode;
    if (text === '__proto__' || text.length > 1000 || this.hasKey(frame, text) || (merge && node.merges.length > 0)) decline();
    frame.key = { text, offset: this.at(e.style === SCALAR_STYLE.PLAIN ? e.valueStart : e.valueStart - 1), merge };
  }

  alias(e: Extract<Event, { type: typeof EVENT_ID.ALIAS }>): void {
    const top = this.stack[this.stack.length - 1];
    if (top?.node.kind === 'map' && top.key === undefined) decline();
    const target = this.anchors.get(this.name(e.anchorStart, e.anchorEnd));
    if (target === undefined || this.open.has(target)) decline();
    this.shared = true;
    const node: LightNode = { kind: 'alias', offset: this.at(e.anchorStart - 1), target: target!, value: target!.value };
    this.place(node, node.value, this.sizes.get(target!) ?? 1);
  }

  /** A key the mapping has itself (not merged in): its pairs, where it keeps them all; else its own keys. */
  private hasKey(frame: Frame, key: string): boolean {
    const node = frame.node as MapNode;
    if (frame.keepScalars) return node.pairs.has(key);
    return frame.ownKeys ? frame.ownKeys.has(key) : Object.hasOwn(node.value, key);
  }

  collection(e: Extract<Event, { type: typeof EVENT_ID.MAPPING | typeof EVENT_ID.SEQUENCE }>): void {
    if (e.tagStart >= 0 || this.depth + this.stack.length >= MAX_NESTING) decline();
    const top = this.stack[this.stack.length - 1];
    if (top?.node.kind === 'map' && top.key === undefined) decline();
    const node: MapNode | SeqNode =
      e.type === EVENT_ID.MAPPING
        ? { kind: 'map', offset: this.at(e.start), pairs: NO_PAIRS, merges: NO_NODES, value: {} }
        : { kind: 'seq', offset: this.at(e.start), items: NO_NODES, value: [] };
    this.anchor(e, node);
    if (e.anchorStart >= 0) this.open.add(node);
    const mergeInto = top?.key?.merge ? (top.node as MapNode) : undefined;
    this.place(node, node.value, 0);
    // The items of a `<<: [*a, *b]` are read as nodes by merge().
    const keepScalars = this.positions === 'all' || this.depth + this.stack.length <= 1 || mergeInto !== undefined;
    this.stack.push({ node, size: 1, keepScalars, ...(mergeInto ? { mergeInto } : {}) });
  }

  close(): void {
    const frame = this.stack.pop() ?? decline();
    if (frame.key !== undefined) decline();
    if (this.open.delete(frame.node)) this.sizes.set(frame.node, frame.size);
    const parent = this.stack[this.stack.length - 1];
    if (parent) parent.size += frame.size;
    if (frame.size > this.maxSize) decline();
    if (frame.mergeInto) this.merge(parent!, frame.node);
  }

  /**
   * A value read: the root, a list item, or the value of the mapping's pending key; `node`, unless
   * it is a scalar that its collection does not keep. `size`: what it expands to (a collection adds
   * its own when it closes).
   */
  private place(node: LightNode | undefined, value: unknown, size: number): void {
    const top = this.stack[this.stack.length - 1];
    if (!top) {
      this.root = node;
      return;
    }
    top.size += size;
    if (top.node.kind === 'seq') {
      // Without a scalar the indexes of the kept items would be wrong: the locator reads it again.
      if (node === undefined) top.node.partial = true;
      else if (!top.node.partial) (top.node.items === NO_NODES ? (top.node.items = []) : top.node.items).push(node);
      top.node.value.push(value);
      return;
    }
    const key = top.key!;
    top.key = undefined;
    if (key.merge) {
      // A collection written in place is merged when it closes; an alias now.
      if (node?.kind === 'alias') this.merge(top, node);
      else if (node === undefined || node.kind === 'scalar') decline();
      return;
    }
    const map = top.node;
    if (node === undefined) map.partial = true;
    else (map.pairs === NO_PAIRS ? (map.pairs = new Map()) : map.pairs).set(key.text, { keyOffset: key.offset, value: node });
    top.ownKeys?.add(key.text);
    map.value[key.text] = value;
  }

  /** `<<: *a`, `<<: [*a, *b]` or `<<: {...}`: keys the mapping does not have yet, first source first. */
  private merge(frame: Frame, source: LightNode): void {
    const map = frame.node as MapNode;
    // From here on its data holds keys it does not have itself.
    if (!frame.keepScalars) frame.ownKeys ??= new Set(Object.keys(map.value));
    const resolve = (n: LightNode): LightNode => (n.kind === 'alias' ? n.target : n);
    const from = resolve(source);
    const sources = from.kind === 'seq' ? from.items.map(resolve) : [from];
    for (const s of sources) {
      if (s.kind !== 'map') decline();
      (map.merges === NO_NODES ? (map.merges = []) : map.merges).push(s);
      for (const [key, item] of Object.entries(s.value as Record<string, unknown>)) if (!Object.hasOwn(map.value, key)) map.value[key] = item;
    }
  }
}

/**
 * The document as light nodes and data, or undefined when the `yaml` package must read it.
 * `shared`: the data reaches some containers twice (through aliases). A large file whose big
 * block mappings can be read a few hundred entries at a time is (event-chunks.ts): js-yaml holds
 * every event of what it parses, about 180 bytes each, 110 MB for 10,000 services at once.
 * `positions`: which nodes are kept (see Positions); the data is the same either way.
 */
export function readYamlEvents(text: string, options: { chunking?: ChunkOptions; positions?: Positions } = {}): { root: LightNode; shared: boolean } | undefined {
  if (FORBIDDEN.test(text) || !endsOneDocument(text)) return undefined;
  const chunking = options.chunking ?? DEFAULT_CHUNKING;
  const compose = (part: string, where?: PartOptions) => composeEvents(part, where, options.positions);
  if (text.length >= chunking.over) {
    const read = readInChunks(text, chunking, compose);
    // A file the parts do not read (an alias across them): read whole, as any other.
    if (read !== undefined && read !== 'not chunked') return read;
  }
  return compose(text);
}

/** One text through js-yaml and the composer; `part`: a part of a file read on its own. */
export function composeEvents(
  text: string,
  part: PartOptions = { at: (offset) => offset, depth: 0 },
  positions: Positions = 'all',
): { root: LightNode; shared: boolean } | undefined {
  let events: Event[];
  try {
    events = parseEvents(text, { maxDepth: MAX_NESTING + 1 - part.depth });
  } catch {
    return undefined;
  }
  const first = events[0];
  if (first?.type !== EVENT_ID.DOCUMENT || first.directives.length > 0 || events[events.length - 1]?.type !== EVENT_ID.POP) return undefined;
  const composer = new Composer(text, events.length, part.at, part.depth, positions);
  try {
    for (let i = 1; i < events.length - 1; i++) {
      const e = events[i]!;
      if (e.type === EVENT_ID.SCALAR) composer.scalar(e);
      else if (e.type === EVENT_ID.MAPPING || e.type === EVENT_ID.SEQUENCE) composer.collection(e);
      else if (e.type === EVENT_ID.POP) composer.close();
      else if (e.type === EVENT_ID.ALIAS) composer.alias(e);
      else return undefined; // a second document
    }
  } catch (err) {
    if (err === DECLINE) return undefined;
    throw err;
  }
  const root = composer.root;
  if (root === undefined || (root.kind !== 'map' && root.kind !== 'seq')) return undefined;
  return { root, shared: composer.shared };
}
