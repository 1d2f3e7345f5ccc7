// Problems a YAML document can have while being well-formed: duplicate keys, keys that are lists,
// mappings or aliases, `<<` merges of something other than a mapping, aliases to no anchor or
// inside their own anchor's value. One pass over js-yaml's events reports each, then makes it
// harmless in the events the data is built from (the last duplicate wins, as js-yaml's `json`
// option reads it; a bad key or merge is left out; a bad alias reads as null), so that the schema
// and the rules still report everything else in the file at once. What those checks would say
// about the nodes involved is a follow-on, not news: the places are returned as suspect ranges.
import { EVENT_ID, SCALAR_STYLE, type Event } from 'js-yaml';
import type { Diagnostic } from '../model/diagnostics.js';
import type { Suspects } from './follow-ons.js';
import { formatPath } from './paths.js';
import { isPasswordPath } from './password-messages.js';
import { scalarOffset, scalarText, type EventLocator, type PathSeg } from './positions.js';
import { quoteCode } from './quote.js';

/** Sections of the file whose entries are resources (or `moved` items): a problem inside one taints it. */
const SECTIONS = new Set(['vpcs', 'services', 'moved']);

interface YNode {
  kind: 'map' | 'seq' | 'scalar' | 'alias';
  start: number;
  /** Where its last scalar ends (a collection's is known once it closes). */
  end: number;
  /** A mapping's pairs by key (the last of two equal keys wins). */
  pairs?: Map<string, Pair>;
  /** A list whose every item is (an alias of) a mapping: what `<<` may merge. */
  mapsOnly?: boolean;
  /** An alias's anchored node (undefined: none, or one still open around it). */
  target?: YNode;
  open?: boolean;
}

type Pair = { keyStart: number; value: YNode };
/** A pending key of a mapping (`done`: false while a list or mapping as a key is read; `mark`: its event's index in the output). */
type Key = { text: string; start: number; merge: boolean; bad: boolean; done: boolean; mark: number };
type Frame = { node: YNode; path: PathSeg[]; key?: Key; index: number };

/** A range from a node's (or offset's) start to a node's end; without `to`, the start alone. */
type Lazy = { from: YNode | number; to?: YNode; codes?: readonly string[] };

const resolve = (node: YNode | undefined): YNode | undefined => (node?.kind === 'alias' ? node.target : node);
const NULL_SCALAR = { type: EVENT_ID.SCALAR, anchorStart: -1, anchorEnd: -1, tagStart: -1, tagEnd: -1, style: SCALAR_STYLE.PLAIN, chomping: 1, indent: 0, fast: true } as const;

class StructureChecker {
  readonly errors: Diagnostic[] = [];
  readonly out: Event[] = [];
  private readonly stack: Frame[] = [];
  private readonly anchors = new Map<string, YNode>();
  private readonly schema: Lazy[] = [];
  private readonly rules: Lazy[] = [];
  private skipRules = false;
  private lastEnd = 0;
  firstAlias: number | undefined;

  constructor(
    private readonly text: string,
    private readonly locator: EventLocator,
  ) {}

  private diag(offset: number, message: string, code: string): void {
    this.errors.push({ severity: 'error', message, source: this.locator.position(offset), code });
  }

  /** The resource (or `x-` block) around a node `depth` deep under `path`, whose frame is open (stack[0] is the document). */
  private resourceAround(path: readonly PathSeg[], depth: number): YNode | undefined {
    const top = String(path[0] ?? '');
    const size = SECTIONS.has(top) ? 2 : top.startsWith('x-') ? 1 : 0;
    return size > 0 && depth > size ? this.stack[size + 1]?.node : undefined;
  }

  /** A problem from `from` to `to` in the mapping at `path`: what is said inside it and about its resource is a follow-on. */
  private taint(path: readonly PathSeg[], from: YNode | number, to: YNode): void {
    this.schema.push({ from, to });
    const resource = this.resourceAround(path, path.length + 1);
    this.rules.push(resource ? { from: resource, to: resource } : { from, to });
  }

  run(events: readonly Event[]): void {
    for (const e of events) {
      if (e.type === EVENT_ID.POP) {
        const { node } = this.stack.pop()!;
        [node.end, node.open] = [this.lastEnd, false];
        this.out.push(e);
        if (this.stack.length > 0) this.complete(node);
        continue;
      }
      const mark = this.out.push(e) - 1;
      if (e.type === EVENT_ID.DOCUMENT) this.stack.push({ node: { kind: 'seq', start: 0, end: 0 }, path: [], index: 0 });
      else this.node(e, mark);
    }
  }

