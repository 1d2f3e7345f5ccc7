// `--json` / `--format json`: the plan JSON of SPEC section 3, keys in a fixed order.
import { terminalJson, type Plan } from '../../model/index.js';
import { toPlanJson } from '../../planner/index.js';

export function renderPlanJson(plan: Plan): string {
  return `${terminalJson(toPlanJson(plan), 2)}\n`;
}
