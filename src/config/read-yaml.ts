// The one reader of config data: js-yaml (its event parser, then its constructor, as its `load`
// does), with the YAML 1.2 core schema and `<<` merges. A file that reads without a problem costs
// one read (a file of several MB a part at a time: read-parts.ts), and no position: a diagnostic
// asks for them (positions.ts), and a valid file never does. Any other file is read again event
// by event, so that every YAML problem (syntax, tabs, duplicate keys, unknown aliases, alias
// bombs) becomes a positioned diagnostic and the rest of the file is still read for the schema
// and the rules (yaml-syntax.ts, yaml-structure.ts).
import { COLLECTION_STYLE, constructFromEvents, CORE_SCHEMA, defineMappingTag, EVENT_ID, mergeTag, parseEvents, type Event } from 'js-yaml';
import type { Diagnostic } from '../model/diagnostics.js';
import { noSuspects, type Suspects } from './follow-ons.js';
import { Locator, MAX_NESTING } from './positions.js';
import { readInParts } from './read-parts.js';
import { explainSyntaxError, explainYamlError, type SyntaxProblem } from './yaml-syntax.js';

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

const SCHEMA = CORE_SCHEMA.withTags(mergeTag, stringKeyedMap);

/**
 * Values a file's aliases may expand to, and keys its merges may copy, beyond its own size
 * (js-yaml reads an alias once): generous for real files, fatal to alias bombs.
 */
const MAX_ALIAS_COUNT = 10_000;
const expansionLimit = (text: string): number => text.length + MAX_ALIAS_COUNT;

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
    const plain = events[0]?.type === EVENT_ID.DOCUMENT ? scanEvents(events, text) : undefined;
    if (!plain) return undefined;
    const documents = constructFromEvents(events, { source: text, schema: SCHEMA, maxTotalMergeKeys: expansionLimit(text) });
    const data = documents[0];
    return data !== null && typeof data === 'object' ? { data, ...plain } : undefined;
  } catch {
    return undefined;
  }
}

export type ParsedYaml =
  | {
      ok: true;
      data: unknown;
      locator: Locator;
      empty: boolean;
      /** Containers may be reached twice (YAML aliases), so never update them in place. */
      shared: boolean;
      /** Problems of a well-formed document (duplicate keys...); `data` leaves out what they make unclear. */
      errors: Diagnostic[];
      suspects: Suspects;
    }
  | { ok: false; errors: Diagnostic[] };

export function parseYamlText(text: string, file: string): ParsedYaml {
  const read = readInParts(text, readDocument) ?? readDocument(text);
  if (!read || (read.shared && expandedSize(read.data, expansionLimit(text)) > expansionLimit(text))) return diagnoseYaml(text, file);
  return { ok: true, data: read.data, locator: new Locator(file, text), empty: false, shared: read.shared, errors: [], suspects: noSuspects() };
}

const parse = (text: string): Event[] => parseEvents(text, { maxDepth: MAX_NESTING });

/** Where the second document starts: its `---`, or its first node after a `...`. */
function secondDocument(text: string, events: readonly Event[]): number {
  const second = events.findIndex((e, i) => i > 0 && e.type === EVENT_ID.DOCUMENT);
  const next = events.slice(second).find((e) => e.type !== EVENT_ID.DOCUMENT && e.type !== EVENT_ID.POP);
  const at = !next ? text.length : 'start' in next ? next.start : next.type === EVENT_ID.SCALAR && next.valueStart >= 0 ? next.valueStart : next.anchorStart;
  const marker = Math.max(text.lastIndexOf('\n---', at - 1), text.startsWith('---') ? -1 : -2);
  const end = text.lastIndexOf('\n...', at - 1);
  return marker >= -1 && marker > end ? marker + 1 : at;
}

/** A file read event by event, each problem at its place. */
function diagnoseYaml(text: string, file: string): ParsedYaml {
  const locator = new Locator(file, text);
  const errors: Diagnostic[] = [];
  const fail = (...problems: SyntaxProblem[]): ParsedYaml => ({
    ok: false,
    errors: [...errors, ...problems.map((p): Diagnostic => ({ severity: 'error', message: p.message, source: locator.position(p.offset), code: p.code }))],
  });
  let events: Event[];
  try {
    events = parse(text);
  } catch (err) {
    return fail(...explainSyntaxError(text, err, parse));
  }
  if (events.filter((e) => e.type === EVENT_ID.DOCUMENT).length > 1) {
    const message = 'the file holds more than one YAML document (separated by ---); dbform reads one document per file';
    return fail({ offset: secondDocument(text, events), message, code: 'yaml-syntax' });
  }
  const structure = locator.read(events);
  errors.push(...structure.errors);
  const limit = expansionLimit(text);
  let documents: unknown[] | undefined;
  try {
    documents = constructFromEvents(structure.repaired(), { source: text, schema: SCHEMA, json: true, maxTotalMergeKeys: limit });
  } catch (err) {
    // A merge that copies more keys than the file could write is an alias bomb too.
    if (!/maxTotalMergeKeys/.test((err as Error).message)) return fail(explainYamlError(text, err));
  }
  if (!documents || expandedSize(documents[0], limit) > limit) {
    const message = `too many alias expansions: the data would hold more than ${limit} values (the length of this file plus ${MAX_ALIAS_COUNT}); anchors that nest aliases multiply, simplify them`;
    return fail({ offset: structure.firstAlias ?? 0, message, code: 'yaml-alias' });
  }
  return { ok: true, data: documents[0] ?? null, locator, empty: documents.length === 0, shared: true, errors, suspects: structure.suspects() };
}