  private node(e: Exclude<Event, { type: typeof EVENT_ID.DOCUMENT | typeof EVENT_ID.POP }>, mark: number): void {
    const top = this.stack.at(-1)!;
    const wantKey = top.node.kind === 'map' && !top.key;
    if (wantKey && e.type === EVENT_ID.SCALAR) {
      const text = scalarText(this.text, e);
      top.key = { text, start: scalarOffset(this.text, e), merge: e.style === SCALAR_STYLE.PLAIN && text === '<<', bad: false, done: true, mark };
      this.lastEnd = Math.max(this.lastEnd, e.valueEnd);
      return;
    }
    let node: YNode;
    if (e.type === EVENT_ID.ALIAS) {
      const name = this.text.slice(e.anchorStart, e.anchorEnd);
      const anchored = this.anchors.get(name);
      node = { kind: 'alias', start: e.anchorStart - 1, end: e.anchorEnd, target: anchored?.open ? undefined : anchored };
      this.firstAlias ??= node.start;
      if (!node.target && !wantKey) {
        const message = anchored
          ? `alias *${name} is used inside the value anchored &${name}, so that value would contain itself without end; anchor a part that does not hold the alias`
          : `alias *${name} refers to no anchor &${name} defined before it`;
        this.diag(node.start, message, 'yaml-alias');
        this.taint(top.path, node, node);
        // Read as null where it is written (positions.ts places it at its `*`).
        this.out[mark] = { ...NULL_SCALAR, valueStart: node.start, valueEnd: node.start };
      }
    } else if (e.type === EVENT_ID.SCALAR) {
      const start = e.valueStart < 0 ? (top.key?.start ?? 0) : scalarOffset(this.text, e);
      node = { kind: 'scalar', start, end: Math.max(start, e.valueEnd) };
    } else {
      node = { kind: e.type === EVENT_ID.MAPPING ? 'map' : 'seq', start: e.start, end: e.start, open: true, pairs: new Map(), mapsOnly: true };
    }
    this.lastEnd = Math.max(this.lastEnd, node.end);
    if (e.type !== EVENT_ID.ALIAS && e.anchorStart >= 0) this.anchors.set(this.text.slice(e.anchorStart, e.anchorEnd), node);
    if (wantKey) {
      // A list, mapping or alias as a key: reported, and the pair left out.
      this.diag(node.start, 'keys must be plain strings, not lists or mappings', 'yaml-key');
      top.key = { text: '', start: node.start, merge: false, bad: true, done: false, mark };
    }
    if (node.kind !== 'map' && node.kind !== 'seq') return this.complete(node);
    const seg = top.node.kind === 'seq' ? top.index : (top.key?.text ?? '');
    this.stack.push({ node, path: this.stack.length > 1 ? [...top.path, seg] : [], index: 0 });
  }

  /** `node` is read whole: an item of a list, a key or value of a mapping. */
  private complete(node: YNode): void {
    const top = this.stack.at(-1)!;
    const key = top.key;
    if (top.node.kind === 'seq') {
      top.node.mapsOnly &&= resolve(node)?.kind === 'map';
      top.index++;
    } else if (key && !key.done) key.done = true; // the key itself; its value follows
    else if (key) {
      top.key = undefined;
      if (key.bad) this.taint(top.path, key.start, node);
      else if (!key.merge) return this.checkDuplicate(top, key, node);
      else if (resolve(node)?.kind === 'map' || resolve(node)?.mapsOnly) return;
      else {
        // `<<: *nope`: the alias's own error says it.
        if (!(node.kind === 'alias' && !node.target)) this.diag(node.start, '`<<` merges a mapping: write `<<: *anchor` (or a list of anchors of mappings)', 'yaml-merge');
        this.taint(top.path, key.start, node);
        // Without the merge, the mapping misses the keys it meant to bring in: say nothing of them.
        this.schema.push({ from: top.node, codes: MISSING });
      }
      this.out.length = key.mark;
    }
  }

  private checkDuplicate(top: Frame, key: Key, value: YNode): void {
    const pairs = top.node.pairs!;
    const first = pairs.get(key.text);
    const pair = { keyStart: key.start, value };
    pairs.set(key.text, pair);
    if (!first) return;
    const { path } = top;
    const where = path.length === 0 ? 'at the top level' : `under ${formatPath(path)}`;
    const shown = isPasswordPath(path) ? '(sensitive)' : quoteCode(key.text);
    this.diag(key.start, `duplicate key ${shown} ${where} (first defined on line ${this.locator.position(first.keyStart).line})`, 'duplicate-key');
    // Two sections of resources: the first is lost, so references into it would fail.
    if (path.length === 0 && SECTIONS.has(key.text)) this.skipRules = true;
    const resource = this.resourceAround([...path, key.text], path.length + 1);
    for (const dup of [first, pair]) {
      this.suspectSchema(dup);
      this.rules.push(resource ? { from: resource, to: resource } : { from: dup.keyStart, to: dup.value });
    }
    // Two mappings under one key are likely to be merged by the fix: a key of both is a duplicate too.
    if (first.value.kind === 'map' && value.kind === 'map') {
      for (const [k, item] of value.pairs!) if (first.value.pairs!.has(k)) this.suspectSchema(item);
    }
  }

  /**
   * Which of two scalars stays is the user's choice: say nothing of either. Two mappings or lists
   * are more likely to be merged, so what is wrong inside them stays news, except what the other
   * one may hold (missing keys, reported at the start of the mapping).
   */
  private suspectSchema({ keyStart, value }: Pair): void {
    this.schema.push(value.kind === 'map' || value.kind === 'seq' ? { from: value, codes: MISSING } : { from: keyStart, to: value });
  }

  suspects(): Suspects {
    const range = ({ from, to }: Lazy) => {
      const start = typeof from === 'number' ? from : from.start;
      return { start: this.locator.position(start), end: this.locator.position(Math.max(start, to?.end ?? start)) };
    };
    return { schema: this.schema.map((s) => ({ range: range(s), ...(s.codes && { codes: s.codes }) })), rules: this.rules.map(range), skipRules: this.skipRules };
  }
}

const MISSING = ['missing-key', 'incomplete-size'];

/** Reports the structural problems of a file's events (all of them, in document order) and the events made harmless. */
export function checkStructure(text: string, events: readonly Event[], locator: EventLocator) {
  const checker = new StructureChecker(text, locator);
  checker.run(events);
  return { errors: checker.errors, suspects: checker.suspects(), events: checker.out, firstAlias: checker.firstAlias };
}
