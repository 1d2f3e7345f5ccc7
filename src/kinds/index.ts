// The registry (octoDNS's Record.register_type, decK's crud registry): every kind dbform manages,
// in the order plans, the state and output list them (SPEC section 2), and the op table their
// rows make. Generic code asks here; a kind's own code lives in its folder.
import { OPERATION_NAMES, fillRoute, routeParams, type FieldChange, type Kind, type OperationId, type OperationSpec, type Risk, type RouteIds } from '../model/index.js';
import { peeringKind } from './peering/kind.js';
import { replicaSetKind } from './replica-set/kind.js';
import { serviceKind } from './service/kind.js';
import type { AnyKind } from './types.js';
import { vpcKind } from './vpc/kind.js';

export type { AnyKind, KindDefinition } from './types.js';

/** Every kind, parents before the kinds that belong to them. */
export const KINDS: readonly AnyKind[] = [vpcKind, peeringKind, serviceKind, replicaSetKind];

const BY_KIND = new Map<Kind, AnyKind>(KINDS.map((k) => [k.kind, k]));

/** The definition of `kind`. */
export function kindDef(kind: Kind): AnyKind {
  return BY_KIND.get(kind)!;
}

// ---- the op table ---------------------------------------------------------------------------

// Every kind's rows; a name of model/operations.ts without a row fails to compile here.
const ROWS: Record<OperationId, OperationSpec> = { ...vpcKind.ops, ...peeringKind.ops, ...serviceKind.ops, ...replicaSetKind.ops };

export const OPERATIONS: Readonly<Record<OperationId, OperationSpec>> = ROWS;

/** Every operation, in the order of the plan schema's `op` enum. */
export const OPERATION_IDS: readonly OperationId[] = OPERATION_NAMES;

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

/** The route of `op` with its `{name}` placeholders filled from `ids` (each URI-encoded). */
export const operationPath = (op: OperationId, ids: RouteIds): string => fillRoute(op, OPERATIONS[op], ids);

/** The `{name}` placeholders of an op's route, in order: what a caller must supply. */
export const operationParams = (op: OperationId): string[] => routeParams(OPERATIONS[op]);
