// Problems a YAML document can have while being well-formed: duplicate keys, keys that are lists
// or mappings, `<<` merges of something other than a mapping, aliases to no anchor. Each is
// reported, then made harmless (last duplicate wins, as in the data; the other three are left
// out), so that the schema and the rules still report everything else in the file at once.
// What those checks would say about the nodes involved is a follow-on, not news: the places are
// returned as suspect ranges for the loader to filter by.
import type { Alias, Document, Node, Pair, YAMLMap } from 'yaml';
import type { Diagnostic } from '../model/diagnostics.js';
import type { SourceRange, Suspects } from './follow-ons.js';
import { isMergeKey, keyText, type PathSeg, type YamlLocator } from './locate.js';
import { formatPath } from './paths.js';
import { isPasswordPath } from './password-messages.js';
import { quoteCode } from './quote.js';
import { yamlLib } from './yaml-lib.js';

type Diag = (node: unknown, message: string, code: string) => Diagnostic;

/** Sections of the file whose entries are resources (or `moved` items): a problem inside one taints it. */
const SECTIONS = new Set(['vpcs', 'services', 'moved']);

interface Place {
  /** Data path of the node. */
  path: PathSeg[];
  /** The node at each prefix of `path` (nodes[i] holds path.slice(0, i + 1)). */
  nodes: unknown[];
}

/** Each list's items by node, made on the first question about it (indexOf for each would be quadratic). */
const itemIndexes = new WeakMap<object, Map<unknown, number>>();

function indexIn(list: { items: unknown[] }, item: unknown): number {
  let index = itemIndexes.get(list);
  if (!index) itemIndexes.set(list, (index = new Map(list.items.map((x, i) => [x, i]))));
  return index.get(item) ?? -1;
}

/** Where the visitor's node sits, from its ancestors (pairs carry the keys, sequences the indices). */
function placeOf(ancestors: readonly unknown[], self: unknown): Place {
  const { isPair, isSeq } = yamlLib();
  const place: Place = { path: [], nodes: [] };
  for (let i = 0; i < ancestors.length; i++) {
    const node = ancestors[i];
    if (isSeq(node)) {
      const child = ancestors[i + 1] ?? self;
      place.path.push(indexIn(node, child));
      place.nodes.push(child);
    } else if (isPair(node)) {
      place.path.push(keyText(node.key) ?? '?');
      place.nodes.push(node.value);
    }
  }
  return place;
}

export interface StructureCheck {
  errors: Diagnostic[];
  suspects: Suspects;
}

class StructureChecker {
  readonly errors: Diagnostic[] = [];
  readonly suspects: Suspects = { schema: [], rules: [], skipRules: false };
  private readonly removals: Array<{ map: YAMLMap; pair: Pair }> = [];
  private readonly unresolved = new Set<Alias>();

  constructor(
    private readonly locator: YamlLocator,
    private readonly diag: Diag,
  ) {}

  private range(node: unknown): SourceRange {
    const range = (node as { range?: [number, number, number] } | undefined)?.range ?? [0, 0, 0];
    return { start: this.locator.positionAt(range[0]), end: this.locator.positionAt(range[1]) };
  }

  /** The range of the resource (or `x-` block) around `place`, or undefined outside of one. */
  private resourceAround(place: Place, depth: number): SourceRange | undefined {
    const top = String(place.path[0] ?? '');
    const size = SECTIONS.has(top) ? 2 : top.startsWith('x-') ? 1 : 0;
    return size > 0 && depth > size ? this.range(place.nodes[size - 1]) : undefined;
  }

  /**
   * A problem with `node`, a key or value of the mapping at `place`: schema errors inside it
   * and rule errors about its resource are follow-ons.
   */
  private taint(place: Place, node: unknown): void {
    this.suspects.schema.push({ range: this.range(node) });
    this.suspects.rules.push(this.resourceAround(place, place.path.length + 1) ?? this.range(node));
  }

  checkMap(map: YAMLMap, place: Place): void {
    const seen = new Map<string, Pair>();
    for (const pair of map.items) {
      if (isMergeKey(pair.key)) {
        this.checkMerge(map, pair, place);
        continue;
      }
      const text = keyText(pair.key);
      if (text === undefined || yamlLib().isCollection(pair.key)) {
        this.errors.push(this.diag(pair.key, 'keys must be plain strings, not lists or mappings', 'yaml-key'));
        this.taint(place, pair);
        this.removals.push({ map, pair });
        continue;
      }
      const first = seen.get(text);
      if (first) this.reportDuplicate(first, pair, text, place);
      else seen.set(text, pair);
    }
  }

