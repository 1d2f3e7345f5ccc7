// The plan is plain data: the planner produces it, renderers print it, the executor walks it,
// and a saved plan file is its JSON form (SPEC section 3). Internal names are camelCase;
// toPlanJson/fromPlanJson (src/planner) convert at the edge to the snake_case of the SPEC.
import type { Address, Kind } from './address.js';
import type { Diagnostic } from './diagnostics.js';

/** Every operation of SPEC section 3, in the order of the plan schema's `op` enum. */
export const OPERATION_NAMES = [
  'createVPC',
  'renameVPC',
  'deleteVPC',
  'createVPCPeering',
  'deleteVPCPeering',
  'createService',
  'forkService',
  'renameService',
  'deleteService',
  'resizeService',
  'setHAReplica',
  'startService',
  'stopService',
  'enablePooler',
  'disablePooler',
  'setEnvironment',
  'attachServiceToVPC',
  'detachServiceFromVPC',
  'updatePassword',
  'createReplicaSet',
  'deleteReplicaSet',
  'resizeReplicaSet',
  'enableReplicaPooler',
  'disableReplicaPooler',
  'setReplicaEnvironment',
] as const;

export type OperationId = (typeof OPERATION_NAMES)[number];

/** Why an action exists (Terraform's ActionReason). */
export type ActionReason =
  | 'missing' // not live, not in the lockfile: create
  | 'drift' // the lockfile's ID is gone: create again
  | 'changed' // a managed field differs: in-place update
  | 'immutable-field' // a field that cannot change in place differs: replace
  | 'replace-requested' // --replace ADDR
  | 'parent-replaced' // its service or VPC is replaced, which takes it along: created again under the new one
  | 'removed' // in the lockfile, no longer in the config: delete
  | 'destroy' // `dbform destroy`: everything the lockfile binds is deleted
  | 'wake-for-changes' // a paused service started so that changes needing READY can run
  | 'restore-paused' // ...and stopped again afterwards
  | 'failed'; // the live resource is in a terminal failed state: replace it

export type Risk = 'data-loss' | 'connectivity' | 'availability' | 'none';

export interface FieldChange {
  path: string;
  before: unknown;
  after: unknown;
  forcesReplace: boolean;
  /** Rendered as "(sensitive)"; before/after never hold a secret. */
  sensitive: boolean;
}

/** A reference the executor resolves at apply time: a known ID, or the ID bound to an address. */
export interface ResourceRef {
  address?: Address;
  id?: string;
}

export interface Action {
  /** Stable within a plan: a1, a2, ... in plan order. */
  id: string;
  address: Address;
  kind: Kind;
  op: OperationId;
  reason: ActionReason;
  risk: Risk;
  dependsOn: string[];
  changes: FieldChange[];
  /** Set when the action may not run: protection or the data-loss guard. */
  blocked?: string;
  /**
   * What the executor needs to run the call without the config:
   * - target: the resource acted on (unknown ID for one created earlier in the same apply)
   * - service, vpc (a kind's name): the resource of that kind the action needs besides its
   *   target: its parent (for a child kind's action), the VPC attached to or detached from
   * - forkParent: the service a fork is taken from
   */
  refs: { target?: ResourceRef; service?: ResourceRef; vpc?: ResourceRef; forkParent?: ResourceRef };
  /** The request body as sent on the wire (snake_case). Never holds a secret. */
  request?: Record<string, unknown>;
  /** updatePassword only: the environment variable to read at apply time, and the version to record. */
  password?: { fromEnv: string; version: number };
  /** Written to the lockfile entry once this action (a create) succeeds. */
  protect?: boolean;
  /** What the policies say of this action (SPEC section 16): each deny and warn that holds. */
  policy?: PolicyVerdict[];
}

/** One policy rule that holds for an action (or, plan-level, for the plan). */
export interface PolicyVerdict {
  rule: string;
  effect: 'deny' | 'warn';
  message: string;
}

export type BindingKind =
  | 'adopt' // a live resource found by its unique name becomes this address
  | 'move' // a lockfile entry moves to a new address (renamed key, or `moved:`)
  | 'protect' // only the lockfile's protect flag changes
  | 'forget' // a lockfile entry whose resource is already gone and no longer configured
  | 'retire'; // a restore (SPEC section 17) retires the entry at `from` to this address once the fork is bound

export interface Binding {
  kind: BindingKind;
  address: Address;
  id?: string;
  /** move, retire: the previous address. */
  from?: Address;
  protect?: boolean;
  /** retire: the time the restore goes back to (its `--to`). */
  targetTime?: string;
}

export interface Summary {
  create: number;
  update: number;
  replace: number;
  delete: number;
  adopt: number;
  move: number;
  unchanged: number;
  unmanaged: number;
  /**
   * Managed resources still in a transitional status (SPEC section 5), with or without actions;
   * apply waits for them. Not counted as unchanged.
   */
  settling: number;
}

/** A value in a drift report: a field, or one part of a pair such as a size. */
export type DriftValue = string | number | boolean | null;

/** A managed field whose live value differs from the one the last apply left (SPEC section 11). */
export interface DriftChange {
  /** As plan changes name it: cpu_millis, ha.replicas, vpc_id, service_type. */
  path: string;
  /** As last applied. */
  before: DriftValue;
  /** As it is live now. */
  after: DriftValue;
}

/** A bound resource changed (or deleted) outside dbform since the last apply. */
export interface Drift {
  address: Address;
  id: string;
  /** The resource is gone (or being deleted). */
  deleted: boolean;
  changes: DriftChange[];
}

