// The rules each kind declares beyond the schema, run over its entries: its fields' (a size pair,
// `check` of a field descriptor) on each entry, and its own (`config.check` of its definition) on
// the entries of each parent, or all of a top kind's.
import { childKinds, kindDef, TOP_KINDS, type AnyKind, type ConfigKit, type ConfigProblem } from '../../kinds/index.js';
import type { Diagnostic } from '../../model/diagnostics.js';
import type { FieldDescriptor } from '../../model/fields/index.js';
import { childEntries, entryLabel, topEntries } from '../kind-entries.js';
import { describeSource, diagnosticAt, sourceOf, type Entry, type MergedConfig } from '../merge.js';
import type { Rule } from './rule.js';

/** `label` is asked for only when there is a problem to name: most entries have none. */
function fieldProblems(def: AnyKind, entry: Entry, label: () => string, out: Diagnostic[]): void {
  for (const f of def.fields.fields as Array<FieldDescriptor<unknown, unknown, unknown>>) {
    const p = f.check?.(entry.value);
    if (p) out.push(diagnosticAt(entry.origin, [p.key], `${label()}.${p.key}: ${p.message}`, p.code, p.severity ? { severity: p.severity } : {}));
  }
}

// The check is given the config's own entries, so every entry it names is one of them.
function kindProblems(config: MergedConfig, def: AnyKind, entries: Entry[], label: (e: Entry) => string, out: Diagnostic[]): void {
  if (!def.config.check) return;
  const kit: ConfigKit = {
    where: (e) => label(e as Entry),
    place: (e, path) => describeSource(sourceOf((e as Entry).origin, path)),
    entriesOf: (kind) => topEntries(config, kindDef(kind)),
  };
  const at = (p: ConfigProblem) => diagnosticAt((p.entry as Entry).origin, p.path, p.message, p.code, p.severity ? { severity: p.severity } : {});
  for (const p of def.config.check(entries, kit)) out.push(at(p));
}

function check(config: MergedConfig): Diagnostic[] {
  const out: Diagnostic[] = [];
  const walk = (def: AnyKind, entries: Entry[], label: (e: Entry) => string) => {
    kindProblems(config, def, entries, label, out);
    const children = childKinds(def.kind);
    for (const e of entries) {
      fieldProblems(def, e, () => label(e), out);
      for (const child of children) walk(child, childEntries(e, child), (c) => entryLabel(label(e), child)(c));
    }
  };
  for (const top of TOP_KINDS) walk(top, topEntries(config, top), entryLabel(undefined, top));
  return out;
}

export const kindRulesRule: Rule = { code: 'kind-rules', check };
