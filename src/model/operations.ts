// One row per API operation (Terraform's plans.Action, decK's crud op kinds): everything dbform
// knows about an operation, in one place. The planner orders, guards and classifies with it, the
// client sends with it, the executor waits with it, the saved-plan reader and the plan schema's
// `op` enum list its keys. A new operation is one row here, a client call, and its handler.
import type { Kind } from './address.js';
import { pathSegment } from './path-segment.js';
import type { FieldChange, Risk } from './plan.js';

/** What an operation does to the resource it names: summaries count resources by these. */
export type OperationEffect = 'create' | 'delete' | 'update';

/**
 * What may be sent again when an attempt fails (src/api/retry.ts): `repeatable` on any transient
 * failure; `checked` too, reading the resource back when a repeat is refused after an unknown
 * outcome; `create` only when the failure proves nothing was done, since a lost response may hide
 * a new resource (the executor then lists and adopts, SPEC section 5).
 */
export type OperationSafety = 'create' | 'checked' | 'repeatable';

/** What the executor waits for once the API accepted the call (SPEC section 3). */
export type OperationWait =
  | 'none'
  | 'service-ready'
  | 'service-paused'
  | 'service-gone'
  | 'service-vpc'
  | 'replica-set-active'
  | 'replica-set-gone'
  | 'peering-settled'
  | 'peering-gone'
  | 'vpc-settled';

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
  /** After it the service is READY again: its replica sets and forks taken from it wait for the last one. */
  readyPoint: boolean;
  /** The API accepts it only while the service (for a fork, its parent) is READY. */
  needsReady: boolean;
  wait: OperationWait;
}

const PROJECT = '/projects/{project_id}';
const VPC = `${PROJECT}/vpcs/{vpc_id}`;
const SERVICE = `${PROJECT}/services/{service_id}`;
const REPLICA_SET = `${SERVICE}/replicaSets/{replica_set_id}`;

const post = (route: string) => ({ method: 'POST' as const, route });
const del = (route: string) => ({ method: 'DELETE' as const, route });

/** An HA change is an availability risk only when it lowers a replica count. */
function haRisk(changes: readonly FieldChange[]): Risk {
  const lowers = changes.some((c) => c.path.startsWith('ha.') && typeof c.before === 'number' && typeof c.after === 'number' && c.after < c.before);
  return lowers ? 'availability' : 'none';
}

