// The plan as apply and destroy show it before asking: the same text renderer `dbform plan` uses,
// and the same refusal of a plan that holds the API credential.
import type { Plan } from '../../model/index.js';
import { refuseCredentials } from '../credential-guard.js';
import { renderPlanText } from '../render/text.js';

export function printPlan(plan: Plan, out: NodeJS.WritableStream, color: boolean, secrets: readonly string[]): void {
  const text = renderPlanText(plan, { color });
  refuseCredentials(text, secrets, plan);
  out.write(text);
}
