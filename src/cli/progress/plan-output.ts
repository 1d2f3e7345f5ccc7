// The plan as apply and destroy show it before asking. TEMPORARY minimal listing until the
// planner branch's text renderer (src/cli/render/) lands; then this delegates to it.
import { planHasChanges, type Plan } from '../../model/index.js';

export function printPlan(plan: Plan, out: NodeJS.WritableStream, _color: boolean): void {
  if (!planHasChanges(plan)) {
    out.write('No changes. The live infrastructure matches the configuration.\n');
    return;
  }
  for (const b of plan.bindings) out.write(`  ${b.kind} ${b.address}${b.id ? ` (${b.id})` : ''}\n`);
  for (const a of plan.actions) out.write(`  ${a.op} ${a.address}${a.blocked ? ` [blocked: ${a.blocked}]` : ''}\n`);
}
