// The registry: kind -> its differ (decK's pkg/types pattern).
import type { Kind } from '../../model/index.js';
import { peeringPlanner } from './peering.js';
import { replicaSetPlanner } from './replica-set.js';
import { servicePlanner } from './service.js';
import type { KindPlanner } from './types.js';
import { vpcPlanner } from './vpc.js';

// Each entry is typed by its own kind; callers that hold a Kind only (fingerprints) read it loosely.
export const KIND_PLANNERS = {
  vpc: vpcPlanner,
  peering: peeringPlanner,
  service: servicePlanner,
  replica_set: replicaSetPlanner,
} as const;

export function plannerFor(kind: Kind): KindPlanner<unknown, unknown> {
  return KIND_PLANNERS[kind] as unknown as KindPlanner<unknown, unknown>;
}

export type { KindPlanner } from './types.js';
