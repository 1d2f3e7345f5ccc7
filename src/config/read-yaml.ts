// The one reader of config data: js-yaml (its event parser, then its constructor, as its `load`
// does), with the YAML 1.2 core schema and `<<` merges, as the `yaml` package reads them. Positions
// are not read here: a diagnostic asks for them (positions.ts), and a valid file never does. A
// file of several MB is read a part at a time (read-parts.ts).
//
// What js-yaml refuses, and what it would read otherwise than the `yaml` package (tags,
// directives, keys that are not plain or quoted strings, characters YAML forbids, a `...` the
// packages read differently, aliases that never end or multiply), is left to the `yaml` package,
// whose Document API words the diagnostics (parse-yaml.ts, yaml-syntax.ts, yaml-structure.ts).
import { COLLECTION_STYLE, constructFromEvents, CORE_SCHEMA, defineMappingTag, EVENT_ID, mergeTag, parseEvents, SCALAR_STYLE, type Event } from 'js-yaml';
import { readInParts } from './read-parts.js';
import { MAX_NESTING } from './yaml-syntax.js';

/** Characters the `yaml` package refuses or reads differently (controls, a BOM inside, U+2028/9, a lone CR). */
const FORBIDDEN = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F\uFEFF\u2028\u2029]|\r(?!\n)/;
const DOCUMENT_END = /^\.\.\.(?:[ \t].*)?$/m;
const ONLY_COMMENTS = /^(?:[ \t]*(?:#.*)?(?:\r?\n|$))*$/;

/** One `...` after the content and before nothing but comments; the `yaml` package reads any other as a second document. */
function endsOneDocument(text: string): boolean {
  const end = DOCUMENT_END.exec(text);
  if (!end) return true;
  return ONLY_COMMENTS.test(text.slice(end.index + end[0].length)) && !ONLY_COMMENTS.test(text.slice(0, end.index).replace(/^---.*$/m, ''));
}

/**
 * Mappings as plain objects whose keys are strings: a number, null, list or `"<<"` as a key, and
 * a key longer than YAML's 1,024 characters for an implicit key, go to the `yaml` package.
 */
const stringKeyedMap = defineMappingTag<Record<string, unknown>>('tag:yaml.org,2002:map', {
  create: () => ({}),
  addPair: (map, key, value) => {
    if (typeof key !== 'string' || key === '<<' || key.length > 1000) return 'a key the yaml package words';
    // `__proto__` stays data (the schema refuses it), never a prototype.
    if (key === '__proto__') Object.defineProperty(map, key, { value, enumerable: true, writable: true, configurable: true });
    else map[key] = value;
    return '';
  },
  has: (map, key) => Object.hasOwn(map, key as string),
  keys: (map) => Object.keys(map),
  get: (map, key) => map[key as string],
  identify: () => false,
});

const SCHEMA = CORE_SCHEMA.withTags(mergeTag, stringKeyedMap);

/**
 * Whether every key is a plain or quoted scalar without an anchor, nothing has a tag or a
 * directive, and no alias is inside the value of its own anchor (the data would contain itself).
 */
function isPlainDocument(events: readonly Event[], text: string): { shared: boolean; rootKeys: Set<number> } | undefined {
  const first = events[0];
  if (first?.type !== EVENT_ID.DOCUMENT || first.directives.length > 0) return undefined;
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
    if (e.type === EVENT_ID.DOCUMENT || (e.type !== EVENT_ID.ALIAS && e.tagStart >= 0)) return undefined;
    const top = open.length - 1;
    if (open[top] === 1) {
      const quoted = e.type === EVENT_ID.SCALAR && (e.style === SCALAR_STYLE.PLAIN || e.style === SCALAR_STYLE.SINGLE_QUOTED || e.style === SCALAR_STYLE.DOUBLE_QUOTED);
      if (!quoted || e.anchorStart >= 0 || e.valueStart < 0) return undefined;
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
function expandedSize(data: unknown, limit: number): number {
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
    const plain = isPlainDocument(events, text);
    if (!plain) return undefined;
    // A merge copies keys: bounded by the text's size, so that a small file cannot make a large config.
    const documents = constructFromEvents(events, { source: text, schema: SCHEMA, maxTotalMergeKeys: text.length + 10_000 });
    const data = documents.length === 1 ? documents[0] : undefined;
    return data !== null && typeof data === 'object' ? { data, ...plain } : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The data of a config text, or undefined when the `yaml` package must read it. `shared`: some
 * containers are reached twice (through aliases), so nothing may update them in place.
 */
export function readYaml(text: string): { data: unknown; shared: boolean } | undefined {
  if (FORBIDDEN.test(text) || !endsOneDocument(text)) return undefined;
  const read = readInParts(text, readDocument) ?? readDocument(text);
  // An alias is read once, whatever it expands to: bounded by the file's size too (alias bombs).
  if (!read || (read.shared && expandedSize(read.data, text.length + 10_000) > text.length + 10_000)) return undefined;
  return { data: read.data, shared: read.shared };
}
