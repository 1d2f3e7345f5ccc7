// Managed resources still in transition (SPEC section 5): desired, matched to a live resource
// this plan keeps (not created or replaced by it), and in a transitional status (its kind's
// `live.settling`). The plan lists them so that apply can wait for them before it says the
// project is settled, each with the operation an earlier apply left pending on it, if any (SPEC
// section 14).
import { KINDS } from '../kinds/index.js';
import { compareAddresses, type Address, type SettlingResource } from '../model/index.js';
import type { LiveResource, PlanContext } from './context.js';

export function findSettling(ctx: PlanContext, keep: (address: Address) => boolean): SettlingResource[] {
  const out: SettlingResource[] = [];
  const kept = (address: Address) => keep(address) && !ctx.fresh.has(address) && !ctx.matching.skipped.has(address);
  for (const def of KINDS) {
    if (!def.live.settling) continue;
    for (const m of ctx.matching.matches[def.kind]) {
      const l = m.live as (LiveResource & { status: string }) | undefined;
      if (!l || !kept(m.address) || !def.live.settling(l)) continue;
      const parentId = def.live.parentId?.(l);
      const op = m.entry?.pending?.op;
      out.push({ address: m.address, kind: def.kind, id: l.id, ...(parentId !== undefined ? { parentId } : {}), status: l.status, ...(op !== undefined ? { op } : {}) });
    }
  }
  return out.sort((a, b) => compareAddresses(a.address, b.address));
}
