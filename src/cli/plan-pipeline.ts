// The reader shared by `plan` and `apply`: config + lockfile + live state -> Plan. Heavy: the
// commands load it with `await import()`.
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { fetchLiveState, type FetchLiveStateOptions } from '../api/live-state.js';
import { loadConfig } from '../config/index.js';
import type { Address, ApiCapabilities, DesiredState, Diagnostic, LiveState, Lockfile, Plan } from '../model/index.js';
import { managedParents, planChanges, type ClaimedElsewhere, type PlanOptions } from '../planner/index.js';
import { readWithJournal } from '../state/journal-push.js';
import { openApiContext, type ApiContextInput } from './api-context.js';
import { openJournal, openStateStore, workspaceOf, type StateFlags } from './state-context.js';

export interface PlanInput {
  files: string[];
  state: StateFlags;
  replace: Address[];
  target: Address[];
  allowDataLoss: boolean;
  api: ApiContextInput;
  env?: NodeJS.ProcessEnv;
}

export type PreparedPlan =
  | { ok: false; configErrors: Diagnostic[] }
  | {
      ok: true;
      desired: DesiredState;
      configWarnings: Diagnostic[];
      /** Where the state lives (path or URL without password). */
      stateLocation: string;
      /** Bindings in the local state journal not yet pushed (the next apply pushes them). */
      pendingJournal: number;
      lock: Lockfile;
      live: LiveState;
      plan: Plan;
    };

/**
 * Reads everything a plan needs (2 + V API requests, one more where the plan needs to know what
 * the API can do, and the state: one query on PostgreSQL) and plans; config problems come back as
 * diagnostics.
 */
export async function preparePlan(input: PlanInput): Promise<PreparedPlan> {
  const env = input.env ?? process.env;
  const workspace = workspaceOf(input.state, env);
  const loaded = await loadConfig(input.files, { env, workspace });
  if (!loaded.ok) return { ok: false, configErrors: loaded.errors };
  const desired = loaded.value;
  const store = openStateStore({ flags: input.state, env, files: input.files, projectId: desired.projectId, workspace, ...(desired.state ? { configState: desired.state } : {}) });
  try {
    // The state first: where a parent's list lacks its children, the live read needs to know
    // which parents the state manages (SPEC section 12).
    const { snapshot, pending } = await readWithJournal(store, openJournal(input.files));
    const ctx = await openApiContext({ ...input.api, configFiles: input.files });
    try {
      const live = await fetchLiveState(ctx.client, desired.projectId, { childrenOf: managedParents(desired, snapshot.lockfile) });
      const planned = await planWithApi(ctx.client, desired, live, snapshot.lockfile, planOptions(input, snapshot.claimedElsewhere));
      const plan = { ...planned, where: { workspace, state: store.location } };
      return { ok: true, desired, configWarnings: loaded.warnings, stateLocation: store.location, pendingJournal: pending, lock: snapshot.lockfile, live, plan };
    } finally {
      await ctx.close();
    }
  } finally {
    await store.close();
  }
}

/** The planner's options, with the IDs other workspaces of the state bind (never adopted here). */
export function planOptions(o: { replace: Address[]; target: Address[]; allowDataLoss: boolean }, claimedElsewhere: ReadonlyMap<string, ClaimedElsewhere>): PlanOptions {
  return { replace: o.replace, target: o.target, allowDataLoss: o.allowDataLoss, now: Date.now(), claimedElsewhere };
}

/** What a plan can ask of the API beyond its lists: the API client. */
export interface CapabilityReader {
  capabilities(): Promise<Required<ApiCapabilities>>;
}

/**
 * The plan, and where it needs to know what the API can do (a service whose name changes: renamed
 * in place or replaced, SPEC section 15), that asked of the API and the plan made again with it:
 * one request more, and only then.
 */
export async function planWithApi(client: CapabilityReader, desired: DesiredState, live: LiveState, lock: Lockfile, options: PlanOptions): Promise<Plan> {
  const plan = planChanges(desired, live, lock, options);
  if (plan.needs === undefined) return plan;
  return planChanges(desired, live, lock, { ...options, api: { ...options.api, ...(await client.capabilities()) } });
}

/**
 * The live state of a project: every kind's resources, the children of the parents `childrenOf`
 * names where a parent's list does not carry them (default: of every parent).
 */
export async function readLive(api: ApiContextInput, files: string[], projectId: string, childrenOf: FetchLiveStateOptions['childrenOf'] = {}): Promise<LiveState> {
  const ctx = await openApiContext({ ...api, configFiles: files });
  try {
    return await fetchLiveState(ctx.client, projectId, { childrenOf });
  } finally {
    await ctx.close();
  }
}

/**
 * `sha256:<hex>` of the config files' bytes, in the order given, each followed by a NUL byte so
 * that moving text from one file to the next changes the hash. Paths are not hashed: a plan saved
 * in one checkout applies in another.
 */
export async function hashConfigFiles(files: string[]): Promise<string> {
  const hash = createHash('sha256');
  for (const file of files) {
    hash.update(await readFile(file));
    hash.update(Buffer.from([0]));
  }
  return `sha256:${hash.digest('hex')}`;
}

/** SPEC section 4: 1 on errors, 3 when blocked, 2 with --detailed-exitcode when anything would change, else 0. */
export function planExitCode(plan: Plan, detailed: boolean): number {
  if (plan.diagnostics.some((d) => d.severity === 'error')) return 1;
  if (plan.actions.some((a) => a.blocked !== undefined)) return 3;
  if (detailed && (plan.actions.length > 0 || plan.bindings.length > 0)) return 2;
  return 0;
}