// Settling resources (SPEC section 5): a resource in a transitional status is still changing, from
// an earlier (perhaps interrupted) apply or from outside dbform. Apply waits until none of the resources the
// config manages is in one before it reports success, and `plan` lists them as settling. Which
// statuses are transitional each kind says (its `live.settling`); a resource being deleted counts
// as gone instead.
/** A managed resource still in transition when the plan was made. */
export interface SettlingResource {
  address: Address;
  kind: Kind;
  id: string;
  /** The ID of the resource it belongs to, for a kind with a parent (the waits read it from the parent's list). */
  parentId?: string;
  /** The transitional status seen when planning. */
  status: string;
  /**
   * The operation an earlier apply sent and did not see finish (SPEC section 14), recorded in the
   * state: apply waits for it instead of sending it again. Absent when none is recorded.
   */
  op?: OperationId;
}

/**
 * A managed resource that is made and waits for something only others can do (a peering for the
 * peer account to accept it, SPEC section 15): not a change, not settling, not a failure.
 */
export interface AwaitingResource {
  address: Address;
  kind: Kind;
  id: string;
  /** The ID of the resource it belongs to, for a kind with a parent. */
  parentId?: string;
  status: string;
  /** What it awaits, in words after "awaiting": `acceptance by account 123456789012`. */
  awaits: string;
}

/** Which state a plan is for (SPEC section 14): set by the command that read it, not the planner. */
export interface PlanWhere {
  workspace: string;
  /** The lockfile path, or the state URL without its password. */
  state: string;
}

export interface Plan {
  formatVersion: 1;
  projectId: string;
  /** The workspace and state the plan was made from; absent where no state was read (tests of the planner). */
  where?: PlanWhere;
  summary: Summary;
  actions: Action[];
  bindings: Binding[];
  /** Managed resources still changing (SPEC section 5), by address: apply waits for each. */
  settling: SettlingResource[];
  /** Managed resources awaiting others (SPEC section 15), by address; absent when none. Apply never waits for them. */
  awaiting?: AwaitingResource[];
  /** Address -> `sha256:<hex>` of the live fields of each resource the plan touches. */
  fingerprints: Record<Address, string>;
  stateFingerprint: string;
  /** Warnings (and, for a failed plan, errors) found while planning. */
  diagnostics: Diagnostic[];
  /** Changed outside dbform since the last apply, by address; absent when nothing drifted. */
  drift?: Drift[];
  /** The plan_deny and plan_warn rules that hold (SPEC section 16); absent when none does. */
  policy?: PolicyVerdict[];
  /**
   * What the API can do, for each capability that decided how this plan makes a change (a service
   * renamed in place or replaced); absent when none did. Saved plans record it: apply refuses a
   * plan made for an API that does otherwise.
   */
  api?: ApiCapabilities;
  /**
   * The capabilities that would decide a change of this plan but were not known when it was made
   * (the planner asks nothing itself): the caller finds them out and plans again. Never saved.
   */
  needs?: ApiCapability[];
  /**
   * Saved plans only (SPEC section 3), what `apply PLAN` needs to make the same plan again and
   * compare: the lineage of the state it was made from (null: the lockfile had none yet), its
   * serial, `sha256:<hex>` of the config files, and the flags that shaped it.
   */
  lineage?: string | null;
  serial?: number;
  configHash?: string;
  options?: PlanShape;
  /** Saved plans made under policies: hashPolicies of their files (apply refuses other policies). */
  policiesHash?: string;
}

/**
 * What the API can do that decides how a change is made (SPEC section 15), found out from what the
 * API serves (src/api/capabilities.ts), never from a setting. Undefined: not known (not asked).
 */
export interface ApiCapabilities {
  /** `POST .../services/{id}/rename` exists: a service name change is a renameService, not a replace. */
  renamesServices?: boolean;
}

export type ApiCapability = keyof ApiCapabilities;

export const API_CAPABILITIES: readonly ApiCapability[] = ['renamesServices'];

/** How a plan says what it was made for, one sentence each. */
export const CAPABILITY_TEXT: Readonly<Record<ApiCapability, { yes: string; no: string }>> = {
  renamesServices: {
    yes: 'the API renames services in place (renameService)',
    no: 'the API does not rename services in place: a service name change replaces the service',
  },
};

/** `renames_services`: a capability's key in a plan's JSON. */
export const capabilityKey = (c: ApiCapability): string => c.replace(/[A-Z]/g, (x) => `_${x.toLowerCase()}`);

/** The flags that shape a plan (`--replace`, `--target`, `--allow-data-loss`; `dbform restore`'s). */
export interface PlanShape {
  replace: Address[];
  target: Address[];
  allowDataLoss: boolean;
  /** `dbform restore ADDR --to TIME` (SPEC section 17): the plan is this restore. */
  restore?: RestoreRequest;
}

/** A restore of a service to a point in time: its address, the time, and when it was asked for. */
export interface RestoreRequest {
  address: Address;
  /** `--to`, RFC 3339 as given. */
  targetTime: string;
  /** restoreStamp of when the restore was planned: the retired address and name carry it. */
  stamp: string;
}

export function emptySummary(): Summary {
  return { create: 0, update: 0, replace: 0, delete: 0, adopt: 0, move: 0, unchanged: 0, unmanaged: 0, settling: 0 };
}

/** True when applying the plan would change anything (API calls or lockfile bindings). */
export function planHasChanges(plan: Plan): boolean {
  return plan.actions.length > 0 || plan.bindings.length > 0;
}
