// The rules each kind declares beyond the schema, run over its entries: its fields' (a size pair,
// `check` of a field descriptor) on each entry, and its own (`config.check` of its definition) on
// the entries of each parent, or all of a top kind's.
import { kindDef, type AnyKind, type ConfigKit, type ConfigProblem } from '../../kinds/index.js';
import type { Diagnostic } from '../../model/diagnostics.js';
import type { FieldDescriptor } from '../../model/fields/index.js';
import { eachCollection, topEntries } from '../kind-entries.js';
import { describeSource, diagnosticAt, sourceOf, type Entry, type MergedConfig } from '../merge.js';

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

export function kindRules(config: MergedConfig): Diagnostic[] {
  const out: Diagnostic[] = [];
  eachCollection(config, (def, entries, label) => {
    kindProblems(config, def, entries, label, out);
    for (const e of entries) fieldProblems(def, e, () => label(e), out);
  });
  return out;
}
