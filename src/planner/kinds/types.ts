import type { Kind } from '../../model/index.js';
import type { Match, PlanContext, RemovedEntry } from '../context.js';
import type { Draft } from '../drafts.js';

/** One kind's differ: how its desired resources and removed lockfile entries become drafts. */
export interface KindPlanner<D, L> {
  kind: Kind;
  /** Create, update or replace a desired resource. */
  planDesired(m: Match<D, L>, ctx: PlanContext): Draft[];
  /** Delete a live resource whose address left the config. */
  planRemoved(r: RemovedEntry, live: L, ctx: PlanContext): Draft[];
  /** The live fields that matter for a saved plan's staleness (no metrics, endpoints or timestamps). */
  fingerprintFields(live: L): Record<string, unknown>;
}
