// Live state is read here, and planned here, and nowhere else (issue 22; the architecture test
// holds it): plan, graph, apply, apply PLAN, destroy and sweep plan through planFromLive; output,
// state show and export read through readLive. Each copy of "read live state, then plan" that the
// commands once had missed a check; here every plan gets them all, before anything is printed,
// saved or sent: which state it is for, the policies (SPEC section 16) and the refusal of a plan
// that holds the API credential (SPEC sections 12 and 13).
import { fetchLiveState, type LiveReader } from '../api/live-state.js';
import { childKinds, DELETE_OPS, desiredIn, eachDesired, TOP_KINDS, type AnyKind } from '../kinds/index.js';
import {
  isProtectedInState,
  parentAddressOf,
  type Action,
  type Address,
  type ApiCapabilities,
  type DesiredState,
  type LiveState,
  type Lockfile,
  type Plan,
  type PlanShape,
  type PlanWhere,
  type PolicyVerdict,
} from '../model/index.js';
import { managedParents, planChanges, type ClaimedElsewhere } from '../planner/index.js';
import type { PolicyResult, PolicySet } from '../policy/index.js';
import { refuseCredentials } from './credential-guard.js';

export type { LiveReader };

/**
 * What a plan reads the API through: its lists, and what the API can do (SPEC section 15), which a
 * plan asks only when a change depends on it. The API client is one.
 */
export type PlanReader = LiveReader & {
  capabilities(): Promise<Required<ApiCapabilities>>;
  /** Where the API is, for messages. */
  readonly baseUrl: string;
};

export interface LiveScope {
  /**
   * What the state manages and the config names: where a parent's list does not carry its children
   * (SPEC section 12), only these parents' children are read one by one. Absent: every parent's.
   */
  managed?: { desired: DesiredState; lock: Lockfile };
  signal?: AbortSignal;
}

/** The live state of a project (2 + V requests, + M where a parent's list leaves its children out). */
export async function readLive(client: LiveReader, projectId: string, scope: LiveScope = {}): Promise<LiveState> {
  const childrenOf = scope.managed ? managedParents(scope.managed.desired, scope.managed.lock) : {};
  return fetchLiveState(client, projectId, { childrenOf, ...(scope.signal ? { signal: scope.signal } : {}) });
}

/** The plan the next `dbform plan` makes of an exported config (export checks that it is empty). */
export function planExported(desired: DesiredState, live: LiveState, lock: Lockfile): Plan {
  return planChanges(desired, live, lock, { replace: [], target: [], allowDataLoss: false });
}

/** The policies of a run, loaded once (policies.ts); undefined when none is given. */
export interface PolicyRun {
  set: PolicySet;
  /** hashPolicies of the files: a saved plan records it as policies_hash. */
  hash: string | undefined;
  /** One instant for the whole run: every rule sees the same `now`. */
  now: Date;
  engine: typeof import('../policy/index.js');
}

export interface PlanRequest {
  client: PlanReader;
  /** The config; `destroy` plans the deletion of everything the state binds instead. */
  desired: DesiredState;
  /** The state as read (under the lock, for apply and destroy), and the IDs other workspaces bind. */
  lock: Lockfile;
  claimedElsewhere: ReadonlyMap<string, ClaimedElsewhere>;
  shape: PlanShape;
  where: PlanWhere;
  purpose: 'apply' | 'destroy';
  signal?: AbortSignal;
  /** Awaited once the live state is read: loading and compiling hide behind the network. */
  policies?: Promise<PolicyRun | undefined>;
  /** The credential values of this run: a plan holding one is refused. */
  secrets: readonly string[];
  /** Checks on the live state before planning (a saved plan's fingerprints); a throw stops the run. */
  checkLive?: (live: LiveState) => void;
}

export interface Planned {
  plan: Plan;
  live: LiveState;
  /** The policies' hash when policies were given (a saved plan records it). */
  policiesHash?: string;
}

/**
 * The one function that reads the live state and plans: the plan of `desired` against the live
 * state and `lock`, for the workspace and state `where` names, with the policies' verdicts on it
 * (a deny blocks its action), refused when it holds the API credential.
 */