  private checkMerge(map: YAMLMap, pair: Pair, place: Place): void {
    const { isAlias, isMap, isSeq } = yamlLib();
    const value = this.locator.resolve(pair.value as Node | null);
    if (isMap(value) || (isSeq(value) && value.items.every((i) => isMap(this.locator.resolve(i as Node))))) return;
    // `<<: *nope`: the alias's own error says it.
    if (!(isAlias(pair.value) && value === undefined)) {
      this.errors.push(this.diag(pair.value ?? pair.key, '`<<` merges a mapping: write `<<: *anchor` (or a list of anchors of mappings)', 'yaml-merge'));
    }
    this.taint(place, pair);
    // Without the merge, the mapping misses the keys it meant to bring in: say nothing of them.
    this.suspectMissingKeys(map);
    this.removals.push({ map, pair });
  }

  private reportDuplicate(first: Pair, pair: Pair, text: string, place: Place): void {
    const firstLine = this.locator.positionOf(first.key).line;
    const where = place.path.length === 0 ? 'at the top level' : `under ${formatPath(place.path)}`;
    const shown = isPasswordPath(place.path) ? '(sensitive)' : quoteCode(text);
    this.errors.push(this.diag(pair.key, `duplicate key ${shown} ${where} (first defined on line ${firstLine})`, 'duplicate-key'));
    // Two sections of resources: the first is lost, so references into it would fail.
    if (place.path.length === 0 && SECTIONS.has(text)) this.suspects.skipRules = true;
    const keyPlace: Place = { path: [...place.path, text], nodes: [...place.nodes, pair.value] };
    for (const dup of [first, pair]) {
      this.suspectSchema(dup);
      this.suspects.rules.push(this.resourceAround(keyPlace, keyPlace.path.length) ?? this.pairRange(dup));
    }
    // Two mappings under one key are likely to be merged by the fix: a key of both is a duplicate too.
    const { isMap } = yamlLib();
    if (isMap(first.value) && isMap(pair.value)) {
      const earlier = new Set(first.value.items.map((p) => keyText(p.key)));
      for (const item of pair.value.items) if (earlier.has(keyText(item.key))) this.suspectSchema(item);
    }
  }

  /**
   * Which of two scalars stays is the user's choice: say nothing of either. Two mappings or lists
   * are more likely to be merged, so what is wrong inside them stays news, except what the other
   * one may hold (missing keys).
   */
  private suspectSchema(pair: Pair): void {
    if (yamlLib().isCollection(pair.value)) this.suspectMissingKeys(pair.value);
    else this.suspects.schema.push({ range: this.pairRange(pair) });
  }

  /** Missing keys (and half a size) are reported at the start of their mapping. */
  private suspectMissingKeys(map: unknown): void {
    const start = this.range(map).start;
    this.suspects.schema.push({ range: { start, end: start }, codes: ['missing-key', 'incomplete-size'] });
  }

  private pairRange(pair: Pair): SourceRange {
    const key = pair.key as Node;
    const value = (pair.value ?? key) as Node;
    return { start: this.locator.positionAt(key.range?.[0] ?? 0), end: this.locator.positionAt(value.range?.[1] ?? 0) };
  }

  checkAlias(alias: Alias, place: Place): void {
    if (this.locator.aliasTargets.get(alias) !== undefined) return;
    const message = this.locator.recursiveAliases.has(alias)
      ? `alias *${alias.source} is used inside the value anchored &${alias.source}, so that value would contain itself without end; anchor a part that does not hold the alias`
      : `alias *${alias.source} refers to no anchor &${alias.source} defined before it`;
    this.errors.push(this.diag(alias, message, 'yaml-alias'));
    this.taint(place, alias);
    this.unresolved.add(alias);
  }

  /** Leaves out what was reported: the data holds only what the file says unambiguously. */
  repair(doc: Document): void {
    for (const { map, pair } of this.removals) map.items.splice(map.items.indexOf(pair), 1);
    if (this.unresolved.size === 0) return;
    const { Scalar, visit } = yamlLib();
    visit(doc, {
      Alias: (_key, alias) => {
        if (!this.unresolved.has(alias)) return undefined;
        const empty = new Scalar(null);
        empty.range = alias.range;
        return empty;
      },
    });
  }
}

/** Reports and repairs the structural problems of `doc` (all of them, in document order). */
export function checkStructure(doc: Document, locator: YamlLocator, diag: Diag): StructureCheck {
  const checker = new StructureChecker(locator, diag);
  const { visit } = yamlLib();
  visit(doc, {
    Alias(_key, alias, ancestors) {
      checker.checkAlias(alias, placeOf(ancestors, alias));
    },
    Map(_key, map, ancestors) {
      checker.checkMap(map, placeOf(ancestors, map));
    },
  });
  checker.repair(doc);
  return { errors: checker.errors, suspects: checker.suspects };
}
