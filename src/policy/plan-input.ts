// A Plan (src/model/plan.ts, or a saved plan read back with fromPlanJson) -> the engine's input.
// Each action maps 1:1 (id, address, kind, op, reason, risk, changes); its `resource` comes from
// a lookup the caller picks: the desired and live states where plan and apply have them
// (resourcesFromStates), or what a saved plan file says (resourcesFromSavedPlan).
import { eachDesired, eachLive, isDeleteOp } from '../kinds/index.js';
import type { Action, DesiredState, LiveState, Plan } from '../model/index.js';
import { desiredResourceFields, fieldsFromChanges, liveResourceFields, type DesiredResource, type LiveResource, type ResourceFields } from './resource-fields.js';
import type { PolicyAction, PolicyInput } from './types.js';

export type ResourceLookup = (action: Action) => ResourceFields;

export interface InputContext {
  workspace: string;
  now: Date;
  resourceOf: ResourceLookup;
}

/**
 * The plan's actions as the engine takes them. `changes` and `resource` are made when first read:
 * in a large plan most actions are decided by rules that read neither (evaluate.ts).
 */
export function policyActions(plan: Plan, resourceOf: ResourceLookup): PolicyAction[] {
  return plan.actions.map((a) => {
    let changes: PolicyAction['changes'] | undefined;
    let resource: PolicyAction['resource'] | undefined;
    return {
      id: a.id,
      address: a.address,
      kind: a.kind,
      op: a.op,
      reason: a.reason,
      risk: a.risk,
      get changes() {
        return (changes ??= a.changes.map((c) => ({ path: c.path, before: c.sensitive ? null : c.before, after: c.sensitive ? null : c.after })));
      },
      get resource() {
        return (resource ??= resourceOf(a));
      },
    };
  });
}

export function policyInputFromPlan(plan: Plan, ctx: InputContext): PolicyInput {
  return { actions: policyActions(plan, ctx.resourceOf), summary: plan.summary, workspace: ctx.workspace, projectId: plan.projectId, now: ctx.now };
}

function desiredByAddress(desired: DesiredState): Map<string, DesiredResource> {
  const out = new Map<string, DesiredResource>();
  eachDesired(desired, (_def, d) => void out.set(d.address!, d as DesiredResource));
  return out;
}

function liveById(live: LiveState): Map<string, LiveResource> {
  const out = new Map<string, LiveResource>();
  eachLive(live, (def, l) => void out.set(`${def.kind}:${l.id}`, { kind: def.kind, live: l }));
  return out;
}

/**
 * For plan and apply: a delete sees the live resource it deletes (found by the ID the action
 * targets), every other action the desired resource of its address. An action whose resource is
 * in neither (none today) sees an empty one.
 */
export function resourcesFromStates(desired: DesiredState, live: LiveState): ResourceLookup {
  const byAddress = desiredByAddress(desired);
  const byId = liveById(live);
  const cache = new Map<string, ResourceFields>();
  const fromLive = (a: Action) => {
    const id = a.refs.target?.id;
    const found = id === undefined ? undefined : byId.get(`${a.kind}:${id}`);
    return found ? liveResourceFields(found, a.address) : undefined;
  };
  return (a) => {
    const key = `${isDeleteOp(a.op) ? 'live' : 'desired'} ${a.address}`;
    let fields = cache.get(key);
    if (fields === undefined) {
      const d = byAddress.get(a.address);
      fields = (isDeleteOp(a.op) ? fromLive(a) : d && desiredResourceFields(d)) ?? fromLive(a) ?? {};
      cache.set(key, fields);
    }
    return fields;
  };
}

/**
 * For `dbform policy test` on a saved plan: with the config it was made from, every action but a
 * delete sees its desired resource, as in plan; without it, what the plan's changes say of the
 * address (the after-values of all its actions). A delete sees the before-values of its own
 * changes: a plan file does not record the live resource, so they are none today.
 */
export function resourcesFromSavedPlan(plan: Plan, desired?: DesiredState): ResourceLookup {
  const byAddress = desired ? desiredByAddress(desired) : new Map<string, DesiredResource>();
  const changed = new Map<string, Action['changes']>();
  for (const a of plan.actions) if (!isDeleteOp(a.op)) changed.set(a.address, [...(changed.get(a.address) ?? []), ...a.changes]);
  return (a) => {
    if (isDeleteOp(a.op)) return fieldsFromChanges(a.changes, true);
    const d = byAddress.get(a.address);
    return d ? desiredResourceFields(d) : fieldsFromChanges(changed.get(a.address) ?? [], false);
  };
}