export async function planFromLive(req: PlanRequest): Promise<Planned> {
  const destroying = req.purpose === 'destroy';
  const planned = destroying ? destroyedDesired(req.desired, req.shape.target) : req.desired;
  const live = await readLive(req.client, req.desired.projectId, { managed: { desired: planned, lock: req.lock }, ...(req.signal ? { signal: req.signal } : {}) });
  req.checkLive?.(live);
  const options = {
    replace: req.shape.replace,
    target: req.shape.target,
    allowDataLoss: destroying || req.shape.allowDataLoss,
    now: Date.now(),
    claimedElsewhere: req.claimedElsewhere,
    // A restore (SPEC section 17) is a shape of the plan; a destroy deletes retired bindings too.
    ...(req.shape.restore ? { restore: req.shape.restore } : {}),
    ...(destroying ? { deleteRetired: true } : {}),
  };
  let made = planChanges(planned, live, req.lock, options);
  // Where the plan needs to know what the API can do (a service whose name changes: renamed in
  // place or replaced, SPEC section 15), that is asked of the API and the plan made again with it:
  // one request more, and only then.
  if (made.needs !== undefined) made = planChanges(planned, live, req.lock, { ...options, api: await req.client.capabilities() });
  let plan: Plan = { ...made, where: req.where };
  if (destroying) plan = asDestroyPlan(plan, req.desired, req.lock);
  const policies = await req.policies;
  if (policies && !plan.diagnostics.some((d) => d.severity === 'error')) plan = policed(plan, policies, planned, live, req.where.workspace);
  refuseCredentials(plan, req.secrets);
  return { plan, live, ...(policies?.hash !== undefined ? { policiesHash: policies.hash } : {}) };
}

/**
 * What a destroy plans towards: nothing of the project, or with `--target`, the config without
 * the targets. Planned with the targets, that deletes each of them with its children and lets each
 * kind drop what its resources that stay say of them (a service attached to a VPC that goes is
 * detached, and stays); the planner's target selection leaves everything else alone.
 */
export function destroyedDesired(desired: DesiredState, targets: readonly Address[]): DesiredState {
  const emptied = Object.fromEntries(TOP_KINDS.map((top) => [top.listKey, []]));
  if (targets.length === 0) return { ...desired, ...emptied, moved: [] };
  const gone = new Set<string>(targets);
  const isGone = (address: Address) => gone.has(address);
  const prune = (def: AnyKind, container: unknown): unknown[] =>
    desiredIn(def, container)
      .filter((r) => !gone.has(r.address!))
      .map((r) => {
        const kept = (def.config.without?.(r, isGone) ?? r) as object;
        return Object.fromEntries([...Object.entries(kept), ...childKinds(def.kind).map((c) => [c.listKey, prune(c, kept)])]);
      });
  return { ...desired, ...Object.fromEntries(TOP_KINDS.map((top) => [top.listKey, prune(top, desired)])) } as DesiredState;
}

/**
 * The planner sees an empty config, so every delete reads "no longer in the config" and its
 * protect hint says to put the block back. For destroy the reason is the destroy itself, and
 * `protect: true` (in the state, or written in the config but not applied yet) blocks with a
 * hint that fits: unprotect, apply, destroy again.
 */
function asDestroyPlan(plan: Plan, desired: DesiredState, lock: Lockfile): Plan {
  const inConfig = new Map<string, boolean>();
  eachDesired(desired, (_def, r) => inConfig.set(r.address!, (r as { protect?: boolean }).protect === true));
  const actions = plan.actions.map((a): Action => {
    const reason = a.reason === 'removed' ? 'destroy' : a.reason;
    const configured = inConfig.get(a.address);
    const isProtected = configured === true || isProtectedInState(lock, a.address);
    if (!DELETE_OPS.has(a.op) || !isProtected) return { ...a, reason };
    const parent = parentAddressOf(a.address);
    if (configured !== true && lock.resources[a.address]?.protect !== true && parent !== undefined) {
      // A retired original's resources go only with it (SPEC section 17).
      const blocked = `protected: ${a.address} is retired with ${parent}, which has protect: true in the state, so destroy does not delete it (to delete it: add ${parent} to the config with protect: false, run apply, then destroy)`;
      return { ...a, reason, blocked };
    }
    const where = configured === undefined ? 'add it to the config with protect: false' : 'set protect: false on it in the config';
    const blocked = `protected: ${a.address} has protect: true${configured ? ' in the config' : ' in the state'}, so destroy does not delete it (to delete it: ${where}, run apply, then destroy)`;
    return { ...a, reason, blocked };
  });
  return { ...plan, actions };
}

/** The verdicts that hold, as the plan keeps them: rule, effect and message. */
function kept(verdicts: PolicyResult['plan'] | undefined): PolicyVerdict[] {
  return (verdicts ?? []).filter((v) => v.effect !== 'pass').map((v) => ({ rule: v.rule, effect: v.effect as PolicyVerdict['effect'], message: v.message }));
}

/** The plan with each action's verdicts beside it, the plan's once, and every deny's action blocked. */
function policed(plan: Plan, run: PolicyRun, desired: DesiredState, live: LiveState, workspace: string): Plan {
  const { engine } = run;
  const input = engine.policyInputFromPlan(plan, { workspace, now: run.now, resourceOf: engine.resourcesFromStates(desired, live) });
  const result = engine.evaluatePolicies(run.set, input);
  const marked = engine.markPolicyBlocks(plan, result);
  const actions = marked.actions.map((a) => {
    const verdicts = kept(result.actions[a.id]);
    return verdicts.length > 0 ? { ...a, policy: verdicts } : a;
  });
  const planLevel = kept(result.plan);
  return { ...marked, actions, ...(planLevel.length > 0 ? { policy: planLevel } : {}) };
}

