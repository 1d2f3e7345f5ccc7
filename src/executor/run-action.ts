// From operation to handler: each kind's handlers (src/kinds/handlers.ts). An op that is safe to
// repeat and has no handler of its own is sent as its row says and waited for as it says
// (`sendOperation`).
import { OPERATIONS } from '../kinds/index.js';
import { HANDLERS } from '../kinds/handlers.js';
import type { Action } from '../model/index.js';
import type { ActionContext, ActionOutcome } from './action-context.js';
import { sendOperation } from './send-operation.js';

export function runAction(ctx: ActionContext, action: Action): Promise<ActionOutcome> {
  const handler = HANDLERS[action.op] ?? (OPERATIONS[action.op]?.safety === 'repeatable' ? sendOperation : undefined);
  if (!handler) return Promise.reject(new Error(`unknown operation ${String(action.op)}`));
  return handler(ctx, action);
}
