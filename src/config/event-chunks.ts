// Reading a large file's big block mappings a few hundred entries at a time (event-yaml.ts):
// js-yaml's event parser keeps an object per event of what it parses, so 10,000 services read at
// once hold 640,000 events (110 MB) until the composer is done. The root mapping is read without
// the bodies of its big block mappings (its offsets mapped back to the file's), then each run of
// their entries on its own, and the entries are put back in place.
//
// Only what is plainly a block mapping is cut: a root key alone on its line, then lines indented
// by spaces, each line at the first entry's indentation starting an entry. Anything else there (a
// tab, a line less indented, a `-`, `?`, flow or other indicator at that indentation) leaves the
// file to be read whole. A part that does not read as a mapping on its own (an alias to an anchor
// in another part, a construct cut in two) declines, and the file is read whole too: the cut
// never changes what is read, only how much of it is in memory at once.
import type { LightNode, LightPairs } from './light-locate.js';

export interface ChunkOptions {
  /** Files this long or longer are cut. */
  over: number;
  /** About how much of a mapping's body one part holds. */
  bytes: number;
}

export const DEFAULT_CHUNKING: ChunkOptions = { over: 1 << 20, bytes: 1 << 15 };

/** What a part of a file read on its own needs to say where its nodes are in the file. */
export interface PartOptions {
  /** An offset in the part as an offset in the file. */
  at: (offset: number) => number;
  /** The collections around the part in the file. */
  depth: number;
}

type Read = { root: LightNode; shared: boolean } | undefined;
type Compose = (text: string, part?: PartOptions) => Read;
type MapNode = Extract<LightNode, { kind: 'map' }>;

interface Section {
  key: string;
  /** Where the key's line starts. */
  keyStart: number;
  bodyStart: number;
  bodyEnd: number;
  /** Where each entry's first line starts. */
  entries: number[];
}

/** Reads `text` in parts, or says it is not to be cut (then the caller reads it whole). */
export function readInChunks(text: string, options: ChunkOptions, compose: Compose): Read | 'not chunked' {
  const sections = findSections(text).filter((s) => s.bodyEnd - s.bodyStart >= options.bytes && s.entries.length > 1);
  if (sections.length === 0) return 'not chunked';
  const head = compose(withoutBodies(text, sections), { at: headOffsets(sections), depth: 0 });
  // The lines cut must be the entries of the root block mapping: not inside a flow mapping at the
  // root (`{` on a line of its own), which would read `key:` then the entries as an error.
  if (!head || head.root.kind !== 'map' || text[head.root.offset] === '{') return undefined;
  let shared = head.shared;
  for (const section of sections) {
    const pair = head.root.pairs.get(section.key);
    // The key must be the one on the cut line (not a same-named key elsewhere, the cut line inside
    // a quoted scalar), and its value what it reads as without its body: nothing.
    if (!pair || pair.keyOffset !== section.keyStart || pair.value.kind !== 'scalar' || pair.value.value !== null) return undefined;
    const body = readSection(text, section, options.bytes, compose);
    if (!body) return undefined;
    shared ||= body.shared;
    (head.root.pairs as LightPairs).set(section.key, { keyOffset: pair.keyOffset, value: body.map });
    head.root.value[section.key] = body.map.value;
  }
  return { root: head.root, shared };
}

/** The entries of one section, a run of about `bytes` at a time, as one mapping. */
function readSection(text: string, section: Section, bytes: number, compose: Compose): { map: MapNode; shared: boolean } | undefined {
  let map: MapNode | undefined;
  let shared = false;
  const starts = section.entries;
  for (let i = 0; i < starts.length; ) {
    let j = i + 1;
    while (j < starts.length && starts[j]! - starts[i]! < bytes) j++;
    const end = j < starts.length ? starts[j]! : section.bodyEnd;
    const base = starts[i]!;
    const part = compose(text.slice(base, end), { at: (offset) => offset + base, depth: 1 });
    if (!part || part.root.kind !== 'map' || part.root.merges.length > 0) return undefined;
    shared ||= part.shared;
    if (!map) map = part.root;
    else {
      for (const [key, pair] of part.root.pairs) {
        // A key twice across parts: the whole read words that.
        if (map.pairs.has(key)) return undefined;
        map.pairs.set(key, pair);
        map.value[key] = pair.value.value;
      }
    }
    i = j;
  }
  return map ? { map, shared } : undefined;
}

/** The text without the sections' bodies: each key then reads as null. */
function withoutBodies(text: string, sections: Section[]): string {
  const parts: string[] = [];
  let at = 0;
  for (const s of sections) {
    parts.push(text.slice(at, s.bodyStart));
    at = s.bodyEnd;
  }
  parts.push(text.slice(at));
  return parts.join('');
}

/** An offset in withoutBodies' text as an offset in the file. */
function headOffsets(sections: Section[]): (offset: number) => number {
  return (offset) => {
    if (offset < 0) return offset;
    let shift = 0;
    for (const s of sections) {
      if (offset + shift < s.bodyStart) break;
      shift += s.bodyEnd - s.bodyStart;
    }
    return offset + shift;
  };
}

const ROOT_BLOCK_KEY = /^[A-Za-z_][A-Za-z0-9_-]*:[ \t]*(?:#.*)?\r?$/;
/** Characters that start something other than a plain or quoted key at an entry's indentation. */
const NOT_A_KEY = new Set(['-', '?', ':', '[', ']', '{', '}', ',', '&', '*', '!', '|', '>', '%', '@', '`']);

/** Root keys alone on their line whose value is a block mapping written as cuttable lines. */
function findSections(text: string): Section[] {
  const out: Section[] = [];
  let open: (Section & { indent: number; broken: boolean }) | undefined;
  const close = (at: number) => {
    if (open && !open.broken && open.indent > 0) out.push({ key: open.key, keyStart: open.keyStart, bodyStart: open.bodyStart, bodyEnd: at, entries: open.entries });
    open = undefined;
  };
  for (let start = 0; start < text.length; ) {
    const nl = text.indexOf('\n', start);
    const end = nl === -1 ? text.length : nl;
    const next = nl === -1 ? text.length : nl + 1;
    let indent = 0;
    while (text.charCodeAt(start + indent) === 32) indent++;
    const first = text[start + indent];
    const blank = start + indent >= end || first === '#' || first === '\r';
    // A tab where indentation is read: left to the whole read (and its diagnostics).
    if (first === '\t' && open) open.broken = true;
    else if (!blank && indent === 0) {
      close(start);
      const line = text.slice(start, end);
      if (ROOT_BLOCK_KEY.test(line)) open = { key: line.slice(0, line.indexOf(':')), keyStart: start, bodyStart: next, bodyEnd: next, entries: [], indent: -1, broken: false };
    } else if (!blank && open && !open.broken) {
      if (open.indent === -1) open.indent = indent;
      if (indent < open.indent) open.broken = true;
      else if (indent === open.indent) {
        if (NOT_A_KEY.has(first!)) open.broken = true;
        else open.entries.push(start);
      }
    }
    start = next;
  }
  close(text.length);
  return out;
}
