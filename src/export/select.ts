// Which live resources an export can write. The config loader refuses some things the API
// allows (two services with one name, overlapping VPC blocks, names it cannot hold), so of each
// clash one resource is exported and the others stay unmanaged, each with a note saying why.
// What a kind cannot write, and what it cannot keep together, its folder says (`export`).
import { quotedName } from './yaml-text.js';

export const describeResource = (kind: string, name: string, id: string): string => `${kind} ${quotedName(name)} (${id})`;

const compareText = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

export interface Ranked {
  id: string;
  name: string;
}

/**
 * Ranks candidates for a clash: resources the existing lockfile binds first (a re-export keeps
 * what the team already manages), then by `tieBreak` (e.g. creation time), then by ID.
 */
export function rankBy<T extends Ranked>(bound: ReadonlySet<string>, tieBreak: (t: T) => string = () => ''): (a: T, b: T) => number {
  return (a, b) => Number(!bound.has(a.id)) - Number(!bound.has(b.id)) || compareText(tieBreak(a), tieBreak(b)) || compareText(a.id, b.id);
}

export interface UniqueNames<T> {
  kept: T[];
  /** Each dropped item with the kept item that holds its name. */
  dropped: Array<{ item: T; holder: T }>;
}

/** Keeps one item per name (the first in `rank` order). */
export function keepUniqueNames<T extends Ranked>(items: readonly T[], rank: (a: T, b: T) => number): UniqueNames<T> {
  const holders = new Map<string, T>();
  const out: UniqueNames<T> = { kept: [], dropped: [] };
  for (const item of [...items].sort(rank)) {
    const holder = holders.get(item.name);
    if (holder) out.dropped.push({ item, holder });
    else {
      holders.set(item.name, item);
      out.kept.push(item);
    }
  }
  return out;
}
