// A service born in this plan: createService (only managed fields in the body) or forkService,
// then the settings the create body cannot carry, each as its own action.
import { serviceAddress, type ActionReason, type DesiredService, type FieldChange, type ResourceRef } from '../../model/index.js';
import { refTo, stableId, type PlanContext } from '../context.js';
import { change, draft, sensitiveChange, type Draft } from '../drafts.js';
import { isLivePaused, serviceTypeOf, sizeWire, typeMatches } from '../normalize.js';
import { attachDraft, desiredVpcRef } from './service-vpc.js';

function sizeFields(d: DesiredService): { request: Record<string, unknown>; changes: FieldChange[] } {
  if (!d.size) return { request: {}, changes: [] };
  return {
    request: { cpu_millis: sizeWire(d.size.cpuMillis), memory_gbs: sizeWire(d.size.memoryGbs) },
    changes: [change('cpu_millis', null, d.size.cpuMillis), change('memory_gbs', null, d.size.memoryGbs)],
  };
}

function createDraft(d: DesiredService, reason: ActionReason, protect: boolean): Draft {
  const size = sizeFields(d);
  const request: Record<string, unknown> = { name: d.name };
  const changes = [change('name', null, d.name)];
  if (d.addons) {
    request.addons = [...d.addons];
    changes.push(change('service_type', null, serviceTypeOf(d.addons)));
  }
  Object.assign(request, size.request);
  changes.push(...size.changes);
  if (d.environment) {
    request.environment_tag = d.environment;
    changes.push(change('environment', null, d.environment));
  }
  if (d.regionCode) {
    request.region_code = d.regionCode;
    changes.push(change('region_code', null, d.regionCode));
  }
  if (d.ha) {
    request.replica_count = d.ha.replicas;
    changes.push(change('ha.replicas', null, d.ha.replicas));
  }
  return draft({ address: d.address, kind: 'service', op: 'createService', reason, changes, refs: { target: { address: d.address } }, request, ...(protect ? { protect: true } : {}) });
}

function forkParentRef(d: DesiredService, ctx: PlanContext): ResourceRef {
  const from = d.fork!.from;
  if ('serviceId' in from) {
    const parent = ctx.index.services.get(from.serviceId);
    if (!parent) {
      const message = `fork.from: { service_id: "${from.serviceId}" }: project ${ctx.live.projectId} has no such service (or it is being deleted)`;
      ctx.diagnostics.push({ severity: 'error', code: 'fork-parent', address: d.address, message, ...(d.source ? { source: d.source } : {}) });
    } else if (isLivePaused(parent)) {
      ctx.diagnostics.push({ severity: 'warning', code: 'fork-parent-paused', address: d.address, message: `fork parent ${from.serviceId} is ${parent.status}; forkService needs it READY` });
    }
    checkInherited(d, parentTraits(parent?.serviceType, parent?.regionCode, `service ${from.serviceId}`), ctx);
    return { id: from.serviceId };
  }
  const address = serviceAddress(from.key);
  const desiredParent = ctx.desired.services.find((s) => s.address === address);
  const liveParent = ctx.index.services.get(stableId(ctx, address) ?? '');
  // A parent created without addons is POSTGRES; one created without a region lands where the API chooses.
  const type = desiredParent?.addons ? serviceTypeOf(desiredParent.addons) : (liveParent?.serviceType ?? (ctx.fresh.has(address) ? 'POSTGRES' : undefined));
  checkInherited(d, parentTraits(type, desiredParent?.regionCode ?? liveParent?.regionCode, address), ctx);
  return refTo(ctx, address);
}

interface ParentTraits {
  serviceType?: string;
  regionCode?: string;
  label: string;
}

const parentTraits = (serviceType: string | undefined, regionCode: string | undefined, label: string): ParentTraits => ({
  ...(serviceType !== undefined ? { serviceType } : {}),
  ...(regionCode !== undefined ? { regionCode } : {}),
  label,
});

/**
 * A fork takes its parent's type and region (SPEC section 9); a config that asks for others would
 * be replaced right after the fork, and every later plan would fail. Say so before anything runs.
 */
