// A plan with the policies' verdicts on it: what plan and apply print and refuse (SPEC section 16).
import type { Diagnostic, Plan } from '../model/index.js';
import { blockedText } from './evaluate.js';
import type { PolicyResult } from './types.js';

/**
 * `plan` with every action a deny holds for marked `blocked: "policy NAME: message"`, and, when a
 * plan_deny holds, every action marked with it (the whole plan may not run). An action already
 * blocked (protection, the data-loss guard) keeps its reason: it is blocked either way, and
 * `--allow-data-loss` lifting the guard leaves the policy's mark, since the planner then sets none.
 */
export function markPolicyBlocks(plan: Plan, result: PolicyResult): Plan {
  const planDeny = blockedText(result.plan);
  if (result.denies === 0) return plan;
  return {
    ...plan,
    actions: plan.actions.map((a) => {
      if (a.blocked !== undefined) return a;
      const blocked = blockedText(result.actions[a.id]) ?? planDeny;
      return blocked === undefined ? a : { ...a, blocked };
    }),
  };
}

/**
 * The warnings (and plan-level denies) as diagnostics, for the renderers that list a plan's
 * diagnostics: `policy NAME: message`, with the action's address when it has one.
 */
export function policyDiagnostics(plan: Plan, result: PolicyResult): Diagnostic[] {
  const out: Diagnostic[] = [];
  for (const a of plan.actions) {
    for (const v of result.actions[a.id] ?? []) {
      if (v.effect === 'warn') out.push({ severity: 'warning', address: a.address, message: `policy ${v.rule}: ${v.message}`, code: 'policy' });
    }
  }
  for (const v of result.plan) {
    if (v.effect !== 'pass') out.push({ severity: v.effect === 'deny' ? 'error' : 'warning', message: `policy ${v.rule}: ${v.message}`, code: 'policy' });
  }
  return out;
}
