// The nodes of a document read from js-yaml's events (event-yaml.ts), and the locator over them:
// the same positions as YamlLocator gives over the `yaml` package's document (a differential
// test compares them), at a fraction of the cost.
import type { SourceRef } from '../model/diagnostics.js';
import type { Locator, PathSeg, Target } from './locate.js';

export type LightPairs = Map<string, { keyOffset: number; value: LightNode }>;

/** `offset` -1: a value written as nothing (`key:`), positioned at its key. */
/** `partial`: some scalars of the collection have no node (a 'shallow' read, event-yaml.ts). */
export type LightNode =
  | { kind: 'scalar'; offset: number; value: unknown }
  | { kind: 'alias'; offset: number; target: LightNode; value: unknown }
  | { kind: 'map'; offset: number; pairs: LightPairs; merges: LightNode[]; value: Record<string, unknown>; partial?: boolean }
  | { kind: 'seq'; offset: number; items: LightNode[]; value: unknown[]; partial?: boolean };

export class LightLocator implements Locator {
  private lineStarts: number[] | undefined;
  private whole: Locator | undefined;

  /** `readWhole`: a locator over every node of the file, for a position inside a partial node. */
  constructor(
    readonly file: string,
    private readonly text: string,
    private readonly root: LightNode,
    private readonly readWhole?: () => Locator,
  ) {}

  at(path: readonly PathSeg[], target: Target = 'value'): SourceRef {
    let node: LightNode | undefined = this.root;
    let best = this.root.offset;
    for (let i = 0; i < path.length && node; i++) {
      while (node.kind === 'alias') node = node.target;
      if (node.kind === 'map') {
        const pair = findLightPair(node, String(path[i]));
        if (pair === UNKNOWN) return this.atWhole(path, target);
        if (!pair) break;
        if (i === path.length - 1 && target === 'key') return this.position(pair.keyOffset);
        best = pair.value.offset >= 0 ? pair.value.offset : pair.keyOffset;
        node = pair.value;
      } else if (node.kind === 'seq') {
        if (node.partial) return this.atWhole(path, target);
        const item: LightNode | undefined = node.items[Number(path[i])];
        if (!item) break;
        best = item.offset;
        node = item;
      } else break;
    }
    return this.position(best);
  }

  private atWhole(path: readonly PathSeg[], target: Target): SourceRef {
    if (!this.readWhole) throw new Error('a partial node without the whole file to read');
    this.whole ??= this.readWhole();
    return this.whole.at(path, target);
  }

  private position(offset: number): SourceRef {
    const starts = (this.lineStarts ??= lineStartsOf(this.text));
    let lo = 0;
    let hi = starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (starts[mid]! <= offset) lo = mid;
      else hi = mid - 1;
    }
    return { file: this.file, line: lo + 1, col: offset - starts[lo]! + 1 };
  }
}

/** A key a partial mapping may hold as a scalar it has no node for. */
const UNKNOWN = Symbol('not kept');

/** Own keys first, then those merged in with `<<` (in order, and theirs), as YamlLocator.findPair. */
function findLightPair(map: Extract<LightNode, { kind: 'map' }>, key: string, depth = 0): { keyOffset: number; value: LightNode } | typeof UNKNOWN | undefined {
  const own = map.pairs.get(key);
  if (own) return own;
  if (map.partial) return UNKNOWN;
  if (depth > 20) return undefined;
  for (const source of map.merges) {
    const found = source.kind === 'map' ? findLightPair(source, key, depth + 1) : undefined;
    if (found) return found;
  }
  return undefined;
}

function lineStartsOf(text: string): number[] {
  const starts = [0];
  for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) starts.push(i + 1);
  return starts;
}
