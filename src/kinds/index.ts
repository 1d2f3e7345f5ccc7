// The registry (octoDNS's Record.register_type, decK's crud registry): every kind dbform manages,
// in the order plans, the state and output list them (SPEC section 2), and the op table their
// rows make. Generic code asks here; a kind's own code lives in its folder.
import {
  KIND_NOUNS,
  nounOf,
  OPERATION_NAMES,
  fillRoute,
  routeParams,
  type DesiredState,
  type FieldChange,
  type Kind,
  type LiveState,
  type OperationId,
  type OperationSpec,
  type Risk,
  type RouteIds,
  type SourceRef,
} from '../model/index.js';
import { peeringKind } from './peering/kind.js';
import { replicaSetKind } from './replica-set/kind.js';
import { serviceKind } from './service/kind.js';
import type { AnyKind } from './types.js';
import { vpcKind } from './vpc/kind.js';

export type { AnyKind, ConfigEntry, ConfigKit, ConfigProblem, KindDefinition } from './types.js';

/** Every kind, parents before the kinds that belong to them. */
export const KINDS: readonly AnyKind[] = [vpcKind, peeringKind, serviceKind, replicaSetKind];

const BY_KIND = new Map<Kind, AnyKind>(KINDS.map((k) => [k.kind, k]));

/** The definition of `kind`. */
export function kindDef(kind: Kind): AnyKind {
  return BY_KIND.get(kind)!;
}

/** Whether a live resource of `kind` is on its way out (its kind's `live.gone`). */
export const isGone = (kind: Kind, live: unknown): boolean => kindDef(kind).live.gone(live);

/** Whether a live resource of `kind` is in a terminal failed state, which a plan replaces (its kind's `live.failed`). */
export const isFailed = (kind: Kind, live: unknown): boolean => kindDef(kind).live.failed?.(live) ?? false;

/** Whether dbform knows what `status` means for a resource of `kind` (its kind's `live.known`). */
export const knownStatus = (kind: Kind, status: string): boolean => kindDef(kind).live.known?.(status) ?? true;

/** How messages name one resource: `service kd9w2xp4mz`, or with its parent `replica set r1 of service s1`. */
export function describeRef(kind: Kind, id: string, parentId?: string): string {
  const parent = kindDef(kind).parent;
  return parent === undefined || parentId === undefined ? `${nounOf(kind)} ${id}` : `${nounOf(kind)} ${id} of ${nounOf(parent)} ${parentId}`;
}

// Computed once per kind: the config's walks ask for it for every entry of 10,000 services.
const CONFIG_KEYS = new Map<Kind, string>(KINDS.map((k) => [k.kind, k.listKey.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`)]));

/** The YAML key of a kind's collection in the config: its listKey in snake_case (`replica_sets`). */
export const configKey = (def: AnyKind): string => CONFIG_KEYS.get(def.kind)!;

/** The kinds that belong to no other: their resources sit in the desired and live states themselves. */
export const TOP_KINDS: readonly AnyKind[] = KINDS.filter((k) => k.parent === undefined);

const CHILDREN = new Map<Kind, readonly AnyKind[]>(KINDS.map((k) => [k.kind, KINDS.filter((c) => c.parent === k.kind)]));

/** The kinds whose resources belong to a resource of `kind`. */
export const childKinds = (kind: Kind): readonly AnyKind[] => CHILDREN.get(kind)!;

/** A desired or live resource as generic code holds it: the kind's own type is its business. */
type Resource = { address?: string; id?: string; source?: SourceRef };

/** The resources of `def` in `container`: the desired state (a top kind) or a parent desired resource. */
export const desiredIn = (def: AnyKind, container: unknown): Resource[] => (container as Record<string, Resource[]>)[def.listKey]!;

/** The live resources of `def` in `container`: the live state or a parent live resource (undefined: not read). */
export const liveIn = (def: AnyKind, container: unknown): Array<{ id: string }> | undefined => (container as Record<string, Array<{ id: string }> | undefined>)[def.listKey];

/** Sets a parent live resource's list of `def`'s resources; `undefined`: not read (its kind's `read.unread`). */
export function attachLive(def: AnyKind, parent: unknown, list: Array<{ id: string }> | undefined): void {
  if (list !== undefined || def.read.unread !== 'absent') (parent as Record<string, unknown>)[def.listKey] = list ?? [];
}

/** A live resource of `kind` from its wire body, with the children the body carries (the others: read.unread). */
export function mapLive(kind: Kind, dto: unknown, parentId = ''): { id: string } {
  const def = kindDef(kind);
  const live = def.read.map(dto, parentId) as { id: string };
  for (const child of childKinds(kind)) attachLive(child, live, child.read.embedded?.(dto)?.map((c: unknown) => mapLive(child.kind, c, live.id)));
  return live;
}

/**
 * Every resource of the desired state, each parent before its children, in registry order of the
 * top kinds: the order of the config and of plans.
 */
export function eachDesired(state: DesiredState, visit: (def: AnyKind, resource: Resource, parent?: Resource) => void): void {
  const walk = (def: AnyKind, container: unknown, parent?: Resource) => {
    const children = childKinds(def.kind);
    for (const r of desiredIn(def, container)) {
      visit(def, r, parent);
      for (const child of children) walk(child, r, r);
    }
  };
  for (const top of TOP_KINDS) walk(top, state);
}

/** How many resources of each kind a desired state holds, in registry order, by collection key (`vpcs`, `services`...), with each kind's nouns. */
export function countByCollection(desired: DesiredState): Array<{ key: string; count: number; one: string; many: string }> {
  const counts = new Map<Kind, number>(KINDS.map((k) => [k.kind, 0]));
  eachDesired(desired, (def) => counts.set(def.kind, counts.get(def.kind)! + 1));
  return KINDS.map((k) => ({ key: configKey(k), count: counts.get(k.kind)!, ...KIND_NOUNS[k.kind] }));
}

/**
 * Every live resource that was read, each parent before its children; `gone` ones too unless
 * `keepGone` is false, and then their children with them.
 */
export function eachLive(live: LiveState, visit: (def: AnyKind, resource: { id: string }, parent?: { id: string }) => void, keepGone = true): void {
  const walk = (def: AnyKind, container: unknown, parent?: { id: string }) => {
    const children = childKinds(def.kind);
    for (const r of liveIn(def, container) ?? []) {
      if (!keepGone && def.live.gone(r)) continue;
      visit(def, r, parent);
      for (const child of children) walk(child, r, r);
    }
  };
  for (const top of TOP_KINDS) walk(top, live);
}

/** Live resources by kind and ID ("find a live resource by kind and ID", written once). */
export type LiveById = Readonly<Record<Kind, Map<string, { id: string }>>>;

/** The index of `live`; without the resources on their way out (and their children) unless `keepGone`. */
export function indexLive(live: LiveState, keepGone = true): LiveById {
  const index = Object.fromEntries(KINDS.map((k) => [k.kind, new Map<string, { id: string }>()])) as Record<Kind, Map<string, { id: string }>>;
  eachLive(live, (def, r) => void index[def.kind].set(r.id, r), keepGone);
  return index;
}

/**
 * Both indexes of `live`: with every resource, and without those on their way out (and their
 * children). When none is on its way out (the usual state) they are one and the same, made by
 * one walk.
 */
export function indexLiveBoth(live: LiveState): { all: LiveById; kept: LiveById } {
  const all = indexLive(live);
  const someGone = KINDS.some((def) => {
    for (const r of all[def.kind].values()) if (def.live.gone(r)) return true;
    return false;
  });
  return { all, kept: someGone ? indexLive(live, false) : all };
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
