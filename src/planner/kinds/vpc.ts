// VPC: its fields (src/model/fields/vpc.ts) say what renames in place and what forces a replace
// (SPEC section 3).
import { createBody, fingerprintFields, replaceChanges, updateSteps, type ActionReason, type DesiredVpc, type FieldChange, type LiveVpc } from '../../model/index.js';
import { effectiveProtect, refTo, type PlanContext } from '../context.js';
import { createReason, draft, type Draft } from '../drafts.js';
import type { KindPlanner } from './types.js';
import { VPC_FIELDS } from '../../kinds/vpc/kind.js';

function createVpc(d: DesiredVpc, reason: ActionReason, protect: boolean): Draft {
  const { request, changes } = createBody(VPC_FIELDS, d);
  return draft({ address: d.address, kind: 'vpc', op: 'createVPC', reason, changes, refs: { target: { address: d.address } }, request, ...(protect ? { protect: true } : {}) });
}

function deleteVpc(address: string, live: LiveVpc, reason: ActionReason, changes: FieldChange[]): Draft {
  return draft({ address, kind: 'vpc', op: 'deleteVPC', reason, changes, refs: { target: { address, id: live.id } } });
}

export const vpcPlanner: KindPlanner<DesiredVpc, LiveVpc> = {
  kind: 'vpc',
  planDesired(m, ctx: PlanContext) {
    const d = m.desired;
    const protect = effectiveProtect(d, m.entry);
    if (!m.live) {
      const reason = createReason(m.entry !== undefined);
      ctx.fresh.set(d.address, reason);
      return [createVpc(d, reason, protect)];
    }
    const forcing = replaceChanges(VPC_FIELDS, d, m.live);
    if (forcing.length > 0 || ctx.options.replace.includes(d.address)) {
      const reason: ActionReason = forcing.length > 0 ? 'immutable-field' : 'replace-requested';
      ctx.fresh.set(d.address, reason);
      ctx.vpcsGoing.set(m.live.id, { address: d.address, replaced: true });
      return [deleteVpc(d.address, m.live, reason, forcing), createVpc(d, reason, protect)];
    }
    return updateSteps(VPC_FIELDS, d, m.live, undefined).map((step) => draft({ address: d.address, kind: 'vpc', reason: 'changed', refs: { target: refTo(ctx, d.address) }, ...step }));
  },
  planRemoved(r, live) {
    return [deleteVpc(r.address, live, 'removed', [])];
  },
  fingerprintFields(l) {
    return fingerprintFields(VPC_FIELDS, l, { id: l.id });
  },
};
