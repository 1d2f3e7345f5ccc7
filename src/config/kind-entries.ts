// The entries of each kind in a merged config, over the kind registry: a top kind's, a parent
// entry's children, and every collection parents first with the label messages give an entry.
import { childKinds, configKey, TOP_KINDS, type AnyKind } from '../kinds/index.js';
import { isRecord, type Entry, type MergedConfig, type Origin } from './merge.js';

type PathSeg = string | number;

/** The entries of a top kind (the merged config keeps one list per top kind, by its listKey). */
export const topEntries = (config: MergedConfig, def: AnyKind): Entry[] => (config as unknown as Record<string, Entry[]>)[def.listKey]!;

// Several rules walk the children of every parent: build their entries once per parent.
const childCache = new WeakMap<Entry, Map<string, Entry[]>>();

/**
 * The entries of `def` under a parent entry, each with its origin: a map's by key (a value that is
 * not a mapping reads as `{}`, which the schema reports), a list's by index (key: its index;
 * items that are not mappings are left out).
 */
export function childEntries(parent: Entry, def: AnyKind): Entry[] {
  let byKind = childCache.get(parent);
  if (!byKind) childCache.set(parent, (byKind = new Map()));
  const cached = byKind.get(def.kind);
  if (cached) return cached;
  const key = configKey(def);
  const raw = isRecord(parent.value) ? parent.value[key] : undefined;
  const { file, locator, path } = parent.origin;
  const at = (k: PathSeg): Origin => ({ file, locator, path: [...path, key, k] });
  // Plain loops: this runs for each of 10,000 services.
  const entries: Entry[] = [];
  if (def.config.shape === 'map') {
    if (isRecord(raw)) {
      for (const k of Object.keys(raw)) {
        const value = raw[k];
        entries.push({ key: k, value: isRecord(value) ? value : {}, origin: at(k) });
      }
    }
  } else if (Array.isArray(raw)) {
    for (let i = 0; i < raw.length; i++) {
      const value: unknown = raw[i];
      if (isRecord(value)) entries.push({ key: String(i), value, origin: at(i) });
    }
  }
  byKind.set(def.kind, entries);
  return entries;
}

/**
 * Every collection of entries, parents before their children: a top kind's, then under each of its
 * entries each child kind's. `label` names an entry as messages do (`services.db`,
 * `vpcs.main.<list>[0]`), made only when asked: most entries have nothing to report.
 */
export function eachCollection(config: MergedConfig, visit: (def: AnyKind, entries: Entry[], label: (e: Entry) => string, parent?: Entry) => void): void {
  const walk = (def: AnyKind, entries: Entry[], label: (e: Entry) => string, parent?: Entry) => {
    visit(def, entries, label, parent);
    for (const child of childKinds(def.kind)) for (const e of entries) walk(child, childEntries(e, child), (c) => entryLabel(label(e), child)(c), e);
  };
  for (const top of TOP_KINDS) walk(top, topEntries(config, top), entryLabel(undefined, top));
}

/** How messages name an entry of `def` under a parent named `parent`: `<parent>.<key>.<map>.<key>`, `<parent>.<key>.<list>[0]`. */
export function entryLabel(parent: string | undefined, def: AnyKind): (e: Entry) => string {
  const at = parent === undefined ? configKey(def) : `${parent}.${configKey(def)}`;
  return def.config.shape === 'map' ? (e) => `${at}.${e.key}` : (e) => `${at}[${e.key}]`;
}
