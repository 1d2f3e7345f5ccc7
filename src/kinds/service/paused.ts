// Start and stop (SPEC section 3): a service that will be paused gets its other changes first;
// one that will be started gets them after the start; one that is and stays paused but needs
// READY-only changes is started, changed and stopped again, with a warning.
import { isLivePaused, type ActionReason, type Address, type DesiredService, type LiveService, type OperationId, type OperationSpec } from '../../model/index.js';
import { refTo, type Match, type PlanContext } from '../../planner/context.js';
import { change, draft, type Draft } from '../../planner/drafts.js';

/** Services that some draft needs READY: its own ops, its children's and forks taken from it. */
function servicesNeedingReady(drafts: readonly Draft[], ops: Readonly<Record<OperationId, OperationSpec>>): Set<Address> {
  const out = new Set<Address>();
  for (const d of drafts) {
    if (!ops[d.op].needsReady) continue;
    if (d.kind === 'service' && d.op !== 'forkService') out.add(d.address);
    if (d.owner !== undefined) out.add(d.owner);
    if (d.forkParent !== undefined) out.add(d.forkParent);
  }
  return out;
}

function startStop(address: Address, op: 'startService' | 'stopService', reason: ActionReason, ctx: PlanContext): Draft {
  const paused = op === 'stopService';
  return draft({ address, kind: 'service', op, reason, changes: [change('paused', !paused, paused)], refs: { target: refTo(ctx, address) } });
}

function pausedDrafts(m: Match<DesiredService, LiveService>, needReady: Set<Address>, ctx: PlanContext): Draft[] {
  const d = m.desired;
  const freshReason = ctx.fresh.get(d.address);
  if (freshReason !== undefined || !m.live) return d.paused ? [startStop(d.address, 'stopService', freshReason ?? 'missing', ctx)] : [];
  const livePaused = isLivePaused(m.live);
  const wantPaused = d.paused ?? livePaused;
  if (!livePaused) return wantPaused ? [startStop(d.address, 'stopService', 'changed', ctx)] : [];
  if (!wantPaused) return [startStop(d.address, 'startService', 'changed', ctx)];
  if (!needReady.has(d.address)) return [];
  ctx.diagnostics.push({
    severity: 'warning',
    code: 'wake-paused',
    address: d.address,
    message: 'the service is paused and stays paused, but some changes need it READY: the plan starts it, makes them, and stops it again',
  });
  return [
    startStop(d.address, 'startService', 'wake-for-changes', ctx),
    startStop(d.address, 'stopService', 'restore-paused', ctx),
  ];
}

export function planPaused(ctx: PlanContext, drafts: readonly Draft[]): Draft[] {
  const needReady = servicesNeedingReady(drafts, ctx.operations);
  const out: Draft[] = [];
  for (const m of ctx.matching.matches.service as Array<Match<DesiredService, LiveService>>) out.push(...pausedDrafts(m, needReady, ctx));
  return out;
}
