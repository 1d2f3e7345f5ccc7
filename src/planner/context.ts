// What every stage of planning shares: the inputs, their indexes, the matching result, and
// what earlier stages decided (which resources are created afresh, which live ones go away). The
// planner's kit, with drafts.ts: what a kind's plan part (src/kinds/<kind>) reads and writes.
import type {
  ActionReason,
  Address,
  ApiCapabilities,
  ApiCapability,
  Binding,
  DesiredState,
  Diagnostic,
  Kind,
  LiveState,
  LockEntry,
  Lockfile,
  OperationId,
  OperationSpec,
  PlanShape,
  ResourceRef,
} from '../model/index.js';

/**
 * `replace` (`--replace ADDR`): plan these resources as delete + create; `target` (`--target
 * ADDR`): plan only these resources and what they depend on; `allowDataLoss`: unblock data-loss
 * actions on unprotected resources.
 */
export interface PlanOptions extends PlanShape {
  /**
   * IDs that another workspace of the same state binds, with which workspace and address (SPEC
   * sections 10 and 13): never adopted by name, neither for a new address nor for one whose
   * lockfile ID is gone, and never created again under their name. Empty when not given.
   */
  claimedElsewhere?: ReadonlyMap<string, ClaimedElsewhere>;
  /**
   * The current time (epoch ms), given by the caller because the planner has no clock. A PITR
   * `target_time` that is not in the past is an error; undefined skips that check.
   */
  now?: number;
  /**
   * A destroy (SPEC sections 4 and 17): the bindings a restore retired are deleted like the
   * others (their protect still blocks), and no restore under way is planned. Otherwise a retired
   * binding is never planned for deletion: it is not "removed from the config".
   */
  deleteRetired?: boolean;
  /**
   * What the API can do (SPEC section 15), as far as the caller found out. A capability not given
   * counts as absent (a service rename is a replace), and a plan it decides says it `needs` it.
   */
  api?: ApiCapabilities;
}

/** Another workspace's binding of a live resource. */
export interface ClaimedElsewhere {
  workspace: string;
  address: Address;
}

/** How a desired resource found (or did not find) its live counterpart (SPEC section 2). */
export type MatchHow = 'lock' | 'adopt' | 'move' | 'drift' | 'new';

export interface Match<D, L> {
  address: Address;
  desired: D;
  how: MatchHow;
  live?: L;
  /** The lockfile entry bound to this address after moves. */
  entry?: LockEntry;
}

/** A live resource of any kind, as generic code sees it. */
export interface LiveResource {
  id: string;
}

/** A lockfile entry whose address the config no longer lists. */
export interface RemovedEntry {
  address: Address;
  kind: Kind;
  entry: LockEntry;
  live?: LiveResource;
}

export interface Matching {
  /** The address of every desired resource (the config's, after a restore's changes). */
  wanted: ReadonlySet<Address>;
  /** Each kind's desired resources with their live counterparts, in the config's order. */
  matches: Record<Kind, Array<Match<unknown, unknown>>>;
  removed: RemovedEntry[];
  /** Retired bindings (SPEC section 17) the config does not list: kept, never planned for deletion. */
  retired: RemovedEntry[];
  bindings: Binding[];
  /** Desired resources that cannot be planned (ambiguous match), and their children. */
  skipped: Set<Address>;
  unmanaged: number;
}

/** Live resources by kind and ID; resources already on their way out count as gone. */
export type LiveIndex = Readonly<Record<Kind, Map<string, LiveResource>>>;

/** A live resource this plan deletes (`replaced`: and creates again under the same address). */
export interface Going {
  address: Address;
  replaced: boolean;
}

export interface PlanContext {
  desired: DesiredState;
  live: LiveState;
  lock: Lockfile;
  options: PlanOptions;
  index: LiveIndex;
  matching: Matching;
  diagnostics: Diagnostic[];
  /** Addresses whose resource is created in this plan (new, drift or replace), with why. */
  fresh: Map<Address, ActionReason>;
  /** `kind:id` (liveKey) of a live resource this plan deletes or replaces. */
  going: Map<string, Going>;
  /** Address -> live ID, for every matched or removed resource. */
  liveIds: Map<Address, string>;
  /**
   * The desired address this plan binds a live resource of `kind` to (lockfile, move or adoption),
   * by its ID. Only a fork by service_id asks: the index behind it is made on the first question.
   */
  boundTo: (kind: Kind, id: string) => Address | undefined;
  /** The op table (src/kinds/index.ts), for a kind that plans around other kinds' ops. */
  operations: Readonly<Record<OperationId, OperationSpec>>;
  /** What the API can do, as the caller gave it (PlanOptions.api). */
  api: ApiCapabilities;
  /** The capabilities that decided how a change of this plan is made (a kind's plan part adds them). */
  consulted: Set<ApiCapability>;
}

/** The key of a live resource in `going`. */
export const liveKey = (kind: Kind, id: string): string => `${kind}:${id}`;

/** The live ID of a resource this plan keeps (not created or replaced), else undefined. */
export function stableId(ctx: PlanContext, address: Address): string | undefined {
  return ctx.fresh.has(address) ? undefined : ctx.liveIds.get(address);
}

/** A reference the executor resolves: the ID when it is known now, the address always. */
export function refTo(ctx: PlanContext, address: Address): ResourceRef {
  const id = stableId(ctx, address);
  return id === undefined ? { address } : { address, id };
}

/** `protect` from the config, else the one recorded in the lockfile (SPEC section 2). */
export function effectiveProtect(desired: { protect?: boolean } | undefined, entry: LockEntry | undefined): boolean {
  return desired?.protect ?? entry?.protect ?? false;
}
