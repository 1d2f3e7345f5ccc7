// Checks that need no API call and would otherwise fail half-way through an apply.
import { type Plan } from '../model/index.js';
import { isCreateOp, OPERATIONS } from '../kinds/index.js';

/** Whether the plan creates services, whose one-time initial passwords go to the pgpass file. */
export function planCreatesServices(plan: Plan): boolean {
  return plan.actions.some((a) => isCreateOp(a.op) && OPERATIONS[a.op].kind === 'service' && a.blocked === undefined);
}

export interface MissingPasswordEnv {
  address: string;
  variable: string;
}

/**
 * The password changes of the plan whose `from_env` variable is unset or empty. Apply refuses
 * before changing anything rather than creating a service and then failing to set its password.
 */
export function findMissingPasswordEnv(plan: Plan, env: NodeJS.ProcessEnv): MissingPasswordEnv[] {
  const missing: MissingPasswordEnv[] = [];
  for (const action of plan.actions) {
    if (action.op !== 'updatePassword' || !action.password || action.blocked !== undefined) continue;
    const value = env[action.password.fromEnv];
    if (value === undefined || value === '') missing.push({ address: action.address, variable: action.password.fromEnv });
  }
  return missing;
}

export function describeMissingPasswordEnv(missing: MissingPasswordEnv[]): string {
  return missing.map((m) => `environment variable ${m.variable} (password.from_env of ${m.address}) is not set or empty`).join('\n  ');
}
