// Managed resources still in transition (SPEC section 5): desired, matched to a live resource
// this plan keeps (not created or replaced by it), and in a transitional status (its kind's
// `live.settling`). The plan lists them so that apply can wait for them before it says the
// project is settled, each with the operation an earlier apply left pending on it, if any (SPEC
// section 14). Those awaiting others (its kind's `live.awaiting`, SPEC section 15) are listed
// too, so that the plan shows them, but apply never waits for them.
import { KINDS, type AnyKind } from '../kinds/index.js';
import { compareAddresses, type Address, type AwaitingResource, type SettlingResource } from '../model/index.js';
import type { LiveResource, Match, PlanContext } from './context.js';

type StatusLive = LiveResource & { status: string };

/** Each kept match whose live resource `make` describes, sorted by address. */
function pick<T extends { address: Address }>(ctx: PlanContext, keep: (address: Address) => boolean, make: (def: AnyKind, m: Match<unknown, unknown>, l: StatusLive) => T | undefined): T[] {
  const out: T[] = [];
  const kept = (address: Address) => keep(address) && !ctx.fresh.has(address) && !ctx.matching.skipped.has(address);
  for (const def of KINDS) {
    for (const m of ctx.matching.matches[def.kind]) {
      const l = m.live as StatusLive | undefined;
      // `make` first: it reads the live status only, and says no to nearly every resource.
      const item = l && make(def, m, l);
      if (item !== undefined && kept(m.address)) out.push(item);
    }
  }
  return out.sort((a, b) => compareAddresses(a.address, b.address));
}

const parentOf = (def: AnyKind, l: StatusLive) => {
  const parentId = def.live.parentId?.(l) as string | undefined;
  return parentId !== undefined ? { parentId } : {};
};

export function findSettling(ctx: PlanContext, keep: (address: Address) => boolean): SettlingResource[] {
  return pick(ctx, keep, (def, m, l) => {
    if (!def.live.settling?.(l)) return undefined;
    const op = m.entry?.pending?.op;
    return { address: m.address, kind: def.kind, id: l.id, ...parentOf(def, l), status: l.status, ...(op !== undefined ? { op } : {}) };
  });
}

export function findAwaiting(ctx: PlanContext, keep: (address: Address) => boolean): AwaitingResource[] {
  return pick(ctx, keep, (def, m, l) => {
    const awaits = def.live.awaiting?.(l) as string | undefined;
    return awaits === undefined ? undefined : { address: m.address, kind: def.kind, id: l.id, ...parentOf(def, l), status: l.status, awaits };
  });
}
