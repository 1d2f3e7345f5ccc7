// Which live resources an export can write. The config loader refuses some things the API
// allows (two services with one name, overlapping VPC blocks, names it cannot hold), so of each
// clash one resource is exported and the others stay unmanaged, each with a note saying why.
import { cidrsOverlap, isCidr, parseCidr, type Cidr, type LiveVpc } from '../model/index.js';
import { quotedName } from './yaml-text.js';

/** What the config schema accepts as a region code (SPEC section 12). */
export { REGION_CODE_REGEX as REGION_PATTERN } from '../model/index.js';

/** Names the config can hold: 1-128 characters (code points, as JSON Schema counts them). */
export function isWritableName(name: string): boolean {
  const length = [...name].length;
  return length >= 1 && length <= 128;
}

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

/**
 * VPCs whose CIDR the loader accepts and that do not overlap a VPC kept before them (in `rank`
 * order); the others come back with the reason.
 */
export function keepDisjointVpcs(vpcs: readonly LiveVpc[], rank: (a: LiveVpc, b: LiveVpc) => number): { kept: LiveVpc[]; dropped: Array<{ vpc: LiveVpc; why: string }> } {
  const kept: Array<{ vpc: LiveVpc; cidr: Cidr }> = [];
  const dropped: Array<{ vpc: LiveVpc; why: string }> = [];
  for (const vpc of [...vpcs].sort(rank)) {
    const cidr = parseCidr(vpc.cidr);
    if (!isCidr(cidr)) {
      dropped.push({ vpc, why: `its CIDR ${quotedName(vpc.cidr)} ${cidr.message}` });
      continue;
    }
    const clash = kept.find((k) => cidrsOverlap(k.cidr, cidr));
    if (clash) dropped.push({ vpc, why: `its CIDR ${vpc.cidr} overlaps ${clash.vpc.cidr} of ${describeResource('VPC', clash.vpc.name, clash.vpc.id)}, and VPC blocks in a config must not overlap` });
    else kept.push({ vpc, cidr });
  }
  return { kept: kept.map((k) => k.vpc), dropped };
}
