// Peering: identified by peer_vpc_id within its VPC; any other change replaces it (SPEC section 3;
// its fields: src/model/fields/peering.ts).
import {
  createBody,
  fingerprintFields,
  isPeeringFailed,
  replaceChanges as fieldReplaceChanges,
  vpcAddress,
  type ActionReason,
  type Address,
  type DesiredPeering,
  type FieldChange,
  type LivePeering,
} from '../../model/index.js';
import { effectiveProtect, refTo, type PlanContext } from '../context.js';
import { change, createReason, draft, type Draft } from '../drafts.js';
import type { KindPlanner } from './types.js';
import { PEERING_FIELDS } from '../../kinds/peering/kind.js';

function createPeering(d: DesiredPeering, reason: ActionReason, protect: boolean, ctx: PlanContext): Draft {
  const owner = vpcAddress(d.vpcKey);
  const { request, changes } = createBody(PEERING_FIELDS, d);
  return draft({
    address: d.address,
    kind: 'peering',
    op: 'createVPCPeering',
    reason,
    changes,
    refs: { target: { address: d.address }, vpc: refTo(ctx, owner) },
    request,
    owner,
    ...(protect ? { protect: true } : {}),
  });
}

function deletePeering(address: Address, owner: Address | undefined, live: LivePeering, reason: ActionReason, changes: FieldChange[]): Draft {
  return draft({
    address,
    kind: 'peering',
    op: 'deleteVPCPeering',
    reason,
    changes,
    refs: { target: { address, id: live.id }, vpc: { id: live.vpcId } },
    freesVpcId: live.vpcId,
    ...(owner ? { owner } : {}),
  });
}

// A failed peering never recovers by itself (Terraform would call it tainted): replace it. Its
// statuses are read case-insensitively (`failed` in cloud-api.md, `INVALID`, `TIMEOUT`... live).

function replaceChanges(d: DesiredPeering, l: LivePeering): FieldChange[] {
  const forcing = fieldReplaceChanges(PEERING_FIELDS, d, l);
  if (isPeeringFailed(l.status)) forcing.unshift(change('status', l.status, 'active', true));
  return forcing;
}

function forcedReason(forcing: FieldChange[]): ActionReason {
  if (forcing.length === 0) return 'replace-requested';
  return forcing.every((c) => c.path === 'status') ? 'failed' : 'immutable-field';
}

export const peeringPlanner: KindPlanner<DesiredPeering, LivePeering> = {
  kind: 'peering',
  planDesired(m, ctx) {
    const d = m.desired;
    const protect = effectiveProtect(undefined, m.entry);
    if (!m.live) {
      const reason = createReason(m.entry !== undefined);
      ctx.fresh.set(d.address, reason);
      return [createPeering(d, reason, protect, ctx)];
    }
    // A replaced VPC takes its peerings with it: delete them first (deleteVPC needs that), recreate after.
    const vpcReason = ctx.fresh.get(vpcAddress(d.vpcKey));
    const forcing = replaceChanges(d, m.live);
    const requested = ctx.options.replace.includes(d.address);
    if (vpcReason === undefined && forcing.length === 0 && !requested) return [];
    const reason: ActionReason = vpcReason !== undefined ? 'parent-replaced' : forcedReason(forcing);
    ctx.fresh.set(d.address, reason);
    return [deletePeering(d.address, vpcAddress(d.vpcKey), m.live, reason, forcing), createPeering(d, reason, protect, ctx)];
  },
  planRemoved(r, live) {
    return [deletePeering(r.address, undefined, live, 'removed', [])];
  },
  fingerprintFields(l) {
    return fingerprintFields(PEERING_FIELDS, l, { id: l.id, vpc_id: l.vpcId, failed: isPeeringFailed(l.status) });
  },
};
