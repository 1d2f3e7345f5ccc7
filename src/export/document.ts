// The export as plain data, between the live state and the YAML text: what each config entry
// holds, and the comments that go with it, as a tree of the kinds' collections (src/kinds).
// Fields left undefined are not written (unmanaged).
import type { ExportedField, Kind } from '../model/index.js';

export type { ExportedField };

export interface ExportedEntry {
  /** Its config key (a map kind's entry), or the value of the field that identifies it (a list kind's). */
  key: string;
  id: string;
  /** Its managed fields as written, in the order of SPEC section 1 (its kind's field descriptors). */
  fields: ExportedField[];
  /** Comments written first inside the entry (lineage, a failed status, fields left unmanaged and why). */
  comments: string[];
  /** The collections of the kinds that belong to its kind, in registry order. */
  children: ExportedCollection[];
}

export interface ExportedCollection {
  kind: Kind;
  entries: ExportedEntry[];
}

export interface ExportDocument {
  projectId: string;
  /** The top kinds' collections, in registry order. */
  collections: ExportedCollection[];
  /** Live resources not exported, and why: written in the header and reported on stderr. */
  skipped: string[];
  /** Addresses of the previous state that a restore retired and whose resources are live: kept bound, outside the YAML. */
  retained: string[];
}

/** How many entries of each kind the document holds. */
export function countResources(doc: ExportDocument): Partial<Record<Kind, number>> {
  const out: Partial<Record<Kind, number>> = {};
  const count = (c: ExportedCollection) => {
    out[c.kind] = (out[c.kind] ?? 0) + c.entries.length;
    for (const e of c.entries) e.children.forEach(count);
  };
  doc.collections.forEach(count);
  return out;
}
