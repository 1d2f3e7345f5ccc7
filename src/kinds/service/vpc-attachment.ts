// A service's `vpc:` against its live attachment. A key resolves through the VPC's matched live
// ID; a VPC created in this plan has no ID yet, so the attach names it by address and waits.
import { vpcAddress, type ActionReason, type Address, type DesiredService, type LiveService, type LiveVpc, type ResourceRef } from '../../model/index.js';
import { liveKey, refTo, stableId, type PlanContext } from '../../planner/context.js';
import { change, draft, type Draft } from '../../planner/drafts.js';

const vpcGoing = (ctx: PlanContext, id: string) => ctx.going.get(liveKey('vpc', id));

/**
 * How a VPC ID reads in a plan: the address of a managed VPC, else the ID itself. A VPC this plan
 * deletes or replaces also shows its ID, so `vpc.main (1234567890) -> vpc.main` reads as a move.
 */
export function vpcLabel(ctx: PlanContext, id: string | null): string | null {
  if (id === null) return null;
  const going = vpcGoing(ctx, id);
  if (going) return `${going.address} (${id})`;
  for (const v of ctx.desired.vpcs) if (ctx.liveIds.get(v.address) === id) return v.address;
  return id;
}

/** The VPC a desired service should be attached to, `null` for none, `undefined` when unmanaged or unresolvable. */
export function desiredVpcRef(d: DesiredService, ctx: PlanContext): ResourceRef | null | undefined {
  if (d.vpc === undefined || d.vpc === null) return d.vpc;
  if ('id' in d.vpc) {
    if (vpcGoing(ctx, d.vpc.id)) {
      ctx.diagnostics.push({
        severity: 'error',
        code: 'vpc-going',
        address: d.address,
        message: `vpc: { id: "${d.vpc.id}" } names ${vpcGoing(ctx, d.vpc.id)!.address}, which this plan deletes or replaces; refer to it by its key instead`,
      });
      return undefined;
    }
    if (!ctx.index.vpc.has(d.vpc.id)) {
      const message = `vpc: { id: "${d.vpc.id}" }: project ${ctx.live.projectId} has no VPC with that ID`;
      ctx.diagnostics.push({ severity: 'error', code: 'vpc-ref', address: d.address, message, ...(d.source ? { source: d.source } : {}) });
      return undefined;
    }
    return { id: d.vpc.id };
  }
  const address = vpcAddress(d.vpc.key);
  // The set of desired addresses, not a walk of every configured VPC for each service.
  if (!ctx.matching.wanted.has(address)) {
    ctx.diagnostics.push({ severity: 'error', code: 'vpc-ref', address: d.address, message: `vpc: "${d.vpc.key}" is not a key under vpcs:` });
    return undefined;
  }
  if (ctx.matching.skipped.has(address)) return undefined;
  return refTo(ctx, address);
}

export function attachDraft(d: DesiredService, vpc: ResourceRef, reason: ActionReason, before: string | null, ctx: PlanContext): Draft {
  checkRegion(d, vpc, ctx);
  return draft({
    address: d.address,
    kind: 'service',
    op: 'attachServiceToVPC',
    reason,
    changes: [change('vpc', before, vpc.address ?? vpcLabel(ctx, vpc.id!))],
    refs: { target: refTo(ctx, d.address), vpc },
    request: vpc.id !== undefined ? { vpc_id: vpc.id } : {},
    ...(vpc.address !== undefined && vpc.id === undefined ? { needs: vpc.address } : {}),
  });
}

function detachDraft(address: Address, vpcId: string, after: string | null, reason: ActionReason, ctx: PlanContext): Draft {
  return draft({
    address,
    kind: 'service',
    op: 'detachServiceFromVPC',
    reason,
    changes: [change('vpc', vpcLabel(ctx, vpcId), after)],
    refs: { target: refTo(ctx, address), vpc: { id: vpcId } },
    request: { vpc_id: vpcId },
    frees: liveKey('vpc', vpcId),
  });
}

