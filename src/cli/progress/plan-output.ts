// The plan as apply and destroy show it before asking: the same text renderer `dbform plan` uses.
import type { Plan } from '../../model/index.js';
import { renderPlanText } from '../render/text.js';

export function printPlan(plan: Plan, out: NodeJS.WritableStream, color: boolean): void {
  out.write(renderPlanText(plan, { color }));
}
