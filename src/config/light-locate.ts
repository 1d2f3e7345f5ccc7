// The nodes of a document read from js-yaml's events (event-yaml.ts), and the locator over them:
// the same positions as YamlLocator gives over the `yaml` package's document (a differential
// test compares them), at a fraction of the cost.
import type { SourceRef } from '../model/diagnostics.js';
import type { Locator, PathSeg, Target } from './locate.js';

export type LightPairs = Map<string, { keyOffset: number; value: LightNode }>;

/** `offset` -1: a value written as nothing (`key:`), positioned at its key. */
export type LightNode =
  | { kind: 'scalar'; offset: number; value: unknown }
  | { kind: 'alias'; offset: number; target: LightNode; value: unknown }
  | { kind: 'map'; offset: number; pairs: LightPairs; merges: LightNode[]; value: Record<string, unknown> }
  | { kind: 'seq'; offset: number; items: LightNode[]; value: unknown[] };

export class LightLocator implements Locator {
  private lineStarts: number[] | undefined;

  constructor(
    readonly file: string,
    private readonly text: string,
    private readonly root: LightNode,
  ) {}

  at(path: readonly PathSeg[], target: Target = 'value'): SourceRef {
    let node: LightNode | undefined = this.root;
    let best = this.root.offset;
    for (let i = 0; i < path.length && node; i++) {
      while (node.kind === 'alias') node = node.target;
      if (node.kind === 'map') {
        const pair = findLightPair(node, String(path[i]));
        if (!pair) break;
        if (i === path.length - 1 && target === 'key') return this.position(pair.keyOffset);
        best = pair.value.offset >= 0 ? pair.value.offset : pair.keyOffset;
        node = pair.value;
      } else if (node.kind === 'seq') {
        const item: LightNode | undefined = node.items[Number(path[i])];
        if (!item) break;
        best = item.offset;
        node = item;
      } else break;
    }
    return this.position(best);
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

/** Own keys first, then those merged in with `<<` (in order, and theirs), as YamlLocator.findPair. */
function findLightPair(map: Extract<LightNode, { kind: 'map' }>, key: string, depth = 0): { keyOffset: number; value: LightNode } | undefined {
  const own = map.pairs.get(key);
  if (own) return own;
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