// Rows in the order of the plan schema's `op` enum. Ranks leave gaps so that a new op slots in
// between without renumbering; only their order matters.
const ROWS = {
  createVPC: { kind: 'vpc', api: post(`${PROJECT}/vpcs`), rank: 40, risk: 'none', safety: 'create', effect: 'create', readyPoint: false, needsReady: false, wait: 'vpc-settled' },
  renameVPC: { kind: 'vpc', api: post(`${VPC}/rename`), rank: 100, risk: 'none', safety: 'repeatable', effect: 'update', readyPoint: false, needsReady: false, wait: 'none' },
  deleteVPC: { kind: 'vpc', api: del(VPC), rank: 30, risk: 'connectivity', safety: 'checked', effect: 'delete', readyPoint: false, needsReady: false, wait: 'none' },
  createVPCPeering: { kind: 'peering', api: post(`${VPC}/peerings`), rank: 50, risk: 'none', safety: 'create', effect: 'create', readyPoint: false, needsReady: false, wait: 'peering-settled' },
  deleteVPCPeering: { kind: 'peering', api: del(`${VPC}/peerings/{peering_id}`), rank: 10, risk: 'connectivity', safety: 'checked', effect: 'delete', readyPoint: false, needsReady: false, wait: 'peering-gone' },
  createService: { kind: 'service', api: post(`${PROJECT}/services`), rank: 60, risk: 'none', safety: 'create', effect: 'create', readyPoint: true, needsReady: false, wait: 'service-ready' },
  forkService: { kind: 'service', api: post(`${SERVICE}/forkService`), rank: 70, risk: 'none', safety: 'create', effect: 'create', readyPoint: true, needsReady: true, wait: 'service-ready' },
  deleteService: { kind: 'service', api: del(SERVICE), rank: 20, risk: 'data-loss', safety: 'checked', effect: 'delete', readyPoint: false, needsReady: false, wait: 'service-gone' },
  resizeService: { kind: 'service', api: post(`${SERVICE}/resize`), rank: 110, risk: 'none', safety: 'checked', effect: 'update', readyPoint: true, needsReady: true, wait: 'service-ready' },
  setHAReplica: { kind: 'service', api: post(`${SERVICE}/setHA`), rank: 120, risk: haRisk, safety: 'checked', effect: 'update', readyPoint: true, needsReady: true, wait: 'service-ready' },
  startService: { kind: 'service', api: post(`${SERVICE}/start`), rank: 90, risk: 'none', safety: 'checked', effect: 'update', readyPoint: true, needsReady: false, wait: 'service-ready' },
  stopService: { kind: 'service', api: post(`${SERVICE}/stop`), rank: 230, risk: 'availability', safety: 'checked', effect: 'update', readyPoint: false, needsReady: false, wait: 'service-paused' },
  enablePooler: { kind: 'service', api: post(`${SERVICE}/enablePooler`), rank: 160, risk: 'none', safety: 'repeatable', effect: 'update', readyPoint: false, needsReady: false, wait: 'none' },
  disablePooler: { kind: 'service', api: post(`${SERVICE}/disablePooler`), rank: 170, risk: 'connectivity', safety: 'repeatable', effect: 'update', readyPoint: false, needsReady: false, wait: 'none' },
  setEnvironment: { kind: 'service', api: post(`${SERVICE}/setEnvironment`), rank: 140, risk: 'none', safety: 'repeatable', effect: 'update', readyPoint: false, needsReady: false, wait: 'none' },
  attachServiceToVPC: { kind: 'service', api: post(`${SERVICE}/attachToVPC`), rank: 210, risk: 'none', safety: 'checked', effect: 'update', readyPoint: false, needsReady: true, wait: 'service-vpc' },
  detachServiceFromVPC: { kind: 'service', api: post(`${SERVICE}/detachFromVPC`), rank: 200, risk: 'connectivity', safety: 'checked', effect: 'update', readyPoint: false, needsReady: true, wait: 'service-vpc' },
  updatePassword: { kind: 'service', api: post(`${SERVICE}/updatePassword`), rank: 220, risk: 'none', safety: 'repeatable', effect: 'update', readyPoint: false, needsReady: false, wait: 'none' },
  createReplicaSet: { kind: 'replica_set', api: post(`${SERVICE}/replicaSets`), rank: 80, risk: 'none', safety: 'create', effect: 'create', readyPoint: false, needsReady: true, wait: 'replica-set-active' },
  deleteReplicaSet: { kind: 'replica_set', api: del(REPLICA_SET), rank: 0, risk: 'availability', safety: 'checked', effect: 'delete', readyPoint: false, needsReady: false, wait: 'replica-set-gone' },
  resizeReplicaSet: { kind: 'replica_set', api: post(`${REPLICA_SET}/resize`), rank: 130, risk: 'none', safety: 'checked', effect: 'update', readyPoint: false, needsReady: true, wait: 'replica-set-active' },
  enableReplicaPooler: { kind: 'replica_set', api: post(`${REPLICA_SET}/enablePooler`), rank: 180, risk: 'none', safety: 'repeatable', effect: 'update', readyPoint: false, needsReady: false, wait: 'none' },
  disableReplicaPooler: { kind: 'replica_set', api: post(`${REPLICA_SET}/disablePooler`), rank: 190, risk: 'connectivity', safety: 'repeatable', effect: 'update', readyPoint: false, needsReady: false, wait: 'none' },
  setReplicaEnvironment: { kind: 'replica_set', api: post(`${REPLICA_SET}/setEnvironment`), rank: 150, risk: 'none', safety: 'repeatable', effect: 'update', readyPoint: false, needsReady: false, wait: 'none' },
} satisfies Record<string, OperationSpec>;

export type OperationId = keyof typeof ROWS;

export const OPERATIONS: Readonly<Record<OperationId, OperationSpec>> = ROWS;

/** Every operation, in table order. */
export const OPERATION_IDS = Object.keys(ROWS) as OperationId[];

const DENSE_RANK = new Map([...OPERATION_IDS].sort((a, b) => ROWS[a].rank - ROWS[b].rank).map((op, i) => [op, i]));

/** The op's place among one resource's ops, as 0, 1, 2...: small enough to combine with other ranks. */
export const opRank = (op: OperationId): number => DENSE_RANK.get(op)!;

export const isCreateOp = (op: OperationId): boolean => OPERATIONS[op].effect === 'create';
export const isDeleteOp = (op: OperationId): boolean => OPERATIONS[op].effect === 'delete';

/** The risk class of an op with these changes (SPEC section 3). */
export function operationRisk(op: OperationId, changes: readonly FieldChange[]): Risk {
  const risk = OPERATIONS[op].risk;
  return typeof risk === 'function' ? risk(changes) : risk;
}

const opsWhere = (test: (spec: OperationSpec) => boolean): ReadonlySet<OperationId> => new Set(OPERATION_IDS.filter((op) => test(OPERATIONS[op])));

/** Operations whose request creates a resource; never re-sent blindly (SPEC section 5). */
export const CREATE_OPS = opsWhere((s) => s.effect === 'create');
export const DELETE_OPS = opsWhere((s) => s.effect === 'delete');

/** Values of a route's placeholders, by name: `{ project_id: 'p1', service_id: 's1' }`. */
export type RouteIds = Readonly<Record<string, string>>;

/** The route of `op` with its `{name}` placeholders filled from `ids` (each URI-encoded). */
export function operationPath(op: OperationId, ids: RouteIds): string {
  return OPERATIONS[op].api.route.replace(/\{([a-z_]+)\}/g, (_m, name: string) => {
    const id = ids[name];
    if (id === undefined) throw new Error(`${op} needs ${name}`);
    return pathSegment(id, name.replace(/_/g, ' '));
  });
}

/** The `{name}` placeholders of an op's route, in order: what a caller must supply. */
export function operationParams(op: OperationId): string[] {
  return [...OPERATIONS[op].api.route.matchAll(/\{([a-z_]+)\}/g)].map((m) => m[1]!);
}
