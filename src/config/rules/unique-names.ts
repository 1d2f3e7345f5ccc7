// Names (the `name` field, or the key when left out) are how dbform adopts live resources, so
// two resources of one kind with one name would make adoption ambiguous.
import type { AnyKind } from '../../kinds/index.js';
import { nounOf } from '../../model/address.js';
import type { Diagnostic } from '../../model/diagnostics.js';
import { eachCollection } from '../kind-entries.js';
import { describeSource, diagnosticAt, sourceOf, type Entry, type MergedConfig } from '../merge.js';
import { nameOf } from './rule.js';

const scope = (def: AnyKind) => `${nounOf(def.kind)} names must be unique ${def.parent === undefined ? 'in the project' : `within their ${nounOf(def.parent)}`}`;

/** Adds to `errors` an error for each entry whose name an earlier one has; `scope` (the sentence's end) is worded only then. */
function findDuplicates(entries: readonly Entry[], label: (e: Entry) => string, def: AnyKind, errors: Diagnostic[]): void {
  const seen = new Map<string, Entry>();
  for (const entry of entries) {
    const name = nameOf(entry);
    if (name === undefined) continue;
    const first = seen.get(name);
    if (!first) {
      seen.set(name, entry);
      continue;
    }
    const explicit = entry.value.name !== undefined;
    const firstSource = sourceOf(first.origin, first.value.name !== undefined ? ['name'] : [], first.value.name !== undefined ? 'value' : 'key');
    const message = `${label(entry)}: the name ${JSON.stringify(name)} is already used by ${label(first)} (${describeSource(firstSource)}); ${scope(def)}`;
    errors.push(diagnosticAt(entry.origin, explicit ? ['name'] : [], message, 'duplicate-name', { target: explicit ? 'value' : 'key' }));
  }
}

/** Names are unique among the entries of a kind named by `name`: in the project, or within their parent. */
export function uniqueNames(config: MergedConfig): Diagnostic[] {
  const out: Diagnostic[] = [];
  eachCollection(config, (def, entries, label) => {
    if (def.naming.key === 'name') findDuplicates(entries, label, def, out);
  });
  return out;
}
