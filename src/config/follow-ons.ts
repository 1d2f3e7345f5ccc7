// Follow-on errors: what the schema and the rules would say about a node that an earlier problem
// already explains (a duplicate key, a merge that brought nothing in). Reporting them would send
// the user after the wrong fix, so the loader drops diagnostics that sit in, or point into, the
// suspect ranges.
import type { Diagnostic, SourceRef } from '../model/diagnostics.js';
import { countWork } from './work-meter.js';

/** From `start` to `end` (inclusive) in one file. */
export type SourceRange = { start: SourceRef; end: SourceRef };

/** `codes`: only these codes are follow-ons there (all when left out). */
export type SchemaSuspect = { range: SourceRange; codes?: readonly string[] };

export interface Suspects {
  /** Schema errors inside these ranges are follow-ons. */
  schema: SchemaSuspect[];
  /** Rule errors inside these ranges, or citing a position inside them, are follow-ons. */
  rules: SourceRange[];
  /** The merged view lost part of a section (two `services:` keys): no rule can be trusted. */
  skipRules: boolean;
}

export const noSuspects = (): Suspects => ({ schema: [], rules: [], skipRules: false });

const compare = (a: SourceRef, b: SourceRef): number => a.line - b.line || a.col - b.col;

/**
 * Whether a position is inside any of `ranges`: sorted by start, each with the furthest end of it
 * and those before it, a binary search, so that N diagnostics among S suspect ranges cost
 * O((N + S) log S), not O(N x S).
 */
function rangeIndex(ranges: readonly SourceRange[]): (p: SourceRef) => boolean {
  const sorted = [...ranges].sort((a, b) => compare(a.start, b.start));
  const reach: SourceRef[] = [];
  for (const r of sorted) reach.push(reach.length > 0 && compare(r.end, reach.at(-1)!) <= 0 ? reach.at(-1)! : r.end);
  return (p) => {
    let [lo, hi] = [0, sorted.length];
    while (lo < hi) {
      countWork(1);
      const mid = (lo + hi) >> 1;
      if (compare(sorted[mid]!.start, p) <= 0) lo = mid + 1;
      else hi = mid;
    }
    return lo > 0 && compare(p, reach[lo - 1]!) <= 0;
  };
}

/** One index per group (a file; a file and a code), made on the first question: the lists are complete by then. */
const indexes = new WeakMap<readonly unknown[], Map<string, (p: SourceRef) => boolean>>();

function indexOf<T>(items: readonly T[], groups: (item: T) => string[], range: (item: T) => SourceRange): Map<string, (p: SourceRef) => boolean> {
  let made = indexes.get(items);
  if (!made) {
    const grouped = new Map<string, SourceRange[]>();
    for (const item of items) {
      for (const group of groups(item)) {
        const list = grouped.get(group);
        if (list) list.push(range(item));
        else grouped.set(group, [range(item)]);
      }
    }
    indexes.set(items, (made = new Map([...grouped].map(([key, ranges]) => [key, rangeIndex(ranges)]))));
  }
  return made;
}

/** Positions a message cites (`FILE:LINE:COL`, as rules name the other place of a clash). */
function citedPositions(message: string, file: string): SourceRef[] {
  const out: SourceRef[] = [];
  for (let at = message.indexOf(`${file}:`); at >= 0; at = message.indexOf(`${file}:`, at + 1)) {
    const m = /^(\d+):(\d+)/.exec(message.slice(at + file.length + 1));
    if (m) out.push({ file, line: Number(m[1]), col: Number(m[2]) });
  }
  return out;
}

/** True when a schema diagnostic is about a suspect place. */
export function isSchemaFollowOn(d: Diagnostic, suspects: readonly SchemaSuspect[]): boolean {
  if (suspects.length === 0 || !d.source) return false;
  // A suspect of every code is filed under its file; one of some codes under the file and each code.
  const index = indexOf(suspects, (s) => (s.codes ? s.codes.map((code) => `${s.range.start.file}\0${code}`) : [s.range.start.file]), (s) => s.range);
  const { source } = d;
  return index.get(source.file)?.(source) === true || index.get(`${source.file}\0${d.code}`)?.(source) === true;
}

/** True when a rule's diagnostic is about a suspect place. */
export function isRuleFollowOn(d: Diagnostic, ranges: readonly SourceRange[]): boolean {
  if (ranges.length === 0) return false;
  const index = indexOf(ranges, (r) => [r.start.file], (r) => r);
  const places = d.source ? [d.source] : [];
  for (const file of index.keys()) places.push(...citedPositions(d.message, file));
  return places.some((p) => index.get(p.file)?.(p) === true);
}
