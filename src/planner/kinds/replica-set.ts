// Replica set: its fields (src/model/fields/replica-set.ts) say what resizes, switches or replaces
// (SPEC section 3). A set belongs to its service: a service created afresh gets new sets.
import {
  afterCreateSteps,
  createBody,
  fingerprintFields,
  replaceChanges as fieldReplaceChanges,
  serviceAddress,
  updateSteps,
  type ActionReason,
  type Address,
  type DesiredReplicaSet,
  type FieldChange,
  type LiveReplicaSet,
} from '../../model/index.js';
import { effectiveProtect, refTo, type PlanContext } from '../context.js';
import { change, createReason, draft, type Draft } from '../drafts.js';
import type { KindPlanner } from './types.js';
import { REPLICA_SET_FIELDS } from '../../kinds/replica-set/kind.js';

function createDrafts(d: DesiredReplicaSet, reason: ActionReason, protect: boolean, ctx: PlanContext): Draft[] {
  const owner = serviceAddress(d.serviceKey);
  const refs = { target: { address: d.address }, service: refTo(ctx, owner) };
  const base = { address: d.address, kind: 'replica_set' as const, reason, refs, owner };
  const { request, changes } = createBody(REPLICA_SET_FIELDS, d);
  const out = [draft({ ...base, op: 'createReplicaSet', changes, request, ...(protect ? { protect: true } : {}) })];
  for (const step of afterCreateSteps(REPLICA_SET_FIELDS, d, false)) out.push(draft({ ...base, ...step }));
  return out;
}

function deleteDraft(address: Address, owner: Address | undefined, live: LiveReplicaSet, reason: ActionReason, changes: FieldChange[]): Draft {
  return draft({
    address,
    kind: 'replica_set',
    op: 'deleteReplicaSet',
    reason,
    changes,
    refs: { target: { address, id: live.id }, service: { ...(owner ? { address: owner } : {}), id: live.serviceId } },
    freesName: live.name,
    ...(owner ? { owner } : {}),
  });
}

function replaceChanges(d: DesiredReplicaSet, l: LiveReplicaSet): FieldChange[] {
  // `error` is terminal (resize is refused, delete works): replace it, as Terraform does a tainted resource.
  const forcing = fieldReplaceChanges(REPLICA_SET_FIELDS, d, l);
  if (l.status === 'error') forcing.unshift(change('status', 'error', 'active', true));
  return forcing;
}

function updateDrafts(d: DesiredReplicaSet, l: LiveReplicaSet, ctx: PlanContext): Draft[] {
  const owner = serviceAddress(d.serviceKey);
  const base = { address: d.address, kind: 'replica_set' as const, reason: 'changed' as const, owner, refs: { target: refTo(ctx, d.address), service: refTo(ctx, owner) } };
  return updateSteps(REPLICA_SET_FIELDS, d, l, undefined).map((step) => draft({ ...base, ...step }));
}

export const replicaSetPlanner: KindPlanner<DesiredReplicaSet, LiveReplicaSet> = {
  kind: 'replica_set',
  planDesired(m, ctx) {
    const d = m.desired;
    const protect = effectiveProtect(d, m.entry);
    const owner = serviceAddress(d.serviceKey);
    if (!m.live) {
      const reason = createReason(m.entry !== undefined);
      ctx.fresh.set(d.address, reason);
      return createDrafts(d, reason, protect, ctx);
    }
    const serviceReason = ctx.fresh.get(owner);
    const forcing = replaceChanges(d, m.live);
    if (serviceReason === undefined && forcing.length === 0 && !ctx.options.replace.includes(d.address)) return updateDrafts(d, m.live, ctx);
    const failedOnly = forcing.length > 0 && forcing.every((c) => c.path === 'status');
    const ownReason: ActionReason = failedOnly ? 'failed' : forcing.length > 0 ? 'immutable-field' : 'replace-requested';
    const reason: ActionReason = serviceReason !== undefined ? 'parent-replaced' : ownReason;
    ctx.fresh.set(d.address, reason);
    return [deleteDraft(d.address, owner, m.live, reason, forcing), ...createDrafts(d, reason, protect, ctx)];
  },
  planRemoved(r, live, ctx) {
    const owner = [...ctx.liveIds].find(([a, id]) => id === live.serviceId && a.startsWith('service.'))?.[0];
    return [deleteDraft(r.address, owner, live, 'removed', [])];
  },
  fingerprintFields(l) {
    return fingerprintFields(REPLICA_SET_FIELDS, l, { id: l.id, service_id: l.serviceId, failed: l.status === 'error' });
  },
};
