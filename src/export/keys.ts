// Config keys for exported resources, derived from their live names. A key must match
// KEY_PATTERN (`^[a-z][a-z0-9-]{0,62}$`) and be unique within its scope (a top kind's entries, or
// those of one parent); the `name:` field keeps the exact live name whenever it differs.
import { KEY_PATTERN } from '../model/index.js';

export const MAX_KEY_LENGTH = 63;

export interface Named {
  id: string;
  name: string;
}

const MARKS = /\p{M}+/gu;

/** Cuts to `max` characters without leaving a trailing hyphen. */
function cut(text: string, max: number): string {
  return text.slice(0, max).replace(/-+$/, '');
}

/**
 * The key a name slugs to before de-duplication: accents folded (é -> e, ﬁ -> fi), lowercased,
 * every run of characters outside `[a-z0-9]` turned into one hyphen, hyphens trimmed at both
 * ends, `<prefix>-` put in front when it does not start with a letter (`<prefix>` alone when
 * nothing is left), and cut to 63 characters.
 */
export function slugKey(name: string, prefix: string): string {
  const folded = name.normalize('NFKD').replace(MARKS, '').toLowerCase().normalize('NFKD').replace(MARKS, '');
  const slug = folded.replace(/[^a-z0-9]+/g, '-').replace(/^-+|-+$/g, '');
  if (slug === '') return prefix;
  return cut(/^[a-z]/.test(slug) ? slug : `${prefix}-${slug}`, MAX_KEY_LENGTH);
}

/** `<base>-<n>`, the base cut so that the whole stays within 63 characters. */
export function suffixedKey(base: string, n: number): string {
  const suffix = `-${n}`;
  return `${cut(base, MAX_KEY_LENGTH - suffix.length)}${suffix}`;
}

const compareText = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

/**
 * Unique keys for `items` (one scope), independent of the input order:
 * - `reserved` (ID -> key, e.g. from an existing lockfile) is kept as is;
 * - the others are ranked: names that already are a valid key first (so `billing-db` keeps the
 *   key `billing-db` beside `Billing DB`), then by name, then by ID (code-unit order);
 * - in rank order each takes its slug if free; the rest then take `<slug>-2`, `<slug>-3`, ...,
 *   skipping every key already given, so a suffix never steals another name's own slug.
 */
export function deriveKeys(items: readonly Named[], prefix: string, reserved: ReadonlyMap<string, string> = new Map()): Map<string, string> {
  const keys = new Map<string, string>();
  const taken = new Set<string>();
  for (const item of items) {
    const key = reserved.get(item.id);
    if (key !== undefined && KEY_PATTERN.test(key) && !taken.has(key)) {
      keys.set(item.id, key);
      taken.add(key);
    }
  }
  const ranked = items
    .filter((item) => !keys.has(item.id))
    .map((item) => ({ item, slug: slugKey(item.name, prefix) }))
    .sort((a, b) => Number(a.slug !== a.item.name) - Number(b.slug !== b.item.name) || compareText(a.item.name, b.item.name) || compareText(a.item.id, b.item.id));
  const pending: typeof ranked = [];
  for (const entry of ranked) {
    if (taken.has(entry.slug)) pending.push(entry);
    else {
      keys.set(entry.item.id, entry.slug);
      taken.add(entry.slug);
    }
  }
  for (const { item, slug } of pending) {
    let n = 2;
    while (taken.has(suffixedKey(slug, n))) n++;
    const key = suffixedKey(slug, n);
    keys.set(item.id, key);
    taken.add(key);
  }
  return keys;
}

/** `METRICS_DB_PASSWORD` for the key `metrics-db`: the placeholder's environment variable. */
export function passwordEnvName(key: string): string {
  return `${key.toUpperCase().replace(/-/g, '_')}_PASSWORD`;
}
