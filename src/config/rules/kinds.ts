// The rules each kind declares beyond the schema, run over its entries: its fields' (a size pair,
// `check` of a field descriptor) on each entry, and its own (`config.check` of its definition) on
// the entries of each parent, or all of a top kind's.
import { childKinds, TOP_KINDS, type AnyKind, type ConfigEntry, type ConfigProblem } from '../../kinds/index.js';
import type { Diagnostic } from '../../model/diagnostics.js';
import type { FieldDescriptor } from '../../model/fields/index.js';
import { childEntries, entryLabel, topEntries } from '../kind-entries.js';
import { diagnosticAt, type Entry, type MergedConfig } from '../merge.js';
import type { Rule } from './rule.js';

function fieldProblems(def: AnyKind, entry: Entry, label: string): Diagnostic[] {
  const out: Diagnostic[] = [];
  for (const f of def.fields.fields as Array<FieldDescriptor<unknown, unknown, unknown>>) {
    const p = f.check?.(entry.value);
    if (p) out.push(diagnosticAt(entry.origin, [p.key], `${label}.${p.key}: ${p.message}`, p.code, p.severity ? { severity: p.severity } : {}));
  }
  return out;
}

function kindProblems(def: AnyKind, entries: Entry[], label: (e: Entry) => string): Diagnostic[] {
  const byEntry = new Map<ConfigEntry, Entry>(entries.map((e) => [e, e]));
  const at = (p: ConfigProblem) => diagnosticAt(byEntry.get(p.entry)!.origin, p.path, p.message, p.code, p.severity ? { severity: p.severity } : {});
  return (def.config.check?.(entries, (e) => label(byEntry.get(e)!)) ?? []).map(at);
}

function check(config: MergedConfig): Diagnostic[] {
  const out: Diagnostic[] = [];
  const walk = (def: AnyKind, entries: Entry[], label: (e: Entry) => string) => {
    out.push(...kindProblems(def, entries, label));
    for (const e of entries) {
      out.push(...fieldProblems(def, e, label(e)));
      for (const child of childKinds(def.kind)) walk(child, childEntries(e, child), entryLabel(label(e), child));
    }
  };
  for (const top of TOP_KINDS) walk(top, topEntries(config, top), entryLabel(undefined, top));
  return out;
}

export const kindRulesRule: Rule = { code: 'kind-rules', check };
