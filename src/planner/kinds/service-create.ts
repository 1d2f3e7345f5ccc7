// A service born in this plan: createService (only managed fields in the body) or forkService,
// then the settings the create body cannot carry, each as its own action.
import type { ActionReason, DesiredService, FieldChange } from '../../model/index.js';
import { refTo, type PlanContext } from '../context.js';
import { change, draft, sensitiveChange, type Draft } from '../drafts.js';
import { serviceTypeOf, sizeWire } from '../normalize.js';
import { forkDraft } from './service-fork.js';
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
    // The service type says whether time-series is asked for; `ai` is seen only in the addons.
    if (d.addons.includes('ai')) changes.push(change('addons', null, [...d.addons]));
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
  const out = [d.fork ? forkDraft(d, reason, protect, ctx, sizeFields(d)) : createDraft(d, reason, protect), ...haAfterCreate(d, reason)];
  if (d.pooler) {
    out.push(draft({ address: d.address, kind: 'service', op: 'enablePooler', reason, changes: [change('pooler', false, true)], refs: { target: { address: d.address } } }));
  }
  const vpc = desiredVpcRef(d, ctx);
  if (vpc) out.push(attachDraft(d, vpc, reason, null, ctx));
  if (d.password) out.push(passwordDraft(d, reason, ctx));
  return out;
}
