// Maps a path inside the parsed data (["services", "db", "ha", "replicas"]) back to the YAML
// node it came from, so every diagnostic can say FILE:LINE:COL. Follows aliases and `<<` merges;
// when the path leaves the tree (a missing key), it stops at the deepest node it reached.
import type { Alias, Document, LineCounter, Node, Pair, YAMLMap } from 'yaml';
import type { SourceRef } from '../model/diagnostics.js';
import { countWork } from './work-meter.js';
import { yamlLib } from './yaml-lib.js';

export type PathSeg = string | number;
/** `key`: the key of the last segment (unknown keys, duplicates); `value`: the node it holds. */
export type Target = 'value' | 'key';

export const isMergeKey = (key: unknown): boolean => yamlLib().isScalar(key) && typeof (key as { value: unknown }).value === 'symbol';

/** The text a map key is known by in the data (`toJS` turns scalar keys into strings). */
export function keyText(key: unknown): string | undefined {
  if (yamlLib().isScalar(key)) return key.value === null ? '' : String(key.value);
  return undefined;
}

type AnyNode = Node | Pair | null | undefined;

/** Positions of the nodes of one parsed file. */
export interface Locator {
  readonly file: string;
  at(path: readonly PathSeg[], target?: Target): SourceRef;
}

/** Locator over a document of the `yaml` package. */
export class YamlLocator implements Locator {
  /** Each alias's anchor node (see indexAliases in parse-yaml.ts). */
  aliasTargets = new Map<Alias, Node | undefined>();
  /** Aliases used inside their own anchor's value: they have no target (see indexAliases). */
  recursiveAliases = new Set<Alias>();

  constructor(
    readonly file: string,
    private readonly doc: Document | undefined,
    private readonly lineCounter: LineCounter,
  ) {}

  /** Position of `path` in the file (1:1 when the file has no content). */
  at(path: readonly PathSeg[], target: Target = 'value'): SourceRef {
    const node = this.nodeAt(path, target);
    return this.positionOf(node);
  }

  positionOf(node: unknown): SourceRef {
    const range = (node as { range?: [number, number, number] } | undefined)?.range;
    return this.positionAt(range ? range[0] : 0);
  }

  positionAt(offset: number): SourceRef {
    const { line, col } = this.lineCounter.linePos(offset);
    return { file: this.file, line, col };
  }

  private nodeAt(path: readonly PathSeg[], target: Target): unknown {
    const { isMap, isSeq } = yamlLib();
    let node: AnyNode = this.doc?.contents as Node | null | undefined;
    let best: unknown = node;
    for (let i = 0; i < path.length; i++) {
      const last = i === path.length - 1;
      const resolved = this.resolve(node);
      if (isMap(resolved)) {
        const pair = this.findPair(resolved, String(path[i]), 0);
        if (!pair) break;
        if (last && target === 'key') return pair.key;
        const value = pair.value as AnyNode;
        // `key:` with nothing after it has an empty node just past the colon: point at the key.
        best = hasRange(value) && value.range[0] !== value.range[1] ? value : pair.key;
        node = value;
      } else if (isSeq(resolved)) {
        const item = resolved.items[Number(path[i])] as AnyNode;
        if (!hasRange(item)) break;
        best = item;
        node = item;
      } else break;
    }
    return best;
  }

  resolve(node: AnyNode): AnyNode {
    let current = node;
    // A chain of aliases is short; the bound keeps a malformed document from looping.
    const { isAlias } = yamlLib();
    for (let hops = 0; hops < 100 && isAlias(current); hops++) current = this.aliasTargets.get(current);
    return current;
  }

  /** Each mapping's own pairs by key (the last duplicate wins, as in the data), made on the first lookup in it. */
  private readonly pairs = new WeakMap<YAMLMap, Map<string, Pair>>();

  /** The pair for `key`, own keys first, then merges. */
  private findPair(map: YAMLMap, key: string, depth: number): Pair | undefined {
    countWork(1);
    let own = this.pairs.get(map);
    if (!own) {
      own = new Map();
      for (const pair of map.items) if (!isMergeKey(pair.key) && keyText(pair.key) !== undefined) own.set(keyText(pair.key)!, pair);
      countWork(map.items.length);
      this.pairs.set(map, own);
    }
    const found = own.get(key);
    if (found || depth > 20) return found;
    const { isMap, isSeq } = yamlLib();
    for (const pair of map.items) {
      if (!isMergeKey(pair.key)) continue;
      const value = this.resolve(pair.value as AnyNode);
      const sources = isSeq(value) ? value.items.map((n) => this.resolve(n as AnyNode)) : [value];
      for (const source of sources) {
        if (!isMap(source)) continue;
        const found = this.findPair(source, key, depth + 1);
        if (found) return found;
      }
    }
    return undefined;
  }
}

function hasRange(node: unknown): node is Node & { range: [number, number, number] } {
  return typeof node === 'object' && node !== null && Array.isArray((node as { range?: unknown }).range);
}
