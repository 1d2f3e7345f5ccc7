// What every stage of planning shares: the inputs, their indexes, the matching result, and
// what earlier stages decided (which resources are created afresh, which live VPCs go away).
import type {
  ActionReason,
  Address,
  Binding,
  DesiredPeering,
  DesiredReplicaSet,
  DesiredService,
  DesiredState,
  DesiredVpc,
  Diagnostic,
  Kind,
  LiveState,
  LivePeering,
  LiveReplicaSet,
  LiveService,
  LiveVpc,
  LockEntry,
  Lockfile,
  PlanShape,
  ResourceRef,
} from '../model/index.js';
import { isReplicaSetGone, isServiceGone } from './normalize.js';

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

export type LiveResource = LiveVpc | LivePeering | LiveService | LiveReplicaSet;

/** A lockfile entry whose address the config no longer lists. */
export interface RemovedEntry {
  address: Address;
  kind: Kind;
  entry: LockEntry;
  live?: LiveResource;
}

export interface Matching {
  vpcs: Match<DesiredVpc, LiveVpc>[];
  peerings: Match<DesiredPeering, LivePeering>[];
  services: Match<DesiredService, LiveService>[];
  replicaSets: Match<DesiredReplicaSet, LiveReplicaSet>[];
  removed: RemovedEntry[];
  bindings: Binding[];
  /** Desired resources that cannot be planned (ambiguous match), and their children. */
  skipped: Set<Address>;
  unmanaged: number;
}

/** Live resources by ID; resources already on their way out count as gone. */
export interface LiveIndex {
  vpcs: Map<string, LiveVpc>;
  peerings: Map<string, LivePeering>;
  services: Map<string, LiveService>;
  replicaSets: Map<string, LiveReplicaSet>;
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
  /** Live VPC ID -> the address of a VPC this plan deletes or replaces. */
  vpcsGoing: Map<string, { address: Address; replaced: boolean }>;
  /** Address -> live ID, for every matched or removed resource. */
  liveIds: Map<Address, string>;
  /** Live service ID -> the desired address this plan binds it to (lockfile, move or adoption). */
  serviceAddressById: Map<string, Address>;
}

export function indexLive(live: LiveState): LiveIndex {
  const index: LiveIndex = { vpcs: new Map(), peerings: new Map(), services: new Map(), replicaSets: new Map() };
  for (const v of live.vpcs) {
    index.vpcs.set(v.id, v);
    for (const p of v.peerings ?? []) index.peerings.set(p.id, p);
  }
  for (const s of live.services) {
    if (isServiceGone(s)) continue;
    index.services.set(s.id, s);
    for (const r of s.replicaSets) if (!isReplicaSetGone(r)) index.replicaSets.set(r.id, r);
  }
  return index;
}

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
