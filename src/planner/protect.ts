// `protect` lives in the config and in the lockfile; the lockfile keeps it after the block is
// deleted, so unprotecting takes an applied `protect: false` (SPEC section 2).
import { KINDS } from '../kinds/index.js';
import { isProtectedInState, type Address, type Binding } from '../model/index.js';
import type { Match, PlanContext } from './context.js';
import type { ProtectSource } from './risk.js';

const allMatches = (ctx: PlanContext): Array<Match<unknown, unknown>> => KINDS.flatMap((k) => ctx.matching.matches[k.kind]);

export function protectionSources(ctx: PlanContext): Map<Address, ProtectSource> {
  const out = new Map<Address, ProtectSource>();
  for (const m of allMatches(ctx)) {
    const configured = (m.desired as { protect?: boolean }).protect;
    if (configured === true) out.set(m.address, 'config');
    else if (configured === undefined && m.entry?.protect === true) out.set(m.address, 'lockfile');
  }
  // A retired original's resources are protected with it (SPEC section 17).
  for (const r of ctx.matching.removed) if (isProtectedInState(ctx.lock, r.address)) out.set(r.address, 'lockfile');
  return out;
}

/** A protect flag that differs from the lockfile's on a resource that stays: a lockfile-only change. */
export function protectBindings(ctx: PlanContext): Binding[] {
  const out: Binding[] = [];
  for (const m of allMatches(ctx)) {
    const configured = (m.desired as { protect?: boolean }).protect;
    // An adoption (of a gone ID's namesake too) records protect in its own binding.
    if (configured === undefined || !m.live || !m.entry || m.how === 'adopt' || ctx.fresh.has(m.address)) continue;
    if (configured !== (m.entry.protect ?? false)) out.push({ kind: 'protect', address: m.address, id: m.entry.id, protect: configured });
  }
  return out;
}

/** Lockfile entries whose resource is gone and no longer configured (retired ones too): dropped from the lockfile. */
export function forgetBindings(ctx: PlanContext): Binding[] {
  return [...ctx.matching.removed, ...ctx.matching.retired].filter((r) => !r.live).map((r) => ({ kind: 'forget', address: r.address, id: r.entry.id }));
}
