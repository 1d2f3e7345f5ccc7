// A service born as a fork (SPEC sections 1 and 3): which service is its parent, whether the
// parent can be forked from, and whether a PITR target time can be met. A parent the config
// manages, named by key or by an ID this plan binds to a desired address, is ordered like any
// other dependency (start, fork, stop for a paused one); a parent dbform does not manage must be
// READY already, since dbform will not start it. Services are planned fork parents first, so a
// fork sees whether its parent is created afresh.
import {
  createBody,
  parseRfc3339,
  serviceAddress,
  serviceTypeOf,
  typeMatches,
  type ActionReason,
  type Address,
  type DesiredService,
  type ForkSource,
  type LiveService,
  type ResourceRef,
} from '../../model/index.js';
import { refTo, stableId, type Match, type PlanContext } from '../../planner/context.js';
import { change, draft, type Draft } from '../../planner/drafts.js';
import { SERVICE_FIELDS } from './fields.js';

/** A fork's parent as the plan sees it. */
interface ForkParent {
  ref: ResourceRef;
  /** Set when the config manages the parent: the fork is ordered after its READY point. */
  address?: Address;
  /** The live parent, when it exists now and is not replaced by this plan. */
  live?: LiveService;
  serviceType?: string;
  regionCode?: string;
  /** How messages name it: `service.db` or `service kd9w2xp4mz`. */
  label: string;
}

/**
 * The desired address of the parent a `fork.from` names: its key, or the address this plan binds
 * the given service ID to (by lockfile, move or adoption). Undefined for a service dbform does
 * not manage.
 */
function forkParentAddress(from: ForkSource, ctx: Pick<PlanContext, 'boundTo'>): Address | undefined {
  return 'key' in from ? serviceAddress(from.key) : ctx.boundTo('service', from.serviceId);
}

/** The services' matches with every fork parent the config manages before its forks. */
export function forkParentsFirst(services: Array<Match<DesiredService, LiveService>>, ctx: PlanContext): Array<Match<DesiredService, LiveService>> {
  // No fork (the usual config): the order stands, and no index of the services is made.
  if (!services.some((m) => m.desired.fork !== undefined)) return services;
  const byAddress = new Map(services.map((m) => [m.address, m]));
  const done = new Set<Address>();
  const out: Array<Match<DesiredService, LiveService>> = [];
  const visit = (m: Match<DesiredService, LiveService>, depth: number) => {
    if (done.has(m.address) || depth > services.length) return;
    const from = m.desired.fork?.from;
    const parentAddress = from ? forkParentAddress(from, ctx) : undefined;
    const parent = parentAddress !== undefined ? byAddress.get(parentAddress) : undefined;
    if (parent) visit(parent, depth + 1);
    if (done.has(m.address)) return;
    done.add(m.address);
    out.push(m);
  };
  for (const m of services) visit(m, 0);
  return out;
}

function fail(d: DesiredService, ctx: PlanContext, code: string, message: string): void {
  ctx.diagnostics.push({ severity: 'error', code, address: d.address, message, ...(d.source ? { source: d.source } : {}) });
}

function managedParent(address: Address, ctx: PlanContext): ForkParent {
  const desiredParent = ctx.desired.services.find((s) => s.address === address);
  const live = ctx.index.service.get(stableId(ctx, address) ?? '') as LiveService | undefined;
  // A parent created without addons is POSTGRES; one created without a region lands where the API chooses.
  const serviceType = desiredParent?.addons ? serviceTypeOf(desiredParent.addons) : (live?.serviceType ?? (ctx.fresh.has(address) ? 'POSTGRES' : undefined));
  const regionCode = desiredParent?.regionCode ?? live?.regionCode;
  const label = live ? `${address} (${live.id})` : address;
  return { ref: refTo(ctx, address), address, label, ...(live ? { live } : {}), ...(serviceType !== undefined ? { serviceType } : {}), ...(regionCode !== undefined ? { regionCode } : {}) };
}

