// Where the nodes of a file read by read-yaml.ts are: the tree yaml-structure.ts reads from js-yaml's
// events, read the first time a diagnostic asks for a position (a valid file never does; a file
// with problems has it already), then each position in a few steps: a value at its first
// character (a quoted one at its quote, a block scalar at its `|` or `>`, an alias at its `*`,
// `key:` with nothing at its key), a key at its first character. Follows aliases and `<<` merges;
// a path that leaves the tree (a missing key) stops at the deepest node it reached.
import { parseEvents, type Event } from 'js-yaml';
import type { SourceRef } from '../model/diagnostics.js';
import { countWork } from './work-meter.js';
import { isMap, resolve, StructureChecker, type MapNode, type Pair, type SeqNode, type YNode } from './yaml-structure.js';

/** Collections nested deeper than this are refused (a config needs fewer than ten levels). */
export const MAX_NESTING = 100;

export type PathSeg = string | number;
/** `key`: the key of the last segment (unknown keys, duplicates); `value`: the node it holds. */
export type Target = 'value' | 'key';

const startOf = (node: YNode): number => (typeof node === 'number' ? node : node.start);

/** Own keys first, then those merged in with `<<` (in order, and theirs). */
function findPair(map: MapNode, key: string, depth = 0): Pair | undefined {
  countWork(1);
  const own = map.pairs.get(key);
  if (own || depth > 20) return own;
  for (const merge of map.merges ?? []) {
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
export class Locator {
  /** The file's document (a list of its one node, none if the file is empty), once read. */
  private document: SeqNode | undefined;
  private lineStarts: number[] | undefined;

  constructor(
    readonly file: string,
    private readonly text: string,
  ) {}

  /** Reads the file's tree from its events, checking their structure: read-yaml.ts, for a file with problems, or the first question. */
  read(events: readonly Event[]): StructureChecker {
    const checker = new StructureChecker(this.text, events, this).run();
    this.document = checker.document;
    return checker;
  }

  at(path: readonly PathSeg[], target: Target = 'value'): SourceRef {
    let node = (this.document ?? this.read(parseEvents(this.text, { maxDepth: MAX_NESTING })).document).items[0];
    let best = node === undefined ? 0 : Math.max(0, startOf(node));
    for (let i = 0; i < path.length && node !== undefined; i++) {
      const at = resolve(node);
      if (typeof at !== 'object') break;
      if (at.kind === 'map') {
        const pair = findPair(at, String(path[i]));
        if (!pair) break;
        if (i === path.length - 1 && target === 'key') return this.position(pair.keyStart);
        best = startOf(pair.value) >= 0 ? startOf(pair.value) : pair.keyStart;
        node = pair.value;
      } else {
        node = at.items[Number(path[i])];
        if (node !== undefined && startOf(node) >= 0) best = startOf(node);
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
