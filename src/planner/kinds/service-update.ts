// The planner's side of a service's fields (src/model/fields/service*.ts): each step a descriptor
// returns, in place or right after a create, becomes a draft. The fields the planner plans with
// the whole plan in view (a descriptor's `plannedBy`) go to their own planner.
import { afterCreateSteps, updateSteps, type ActionReason, type DesiredService, type FieldStep, type LiveService, type LockEntry, type PlannedBy } from '../../model/index.js';
import { refTo, type PlanContext } from '../context.js';
import { draft, type Draft } from '../drafts.js';
import { attachDraft, desiredVpcRef, planServiceVpc } from './service-vpc.js';
import { SERVICE_FIELDS } from '../../kinds/service/fields.js';

interface WholePlanField {
  update?(d: DesiredService, l: LiveService, ctx: PlanContext): Draft[];
  afterCreate?(d: DesiredService, reason: ActionReason, ctx: PlanContext): Draft[];
}

const PLANNED_BY: Record<PlannedBy, WholePlanField> = {
  'vpc-attachment': {
    update: planServiceVpc,
    afterCreate: (d, reason, ctx) => {
      const vpc = desiredVpcRef(d, ctx);
      return vpc ? [attachDraft(d, vpc, reason, null, ctx)] : [];
    },
  },
  // Start and stop wrap every other change of the service: paused.ts adds them once all drafts are known.
  'start-stop': {},
};

const stepDraft = (d: DesiredService, reason: ActionReason, target: ReturnType<typeof refTo>, step: FieldStep): Draft =>
  draft({ address: d.address, kind: 'service', reason, refs: { target }, ...step });

/** In-place changes of a live service (SPEC section 3): each field that differs, by its own op. */
export function planServiceUpdate(d: DesiredService, l: LiveService, entry: LockEntry | undefined, ctx: PlanContext): Draft[] {
  const out: Draft[] = [];
  for (const step of updateSteps(SERVICE_FIELDS, d, l, entry)) out.push(stepDraft(d, 'changed', refTo(ctx, d.address), step));
  for (const f of SERVICE_FIELDS.fields) if (f.plannedBy !== undefined) out.push(...(PLANNED_BY[f.plannedBy].update?.(d, l, ctx) ?? []));
  return out;
}

/** The ops after a create or fork, for the settings its body cannot carry. */
export function planAfterCreate(d: DesiredService, reason: ActionReason, ctx: PlanContext): Draft[] {
  const out: Draft[] = [];
  for (const step of afterCreateSteps(SERVICE_FIELDS, d, d.fork !== undefined)) out.push(stepDraft(d, reason, { address: d.address }, step));
  for (const f of SERVICE_FIELDS.fields) if (f.plannedBy !== undefined) out.push(...(PLANNED_BY[f.plannedBy].afterCreate?.(d, reason, ctx) ?? []));
  return out;
}
