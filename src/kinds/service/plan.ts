// How a service is planned (SPEC section 3): created (createService, or forkService: fork.ts) with
// only managed fields in the body, then the settings the body cannot carry, each as its own
// action; changed in place field by field; replaced (name, region, type) only when `--replace`
// names it, since that destroys its data. The fields the planner plans with the whole plan in
// view (a descriptor's `plannedBy`) go to their own planner: the VPC attachment
// (vpc-attachment.ts) and start/stop (paused.ts).
import {
  afterCreateSteps,
  capabilitiesAt,
  CAPABILITY_TEXT,
  createBody,
  fingerprintFields,
  replaceChanges,
  updateSteps,
  type ActionReason,
  type Address,
  type DesiredService,
  type FieldChange,
  type FieldStep,
  type LiveService,
  type LockEntry,
  type PlannedBy,
} from '../../model/index.js';
import { effectiveProtect, liveKey, refTo, type PlanContext } from '../../planner/context.js';
import { createReason, draft, type Draft } from '../../planner/drafts.js';
import type { KindPlanner } from '../types.js';
import { SERVICE_FIELDS } from './fields.js';
import { forkDraft, forkParentsFirst } from './fork.js';
import { planPaused } from './paused.js';
import { attachDraft, checkAttachedServices, desiredVpcRef, planServiceVpc } from './vpc-attachment.js';

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
function planServiceUpdate(d: DesiredService, l: LiveService, entry: LockEntry | undefined, ctx: PlanContext): Draft[] {
  const out: Draft[] = [];
  for (const step of updateSteps(SERVICE_FIELDS, d, l, entry, ctx.api)) {
    // A rename in place frees the old name: a create of it (a restore's fork) comes after.
    const renamed = step.changes.some((c) => c.path === 'name');
    out.push(stepDraft(d, 'changed', refTo(ctx, d.address), { ...step, ...(renamed ? { freesName: l.name } : {}) }));
  }
  for (const f of SERVICE_FIELDS.fields) if (f.plannedBy !== undefined) out.push(...(PLANNED_BY[f.plannedBy].update?.(d, l, ctx) ?? []));
  return out;
}

/** The ops after a create or fork, for the settings its body cannot carry. */
function planAfterCreate(d: DesiredService, reason: ActionReason, ctx: PlanContext): Draft[] {
  const out: Draft[] = [];
  for (const step of afterCreateSteps(SERVICE_FIELDS, d, d.fork !== undefined)) out.push(stepDraft(d, reason, { address: d.address }, step));
  for (const f of SERVICE_FIELDS.fields) if (f.plannedBy !== undefined) out.push(...(PLANNED_BY[f.plannedBy].afterCreate?.(d, reason, ctx) ?? []));
  return out;
}

function createDraft(d: DesiredService, reason: ActionReason, protect: boolean): Draft {
  const { request, changes } = createBody(SERVICE_FIELDS, d);
  return draft({ address: d.address, kind: 'service', op: 'createService', reason, changes, refs: { target: { address: d.address } }, request, ...(protect ? { protect: true } : {}) });
}

/** The drafts of a service created (or re-created) in this plan; `ctx.fresh` already holds it. */
function planServiceCreate(d: DesiredService, reason: ActionReason, protect: boolean, ctx: PlanContext): Draft[] {
  return [d.fork ? forkDraft(d, reason, protect, ctx) : createDraft(d, reason, protect), ...planAfterCreate(d, reason, ctx)];
}

function deleteService(address: Address, live: LiveService, reason: ActionReason, changes: FieldChange[]): Draft {
  return draft({
    address,
    kind: 'service',
    op: 'deleteService',
    reason,
    changes,
    refs: { target: { address, id: live.id } },
    ...(live.vpcId !== null ? { frees: liveKey('vpc', live.vpcId) } : {}),
  });
}

function unrequestedReplace(d: DesiredService, l: LiveService, forcing: FieldChange[], ctx: PlanContext): string {
  const what = forcing.map((c) => `${c.path} ${JSON.stringify(c.before)} -> ${JSON.stringify(c.after)}`).join(', ');
  // Where the API decided it (a name the API cannot change in place), the plan says so.
  const why = capabilitiesAt(SERVICE_FIELDS, d, l).filter((c) => ctx.api[c] === false).map((c) => ` (${CAPABILITY_TEXT[c].no})`).join('');
  return (
    `changing ${what} cannot be done in place${why}: the service would be deleted and created again, losing its data. ` +
    `To do that, run with --replace ${d.address} --allow-data-loss; otherwise revert the change`
  );
}

export const servicePlanner: KindPlanner<DesiredService, LiveService> = {
  order: forkParentsFirst,
  planDesired(m, ctx: PlanContext) {
    const d = m.desired;
    const protect = effectiveProtect(d, m.entry);
    if (!m.live) {
      const reason = createReason(m.entry !== undefined);
      ctx.fresh.set(d.address, reason);
      return planServiceCreate(d, reason, protect, ctx);
    }
    for (const c of capabilitiesAt(SERVICE_FIELDS, d, m.live)) ctx.consulted.add(c);
    const forcing = replaceChanges(SERVICE_FIELDS, d, m.live, ctx.api);
    if (ctx.options.replace.includes(d.address)) {
      const reason: ActionReason = forcing.length > 0 ? 'immutable-field' : 'replace-requested';
      ctx.fresh.set(d.address, reason);
      return [deleteService(d.address, m.live, reason, forcing), ...planServiceCreate(d, reason, protect, ctx)];
    }
    if (forcing.length > 0) {
      ctx.diagnostics.push({ severity: 'error', code: 'replace-required', address: d.address, message: unrequestedReplace(d, m.live, forcing, ctx), ...(d.source ? { source: d.source } : {}) });
    }
    return planServiceUpdate(d, m.live, m.entry, ctx);
  },
  planRemoved(r, live) {
    return [deleteService(r.address, live, 'removed', [])];
  },
  finish(ctx, drafts) {
    checkAttachedServices(ctx);
    return planPaused(ctx, drafts);
  },
  fingerprint(l) {
    return fingerprintFields(SERVICE_FIELDS, l, { id: l.id });
  },
};