/** A parent given by an ID this plan does not bind: it must exist and be READY now. */
function externalParent(d: DesiredService, serviceId: string, ctx: PlanContext): ForkParent {
  const named = `fork.from: { service_id: "${serviceId}" }`;
  const removed = ctx.matching.removed.find((r) => r.kind === 'service' && r.entry.id === serviceId);
  const live = ctx.index.service.get(serviceId) as LiveService | undefined;
  if (removed && live) {
    fail(d, ctx, 'fork-parent', `${named} is ${removed.address} in the state, which this plan deletes (it is no longer in the config); keep it in the config until the fork exists, or fork from another service`);
  } else if (!live) {
    fail(d, ctx, 'fork-parent', `${named}: project ${ctx.live.projectId} has no such service (or it is being deleted)`);
  } else if (live.status !== 'READY') {
    fail(
      d,
      ctx,
      'fork-parent',
      `${named} is ${live.status}, and forkService needs its parent READY; dbform does not manage that service, so it will not start it: ` +
        `make it READY first, or manage it in this config and fork from its key`,
    );
  }
  const label = `service ${serviceId}`;
  return { ref: { id: serviceId }, label, ...(live ? { live, serviceType: live.serviceType, regionCode: live.regionCode } : {}) };
}

/**
 * A fork takes its parent's type and region (SPEC section 9); a config that asks for others would
 * be replaced right after the fork, and every later plan would fail. Say so before anything runs.
 */
function checkInherited(d: DesiredService, parent: ForkParent, ctx: PlanContext): void {
  const problems: string[] = [];
  if (d.addons && parent.serviceType !== undefined && !typeMatches(d.addons, parent.serviceType)) {
    problems.push(`its addons ask for service type ${serviceTypeOf(d.addons)}, but a fork has its parent's type and ${parent.address ?? parent.label} is ${parent.serviceType}`);
  }
  if (d.regionCode !== undefined && parent.regionCode !== undefined && d.regionCode !== parent.regionCode) {
    problems.push(`its region_code is ${d.regionCode}, but a fork lives in its parent's region and ${parent.address ?? parent.label} is in ${parent.regionCode}`);
  }
  for (const problem of problems) fail(d, ctx, 'fork-inherits', `${problem}; remove the setting from the fork or make it match`);
}

const iso = (ms: number) => new Date(ms).toISOString().replace('.000Z', 'Z');

/**
 * A point in time can be restored only between the parent's creation and now; the API refuses
 * anything else at apply (400), after other changes may have run. The planner has no clock: `now`
 * comes from the caller. A parent created by this same plan has no creation time yet.
 */
function checkTargetTime(d: DesiredService, parent: ForkParent, ctx: PlanContext): void {
  const text = d.fork?.strategy === 'PITR' ? d.fork.targetTime : undefined;
  const at = text === undefined ? undefined : parseRfc3339(text);
  if (text === undefined || at === undefined) return;
  const created = parent.live ? parseRfc3339(parent.live.created) : undefined;
  if (created !== undefined && at < created) {
    fail(d, ctx, 'fork-target-time', `fork.target_time ${text} of ${d.address} is before its parent ${parent.label} was created (${parent.live!.created}); a point-in-time fork restores to a moment since then`);
  }
  const now = ctx.options.now;
  if (now !== undefined && at >= now) {
    fail(d, ctx, 'fork-target-time', `fork.target_time ${text} of ${d.address} is not in the past (now is ${iso(now)}); a point-in-time fork restores to a moment that has happened`);
  }
}

export function forkDraft(d: DesiredService, reason: ActionReason, protect: boolean, ctx: PlanContext): Draft {
  const fork = d.fork!;
  const address = forkParentAddress(fork.from, ctx);
  const parent = address !== undefined ? managedParent(address, ctx) : externalParent(d, (fork.from as { serviceId: string }).serviceId, ctx);
  checkInherited(d, parent, ctx);
  checkTargetTime(d, parent, ctx);
  // The fields a fork carries (its name, size, environment); it inherits the others from its parent.
  const { request, changes } = createBody(SERVICE_FIELDS, d, { request: { fork_strategy: fork.strategy }, changes: [] }, true);
  // A reviewer reads what it is a fork of right after its name.
  changes.splice(1, 0, change('fork.from', null, parent.address ?? parent.ref.id), change('fork.strategy', null, fork.strategy));
  if (fork.targetTime) {
    request.target_time = fork.targetTime;
    changes.push(change('fork.target_time', null, fork.targetTime));
  }
  return draft({
    address: d.address,
    kind: 'service',
    op: 'forkService',
    reason,
    changes,
    refs: { target: { address: d.address }, forkParent: parent.ref },
    request,
    ...(parent.address ? { forkParent: parent.address } : {}),
    ...(protect ? { protect: true } : {}),
  });
}