function checkInherited(d: DesiredService, parent: ParentTraits, ctx: PlanContext): void {
  const problems: string[] = [];
  if (d.addons && parent.serviceType !== undefined && !typeMatches(d.addons, parent.serviceType)) {
    problems.push(`its addons ask for service type ${serviceTypeOf(d.addons)}, but a fork has its parent's type and ${parent.label} is ${parent.serviceType}`);
  }
  if (d.regionCode !== undefined && parent.regionCode !== undefined && d.regionCode !== parent.regionCode) {
    problems.push(`its region_code is ${d.regionCode}, but a fork lives in its parent's region and ${parent.label} is in ${parent.regionCode}`);
  }
  for (const problem of problems) {
    const message = `${problem}; remove the setting from the fork or make it match`;
    ctx.diagnostics.push({ severity: 'error', code: 'fork-inherits', address: d.address, message, ...(d.source ? { source: d.source } : {}) });
  }
}

function forkDraft(d: DesiredService, reason: ActionReason, protect: boolean, ctx: PlanContext): Draft {
  const fork = d.fork!;
  const parent = forkParentRef(d, ctx);
  const size = sizeFields(d);
  const request: Record<string, unknown> = { fork_strategy: fork.strategy, name: d.name, ...size.request };
  const changes = [change('name', null, d.name), change('fork.from', null, parent.address ?? parent.id), change('fork.strategy', null, fork.strategy), ...size.changes];
  if (d.environment) {
    request.environment_tag = d.environment;
    changes.push(change('environment', null, d.environment));
  }
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
    refs: { target: { address: d.address }, forkParent: parent },
    request,
    ...(parent.address ? { forkParent: parent.address } : {}),
    ...(protect ? { protect: true } : {}),
  });
}

/** HA the create body could not express: sync replicas, or any HA on a fork (forks start with none). */
function haAfterCreate(d: DesiredService, reason: ActionReason): Draft[] {
  if (!d.ha) return [];
  const forked = d.fork !== undefined;
  if (!forked && d.ha.syncReplicas === 0) return [];
  if (forked && d.ha.replicas === 0 && d.ha.syncReplicas === 0) return [];
  const changes = forked ? [change('ha.replicas', 0, d.ha.replicas)] : [];
  if (d.ha.syncReplicas !== 0) changes.push(change('ha.sync_replicas', 0, d.ha.syncReplicas));
  return [
    draft({
      address: d.address,
      kind: 'service',
      op: 'setHAReplica',
      reason,
      changes,
      refs: { target: { address: d.address } },
      request: { replica_count: d.ha.replicas, sync_replica_count: d.ha.syncReplicas },
    }),
  ];
}

/**
 * The password itself is never shown; its version is not secret and tells a reviewer that this
 * is a rotation (lockfile version -> configured one), or the first password of a new service.
 */
export function passwordDraft(d: DesiredService, reason: ActionReason, ctx: PlanContext, appliedVersion?: number): Draft {
  return draft({
    address: d.address,
    kind: 'service',
    op: 'updatePassword',
    reason,
    changes: [sensitiveChange('password'), change('password.version', appliedVersion ?? null, d.password!.version)],
    refs: { target: refTo(ctx, d.address) },
    password: { fromEnv: d.password!.fromEnv, version: d.password!.version },
  });
}

/** The drafts of a service created (or re-created) in this plan; `ctx.fresh` already holds it. */
export function planServiceCreate(d: DesiredService, reason: ActionReason, protect: boolean, ctx: PlanContext): Draft[] {
  const out = [d.fork ? forkDraft(d, reason, protect, ctx) : createDraft(d, reason, protect), ...haAfterCreate(d, reason)];
  if (d.pooler) {
    out.push(draft({ address: d.address, kind: 'service', op: 'enablePooler', reason, changes: [change('pooler', false, true)], refs: { target: { address: d.address } } }));
  }
  const vpc = desiredVpcRef(d, ctx);
  if (vpc) out.push(attachDraft(d, vpc, reason, null, ctx));
  if (d.password) out.push(passwordDraft(d, reason, ctx));
  return out;
}
