// Replica set: size resizes, pooler and environment have their ops, `name` and `nodes` replace
// (SPEC section 3). A set belongs to its service: a service created afresh gets new sets.
import { serviceAddress, type ActionReason, type Address, type DesiredReplicaSet, type FieldChange, type LiveReplicaSet } from '../../model/index.js';
import { effectiveProtect, refTo, type PlanContext } from '../context.js';
import { change, createReason, draft, type Draft } from '../drafts.js';
import { liveEnvironment } from '../normalize.js';
import type { KindPlanner } from './types.js';

function createDrafts(d: DesiredReplicaSet, reason: ActionReason, protect: boolean, ctx: PlanContext): Draft[] {
  const owner = serviceAddress(d.serviceKey);
  const refs = { target: { address: d.address }, service: refTo(ctx, owner) };
  const base = { address: d.address, kind: 'replica_set' as const, reason, refs, owner };
  const out = [
    draft({
      ...base,
      op: 'createReplicaSet',
      changes: [change('name', null, d.name), change('cpu_millis', null, d.cpuMillis), change('memory_gbs', null, d.memoryGbs), change('nodes', null, d.nodes)],
      // Create takes integers, unlike resize (cloud-api.md 4.5).
      request: { cpu_millis: d.cpuMillis, memory_gbs: d.memoryGbs, name: d.name, nodes: d.nodes },
      ...(protect ? { protect: true } : {}),
    }),
  ];
  if (d.pooler) out.push(draft({ ...base, op: 'enableReplicaPooler', changes: [change('pooler', false, true)] }));
  if (d.environment !== undefined && d.environment !== 'DEV') {
    out.push(draft({ ...base, op: 'setReplicaEnvironment', changes: [change('environment', 'DEV', d.environment)], request: { environment: d.environment } }));
  }
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
  const out: FieldChange[] = [];
  // `error` is terminal (resize is refused, delete works): replace it, as Terraform does a tainted resource.
  if (l.status === 'error') out.push(change('status', 'error', 'active', true));
  if (d.name !== l.name) out.push(change('name', l.name, d.name, true));
  if (d.nodes !== l.nodes) out.push(change('nodes', l.nodes, d.nodes, true));
  return out;
}

function updateDrafts(d: DesiredReplicaSet, l: LiveReplicaSet, ctx: PlanContext): Draft[] {
  const owner = serviceAddress(d.serviceKey);
  const base = { address: d.address, kind: 'replica_set' as const, reason: 'changed' as const, owner, refs: { target: refTo(ctx, d.address), service: refTo(ctx, owner) } };
  const out: Draft[] = [];
  if (d.cpuMillis !== l.cpuMillis || d.memoryGbs !== l.memoryGbs) {
    const changes: FieldChange[] = [];
    if (d.cpuMillis !== l.cpuMillis) changes.push(change('cpu_millis', l.cpuMillis, d.cpuMillis));
    if (d.memoryGbs !== l.memoryGbs) changes.push(change('memory_gbs', l.memoryGbs, d.memoryGbs));
    out.push(draft({ ...base, op: 'resizeReplicaSet', changes, request: { cpu_millis: String(d.cpuMillis), memory_gbs: String(d.memoryGbs) } }));
  }
  const env = liveEnvironment(l.environment);
  if (d.environment !== undefined && d.environment !== env) {
    out.push(draft({ ...base, op: 'setReplicaEnvironment', changes: [change('environment', env, d.environment)], request: { environment: d.environment } }));
  }
  if (d.pooler !== undefined && d.pooler !== l.pooler) {
    out.push(draft({ ...base, op: d.pooler ? 'enableReplicaPooler' : 'disableReplicaPooler', changes: [change('pooler', l.pooler, d.pooler)] }));
  }
  return out;
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
    return {
      id: l.id,
      service_id: l.serviceId,
      name: l.name,
      cpu_millis: l.cpuMillis,
      memory_gbs: l.memoryGbs,
      nodes: l.nodes,
      pooler: l.pooler,
      environment: liveEnvironment(l.environment),
      failed: l.status === 'error',
    };
  },
};
