// The one reader of config data: js-yaml (its event parser, then its constructor, as its `load`
// does), with the YAML 1.2 core schema and `<<` merges. Positions are not read here: a diagnostic
// asks for them (positions.ts), and a valid file never does. A file of several MB is read a part
// at a time (read-parts.ts). A file with a problem (a syntax error, a duplicate key, an alias to
// no anchor...) is read again by yaml-structure.ts, which says where and reads what it can.
import { COLLECTION_STYLE, constructFromEvents, CORE_SCHEMA, defineMappingTag, EVENT_ID, mergeTag, parseEvents, type Event } from 'js-yaml';
import { MAX_NESTING } from './positions.js';
import { readInParts } from './read-parts.js';

/** Keys as the data knows them: scalars as strings (null as ''); a list or mapping is refused. */
const stringKeyedMap = defineMappingTag<Record<string, unknown>>('tag:yaml.org,2002:map', {
  create: () => ({}),
  addPair: (map, key, value) => {
    if (key !== null && typeof key === 'object') return 'keys must be plain strings, not lists or mappings';
    const k = key === null ? '' : String(key);
    // `__proto__` stays data (the schema refuses it), never a prototype.
    if (k === '__proto__') Object.defineProperty(map, k, { value, enumerable: true, writable: true, configurable: true });
    else map[k] = value;
    return '';
  },
  has: (map, key) => Object.hasOwn(map, key === null ? '' : String(key)),
  keys: (map) => Object.keys(map),
  get: (map, key) => map[key as string],
  identify: () => false,
});

export const SCHEMA = CORE_SCHEMA.withTags(mergeTag, stringKeyedMap);

/** A merge copies keys, an alias is read once: both bounded by the text's size, so that a small file cannot make a large config. */
export const expansionLimit = (text: string): number => text.length + MAX_ALIAS_COUNT;

/** Values the aliases of a file may expand to beyond its own size: generous for real files, fatal to alias bombs. */
export const MAX_ALIAS_COUNT = 10_000;

/**
 * One document whose keys are scalars and whose aliases are all outside the value of their own
 * anchor (the data would contain itself); where each key of a root block mapping starts.
 */
function scanEvents(events: readonly Event[], text: string): { shared: boolean; rootKeys: Set<number> } | undefined {
  // Per open collection: 1 a mapping whose next node is a key, 0 one whose next is a value, -1 a list.
  const open: number[] = [];
  // Each anchor name's latest node (a number), and the anchored collections still open.
  const anchors = new Map<string, number>();
  const openAnchors: number[] = [];
  // Where each key of a root block mapping starts (read-parts.ts cuts after such keys only).
  const rootKeys = new Set<number>();
  let rootIsBlock = false;
  let shared = false;
  for (let i = 1; i < events.length; i++) {
    const e = events[i]!;
    if (e.type === EVENT_ID.POP) {
      open.pop();
      openAnchors.pop();
      continue;
    }
    if (e.type === EVENT_ID.DOCUMENT) return undefined;
    const top = open.length - 1;
    if (open[top] === 1) {
      if (e.type !== EVENT_ID.SCALAR) return undefined;
      if (top === 0 && rootIsBlock) rootKeys.add(e.valueStart);
    }
    if (open[top]! >= 0) open[top] = 1 - open[top]!;
    if (e.type === EVENT_ID.ALIAS) {
      shared = true;
      if (openAnchors.includes(anchors.get(text.slice(e.anchorStart, e.anchorEnd)) ?? 0)) return undefined;
      continue;
    }
    if (e.anchorStart >= 0) anchors.set(text.slice(e.anchorStart, e.anchorEnd), i);
    if (e.type === EVENT_ID.SCALAR) continue;
    if (open.length === 0) rootIsBlock = e.type === EVENT_ID.MAPPING && e.style === COLLECTION_STYLE.BLOCK;
    open.push(e.type === EVENT_ID.MAPPING ? 1 : -1);
    openAnchors.push(e.anchorStart >= 0 ? i : -1);
  }
  return { shared, rootKeys };
}

/** How many values `data` expands to with every alias written out (each container counted once). */
export function expandedSize(data: unknown, limit: number): number {
  const sizes = new Map<object, number>();
  const size = (value: unknown): number => {
    if (value === null || typeof value !== 'object') return 1;
    let total = sizes.get(value);
    if (total !== undefined) return total;
    total = 1;
    for (const child of Object.values(value)) total = Math.min(total + size(child), limit + 1);
    sizes.set(value, total);
    return total;
  };
  return size(data);
}

/** One text through js-yaml: its data and which root keys start where (read-parts.ts checks its cuts by them). */
export type DocumentRead = { data: unknown; shared: boolean; rootKeys: ReadonlySet<number> };

/** `depth`: the collections around the text in the file (a part of a section: 1). */
export function readDocument(text: string, depth = 0): DocumentRead | undefined {
  try {
    const events = parseEvents(text, { maxDepth: MAX_NESTING - depth });
    const plain = events[0]?.type === EVENT_ID.DOCUMENT ? scanEvents(events, text) : undefined;
    if (!plain) return undefined;
    const documents = constructFromEvents(events, { source: text, schema: SCHEMA, maxTotalMergeKeys: expansionLimit(text) });
    const data = documents[0];
    return data !== null && typeof data === 'object' ? { data, ...plain } : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The data of a config text that reads without a problem, or undefined (yaml-structure.ts reads it
 * then). `shared`: some containers are reached twice (through aliases), so nothing may update them in place.
 */
export function readYaml(text: string): { data: unknown; shared: boolean } | undefined {
  const read = readInParts(text, readDocument) ?? readDocument(text);
  if (!read || (read.shared && expandedSize(read.data, expansionLimit(text)) > expansionLimit(text))) return undefined;
  return { data: read.data, shared: read.shared };
}