/** Attaching to a VPC of another region fails at the API (409); say so at plan time. */
function checkRegion(d: DesiredService, vpc: ResourceRef, ctx: PlanContext): void {
  const managed = ctx.desired.vpcs.find((x) => x.address === vpc.address);
  const v = managed ? { label: managed.address, regionCode: managed.regionCode } : vpcById(ctx, vpc.id);
  const live = d.regionCode === undefined ? (ctx.index.service.get(stableId(ctx, d.address) ?? '') as LiveService | undefined) : undefined;
  const region = d.regionCode ?? live?.regionCode;
  if (v === undefined || region === undefined || region === v.regionCode) return;
  ctx.diagnostics.push({
    severity: 'error',
    code: 'vpc-region',
    address: d.address,
    message: `cannot attach to ${v.label}: the service is in ${region} and the VPC in ${v.regionCode}`,
  });
}

function vpcById(ctx: PlanContext, id: string | undefined): { label: string; regionCode: string } | undefined {
  const live = id === undefined ? undefined : (ctx.index.vpc.get(id) as LiveVpc | undefined);
  return live && { label: `VPC ${live.id} ("${live.name}")`, regionCode: live.regionCode };
}

function followsVpc(d: DesiredService, l: LiveService, vpc: Address, ctx: PlanContext): boolean {
  const region = ctx.desired.vpcs.find((v) => v.address === vpc)?.regionCode;
  if (region === undefined || region === (d.regionCode ?? l.regionCode)) return true;
  ctx.diagnostics.push({
    severity: 'warning',
    code: 'vpc-region',
    address: d.address,
    message: `${vpc} is replaced in ${region}, another region than the service's, so the service is detached from it and not attached again`,
  });
  return false;
}

/** Detach and/or attach drafts that bring a live service's attachment to the desired one. */
export function planServiceVpc(d: DesiredService, l: LiveService, ctx: PlanContext): Draft[] {
  const going = l.vpcId === null ? undefined : vpcGoing(ctx, l.vpcId);
  let want: ResourceRef | null | undefined;
  let reason: ActionReason = 'changed';
  if (d.vpc === undefined && going) {
    // Unmanaged attachment to a VPC this plan removes: the delete needs it gone. A replaced VPC
    // is followed, since it is the same logical VPC, unless it moves to another region.
    want = going.replaced && followsVpc(d, l, going.address, ctx) ? { address: going.address } : null;
    reason = going.replaced ? ctx.fresh.get(going.address)! : 'removed';
  } else want = desiredVpcRef(d, ctx);
  if (want === undefined) return [];
  if (want === null) return l.vpcId === null ? [] : [detachDraft(d.address, l.vpcId, null, reason, ctx)];
  if (want.id !== undefined && want.id === l.vpcId) return [];
  // Worded only for a change: finding a VPC's label walks every configured VPC.
  const label = want.address ?? vpcLabel(ctx, want.id!);
  const detach = l.vpcId === null ? [] : [detachDraft(d.address, l.vpcId, label, reason, ctx)];
  return [...detach, attachDraft(d, want, reason, vpcLabel(ctx, l.vpcId), ctx)];
}

/**
 * A VPC this plan deletes or replaces must first lose its attachments; a service dbform does not
 * manage would make the delete fail (409), so the plan says so now.
 */
export function checkAttachedServices(ctx: PlanContext): void {
  const vpcsGoing = [...ctx.going].filter(([key]) => key.startsWith('vpc:'));
  // Usually none: then the managed services (every bound service) are not listed at all.
  if (vpcsGoing.length === 0) return;
  const managed = new Set<string>();
  for (const [address, id] of ctx.liveIds) if (address.startsWith('service.')) managed.add(id);
  for (const [key, going] of vpcsGoing) {
    const vpcId = key.slice('vpc:'.length);
    for (const s of ctx.index.service.values() as Iterable<LiveService>) {
      if (s.vpcId !== vpcId || managed.has(s.id)) continue;
      ctx.diagnostics.push({
        severity: 'error',
        code: 'vpc-blocked',
        address: going.address,
        message: `cannot delete the live VPC ${vpcId}: service "${s.name}" (${s.id}), which dbform does not manage, is attached to it; detach it first`,
      });
    }
  }
}
