// What dbform knows about an operation, as data (Terraform's plans.Action, decK's crud op kinds):
// the shape of an op table row (the operations' names are the plan's: plan.ts). Each kind
// declares its own rows (src/kinds/<kind>); the registry (src/kinds/index.ts) puts them in one
// table that the planner orders, guards and classifies with, the client sends with, the executor
// waits with, and the saved-plan reader and the plan schema's `op` enum list.
import type { Kind } from './address.js';
import { pathSegment } from './path-segment.js';
import type { FieldChange, OperationId, Risk } from './plan.js';

export type { OperationId } from './plan.js';

/** What an operation does to the resource it names: summaries count resources by these. */
export type OperationEffect = 'create' | 'delete' | 'update';

/**
 * What may be sent again when an attempt fails (src/api/retry.ts): `repeatable` on any transient
 * failure; `checked` too, reading the resource back when a repeat is refused after an unknown
 * outcome; `create` only when the failure proves nothing was done, since a lost response may hide
 * a new resource (the executor then lists and adopts, SPEC section 5).
 */
export type OperationSafety = 'create' | 'checked' | 'repeatable';

/**
 * What the executor waits for once the API accepted the call (SPEC section 3), on the resource the
 * op acts on; what each goal means for its kind, the kind says (src/kinds/<kind>): `ready` is
 * usable (a service READY, a VPC created), `paused` stopped, `gone` deleted, `attachment` what
 * only the op's own handler knows (the VPC attached to, or left).
 */
export type OperationWait = 'none' | 'ready' | 'paused' | 'gone' | 'attachment';

export interface OperationSpec {
  kind: Kind;
  /** Method and route template, exactly as cloud-api.md and the emulator's request stats spell them. */
  api: { method: 'POST' | 'DELETE'; route: string };
  /**
   * Where it runs among the operations on one resource: lower first. Each resource gets an op at
   * most once per plan, so this order is the chain its actions run in (SPEC section 3).
   */
  rank: number;
  /** Its risk class; a function when the changes decide (fewer HA replicas, not more). */
  risk: Risk | ((changes: readonly FieldChange[]) => Risk);
  safety: OperationSafety;
  effect: OperationEffect;
  /** After it the resource is ready again: the ops of its children, and forks taken from it, wait for the last one. */
  readyPoint: boolean;
  /** The API accepts it only while the resource (for a child's op, its parent; for a fork, the parent it is taken from) is READY. */
  needsReady: boolean;
  wait: OperationWait;
}

/** Values of a route's placeholders, by name: `{ project_id: 'p1', service_id: 's1' }`. */
export type RouteIds = Readonly<Record<string, string>>;

/** The route of `spec` with its `{name}` placeholders filled from `ids` (each URI-encoded). */
export function fillRoute(op: OperationId, spec: OperationSpec, ids: RouteIds): string {
  return spec.api.route.replace(/\{([a-z_]+)\}/g, (_m, name: string) => {
    const id = ids[name];
    if (id === undefined) throw new Error(`${op} needs ${name}`);
    return pathSegment(id, name.replace(/_/g, ' '));
  });
}

/** The `{name}` placeholders of a route, in order: what a caller must supply. */
export function routeParams(spec: OperationSpec): string[] {
  return [...spec.api.route.matchAll(/\{([a-z_]+)\}/g)].map((m) => m[1]!);
}

/** Route templates below the project: each kind builds its rows' routes from these. */
export const PROJECT_ROUTE = '/projects/{project_id}';
export const post = (route: string) => ({ method: 'POST' as const, route });
export const del = (route: string) => ({ method: 'DELETE' as const, route });
