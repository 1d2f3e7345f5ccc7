// Follow-on errors: what the schema and the rules would say about a node that an earlier problem
// already explains (a duplicate key, a merge that brought nothing in). Reporting them would send
// the user after the wrong fix, so the loader drops diagnostics that sit in, or point into, the
// suspect ranges.
import type { Diagnostic, SourceRef } from '../model/diagnostics.js';

/** From `start` to `end` (inclusive) in one file. */
export interface SourceRange {
  start: SourceRef;
  end: SourceRef;
}

export interface SchemaSuspect {
  range: SourceRange;
  /** Only these codes are follow-ons there (all when left out). */
  codes?: readonly string[];
}

export interface Suspects {
  /** Schema errors inside these ranges are follow-ons. */
  schema: SchemaSuspect[];
  /** Rule errors inside these ranges, or citing a position inside them, are follow-ons. */
  rules: SourceRange[];
  /** The merged view lost part of a section (two `services:` keys): no rule can be trusted. */
  skipRules: boolean;
}

export const noSuspects = (): Suspects => ({ schema: [], rules: [], skipRules: false });

const before = (a: SourceRef, b: SourceRef): boolean => a.line < b.line || (a.line === b.line && a.col <= b.col);

export function isWithin(source: SourceRef | undefined, range: SourceRange): boolean {
  return source !== undefined && source.file === range.start.file && before(range.start, source) && before(source, range.end);
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
  return suspects.some((s) => isWithin(d.source, s.range) && (s.codes === undefined || (d.code !== undefined && s.codes.includes(d.code))));
}

/** True when a rule's diagnostic is about a suspect place. */
export function isRuleFollowOn(d: Diagnostic, ranges: readonly SourceRange[]): boolean {
  return ranges.some((r) => isWithin(d.source, r) || citedPositions(d.message, r.start.file).some((p) => isWithin(p, r)));
}
