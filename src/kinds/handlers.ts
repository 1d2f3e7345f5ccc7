// The executor's column of the registry: each kind's handlers, by op (decK's crud registry). An op
// without one is safe to repeat and sent as its row says (src/executor/apply-plan.ts). Kept apart
// from index.ts: the handlers run I/O, and the planner, which imports the registry, must not load them.
import type { Handler } from '../executor/action-context.js';
import type { OperationId } from '../model/index.js';
import { peeringHandlers } from './peering/handlers.js';
import { replicaSetHandlers } from './replica-set/handlers.js';
import { serviceHandlers } from './service/handlers.js';
import { vpcHandlers } from './vpc/handlers.js';

export const HANDLERS: Readonly<Partial<Record<OperationId, Handler>>> = { ...vpcHandlers, ...peeringHandlers, ...serviceHandlers, ...replicaSetHandlers };
