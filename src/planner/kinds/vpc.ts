// VPC: `name` renames in place; `cidr` and `region_code` force a replace (SPEC section 3).
import type { ActionReason, DesiredVpc, FieldChange, LiveVpc } from '../../model/index.js';
import { effectiveProtect, type PlanContext } from '../context.js';
import { change, createReason, draft, type Draft } from '../drafts.js';
import type { KindPlanner } from './types.js';

function createVpc(d: DesiredVpc, reason: ActionReason, protect: boolean): Draft {
  return draft({
    address: d.address,
    kind: 'vpc',
    op: 'createVPC',
    reason,
    changes: [change('name', null, d.name), change('cidr', null, d.cidr), change('region_code', null, d.regionCode)],
    refs: { target: { address: d.address } },
    request: { cidr: d.cidr, name: d.name, region_code: d.regionCode },
    ...(protect ? { protect: true } : {}),
  });
}

function deleteVpc(address: string, live: LiveVpc, reason: ActionReason, changes: FieldChange[]): Draft {
  return draft({ address, kind: 'vpc', op: 'deleteVPC', reason, changes, refs: { target: { address, id: live.id } } });
}

function replaceChanges(d: DesiredVpc, l: LiveVpc): FieldChange[] {
  const out: FieldChange[] = [];
  if (d.cidr !== l.cidr) out.push(change('cidr', l.cidr, d.cidr, true));
  if (d.regionCode !== l.regionCode) out.push(change('region_code', l.regionCode, d.regionCode, true));
  return out;
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
    const forcing = replaceChanges(d, m.live);
    if (forcing.length > 0 || ctx.options.replace.includes(d.address)) {
      const reason: ActionReason = forcing.length > 0 ? 'immutable-field' : 'replace-requested';
      ctx.fresh.set(d.address, reason);
      ctx.vpcsGoing.set(m.live.id, { address: d.address, replaced: true });
      return [deleteVpc(d.address, m.live, reason, forcing), createVpc(d, reason, protect)];
    }
    if (d.name === m.live.name) return [];
    return [
      draft({
        address: d.address,
        kind: 'vpc',
        op: 'renameVPC',
        reason: 'changed',
        changes: [change('name', m.live.name, d.name)],
        refs: { target: { address: d.address, id: m.live.id } },
        request: { name: d.name },
      }),
    ];
  },
  planRemoved(r, live) {
    return [deleteVpc(r.address, live, 'removed', [])];
  },
  fingerprintFields(l) {
    return { id: l.id, name: l.name, cidr: l.cidr, region_code: l.regionCode };
  },
};
