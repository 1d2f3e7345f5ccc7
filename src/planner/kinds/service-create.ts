// A service born in this plan: createService (only managed fields in the body) or forkService,
// then the settings the create body cannot carry, each as its own action (service-update.ts).
import { createBody, type ActionReason, type DesiredService } from '../../model/index.js';
import type { PlanContext } from '../context.js';
import { draft, type Draft } from '../drafts.js';
import { forkDraft } from './service-fork.js';
import { planAfterCreate } from './service-update.js';
import { SERVICE_FIELDS } from '../../kinds/service/fields.js';

function createDraft(d: DesiredService, reason: ActionReason, protect: boolean): Draft {
  const { request, changes } = createBody(SERVICE_FIELDS, d);
  return draft({ address: d.address, kind: 'service', op: 'createService', reason, changes, refs: { target: { address: d.address } }, request, ...(protect ? { protect: true } : {}) });
}

/** The drafts of a service created (or re-created) in this plan; `ctx.fresh` already holds it. */
export function planServiceCreate(d: DesiredService, reason: ActionReason, protect: boolean, ctx: PlanContext): Draft[] {
  return [d.fork ? forkDraft(d, reason, protect, ctx) : createDraft(d, reason, protect), ...planAfterCreate(d, reason, ctx)];
}
