// Service: see service-create.ts, service-update.ts and service-vpc.ts; its fields are declared in
// src/model/fields/service*.ts. A replace (name, region,
// type) destroys data, so it is planned only when `--replace` names the service.
import { fingerprintFields, replaceChanges, type ActionReason, type Address, type DesiredService, type FieldChange, type LiveService } from '../../model/index.js';
import { effectiveProtect, type PlanContext } from '../context.js';
import { createReason, draft, type Draft } from '../drafts.js';
import { planServiceCreate } from './service-create.js';
import { planServiceUpdate } from './service-update.js';
import type { KindPlanner } from './types.js';
import { SERVICE_FIELDS } from '../../kinds/service/fields.js';

function deleteService(address: Address, live: LiveService, reason: ActionReason, changes: FieldChange[]): Draft {
  return draft({
    address,
    kind: 'service',
    op: 'deleteService',
    reason,
    changes,
    refs: { target: { address, id: live.id } },
    ...(live.vpcId !== null ? { freesVpcId: live.vpcId } : {}),
  });
}

function unrequestedReplace(d: DesiredService, forcing: FieldChange[]): string {
  const what = forcing.map((c) => `${c.path} ${JSON.stringify(c.before)} -> ${JSON.stringify(c.after)}`).join(', ');
  return (
    `changing ${what} cannot be done in place: the service would be deleted and created again, losing its data. ` +
    `To do that, run with --replace ${d.address} --allow-data-loss; otherwise revert the change`
  );
}

export const servicePlanner: KindPlanner<DesiredService, LiveService> = {
  kind: 'service',
  planDesired(m, ctx: PlanContext) {
    const d = m.desired;
    const protect = effectiveProtect(d, m.entry);
    if (!m.live) {
      const reason = createReason(m.entry !== undefined);
      ctx.fresh.set(d.address, reason);
      return planServiceCreate(d, reason, protect, ctx);
    }
    const forcing = replaceChanges(SERVICE_FIELDS, d, m.live);
    if (ctx.options.replace.includes(d.address)) {
      const reason: ActionReason = forcing.length > 0 ? 'immutable-field' : 'replace-requested';
      ctx.fresh.set(d.address, reason);
      return [deleteService(d.address, m.live, reason, forcing), ...planServiceCreate(d, reason, protect, ctx)];
    }
    if (forcing.length > 0) {
      ctx.diagnostics.push({ severity: 'error', code: 'replace-required', address: d.address, message: unrequestedReplace(d, forcing), ...(d.source ? { source: d.source } : {}) });
    }
    return planServiceUpdate(d, m.live, m.entry, ctx);
  },
  planRemoved(r, live) {
    return [deleteService(r.address, live, 'removed', [])];
  },
  fingerprintFields(l) {
    return fingerprintFields(SERVICE_FIELDS, l, { id: l.id });
  },
};
