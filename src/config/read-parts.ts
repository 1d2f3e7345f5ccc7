// A large file's big block mappings (10,000 services) read a few hundred entries at a time. js-yaml
// holds an object per event of what it reads at once: read whole, 10,000 services are 640,000
// events (110 MB) that outlive V8's young generation, and `dbform plan` peaked at 335 MB; read in
// parts, at 225-255 MB (BENCHMARKS.md; SPEC section 8: 300 MB). Only data is read here: positions
// are read from the whole file when a diagnostic asks (positions.ts).
//
// What is cut is plainly a block mapping: a root key alone on its line, then lines indented by
// spaces, each line at the first one's indentation starting with a letter, digit, `_` or quote.
// The rest of the file is read with each such body left out (its key must then read as a root key
// with nothing, where it was written), and each run of entries on its own, at depth 1. Whatever
// does not fit (a tab, a line less indented, another indicator there, an alias or key shared
// between parts, a construct cut in two) is read whole instead: a cut never changes what is read.
import type { DocumentRead } from './read-yaml.js';

type Read = (text: string, depth: number) => DocumentRead | undefined;

/**
 * Files this long or longer are read in parts of about `part` of a body each (~2,000 services), and
 * a body in at most `most` parts (larger ones beyond 6 MB). More calls cost more CPU: each call of
 * js-yaml's parseEvents after the first runs slower code until V8 optimizes it again (64 KB parts:
 * +0.5 s at 10,000 services), and after about ten calls every later read of the process is slower:
 * `validate` of 20,000 services with an error each took 3.0 s of CPU in 1 MB parts against 2.0-2.3 s
 * in six, where 10,000 take 1.4 s either way (BENCHMARKS.md).
 */
export interface PartSizes {
  over: number;
  part: number;
  most: number;
}

const SIZES: PartSizes = { over: 1 << 21, part: 1 << 20, most: 6 };

const ROOT_BLOCK_KEY = /^([A-Za-z_][A-Za-z0-9_-]*):[ \t]*(?:#.*)?\r?$/;
const ENTRY_START = /[A-Za-z0-9_"']/;

interface Section {
  key: string;
  /** Where the key's line, the body after it, and each entry's first line start; where the body ends. */
  keyStart: number;
  bodyStart: number;
  entries: number[];
  bodyEnd: number;
}

/** Root keys alone on their line whose value is a block mapping written as lines that can be cut. */
function findSections(text: string): Section[] {
  const out: Section[] = [];
  let open: (Section & { indent: number; broken: boolean }) | undefined;
  const close = (at: number) => {
    if (open && !open.broken && open.indent > 0) out.push({ ...open, bodyEnd: at });
    open = undefined;
  };
  for (let start = 0; start < text.length; ) {
    const nl = text.indexOf('\n', start);
    const next = nl === -1 ? text.length : nl + 1;
    let indent = 0;
    while (text.charCodeAt(start + indent) === 32) indent++;
    const first = text[start + indent]!;
    const blank = first === '\n' || first === '\r' || first === '#' || start + indent >= text.length;
    if (first === '\t' && open) open.broken = true;
    else if (!blank && indent === 0) {
      close(start);
      const key = ROOT_BLOCK_KEY.exec(text.slice(start, next - 1))?.[1];
      if (key !== undefined) open = { key, keyStart: start, bodyStart: next, entries: [], bodyEnd: next, indent: -1, broken: false };
    } else if (!blank && open && !open.broken) {
      if (open.indent === -1) open.indent = indent;
      if (indent < open.indent) open.broken = true;
      else if (indent === open.indent) {
        if (ENTRY_START.test(first)) open.entries.push(start);
        else open.broken = true;
      }
    }
    start = next;
  }
  close(text.length);
  return out;
}

/** The entries of one section, a run of about `size` characters at a time, as one mapping. */
function readSection(text: string, section: Section, read: Read, size: number): { map: Record<string, unknown>; shared: boolean } | undefined {
  const map: Record<string, unknown> = {};
  let shared = false;
  const starts = section.entries;
  for (let i = 0; i < starts.length; ) {
    let j = i + 1;
    while (j < starts.length && starts[j]! - starts[i]! < size) j++;
    const part = read(text.slice(starts[i], j < starts.length ? starts[j] : section.bodyEnd), 1);
    if (!part || Array.isArray(part.data)) return undefined;
    shared ||= part.shared;
    for (const [key, value] of Object.entries(part.data as Record<string, unknown>)) {
      // A key twice across parts, or one that is not plain data: the whole read words it.
      if (Object.hasOwn(map, key) || key === '__proto__') return undefined;
      map[key] = value;
    }
    i = j;
  }
  return { map, shared };
}

/** The data of a large text read in parts, or undefined: read it whole. */
export function readInParts(text: string, read: Read, sizes: PartSizes = SIZES): DocumentRead | undefined {
  if (text.length < sizes.over) return undefined;
  const sections = findSections(text).filter((s) => s.bodyEnd - s.bodyStart >= sizes.part && s.entries.length > 1);
  if (sections.length === 0) return undefined;
  let head = '';
  let at = 0;
  const keyAt: number[] = [];
  for (const s of sections) {
    head += text.slice(at, s.bodyStart);
    keyAt.push(head.length - (s.bodyStart - s.keyStart));
    at = s.bodyEnd;
  }
  const rest = read(head + text.slice(at), 0);
  const data = rest?.data as Record<string, unknown> | undefined;
  // Each cut key must be a root key of the rest, where it was written (not text inside a quoted
  // scalar), and read as nothing without its body.
  if (!rest || !data || Array.isArray(data) || sections.some((s, k) => !rest.rootKeys.has(keyAt[k]!) || data[s.key] !== null)) return undefined;
  let shared = rest.shared;
  for (const section of sections) {
    const body = readSection(text, section, read, Math.max(sizes.part, Math.ceil((section.bodyEnd - section.bodyStart) / sizes.most)));
    if (!body) return undefined;
    shared ||= body.shared;
    data[section.key] = body.map;
  }
  return { data, shared, rootKeys: rest.rootKeys };
}
