// The reader shared by `plan` and `apply`: config + lockfile + live state -> Plan. Heavy: the
// commands load it with `await import()`.
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { fetchLiveState, type FetchLiveStateOptions } from '../api/live-state.js';
import { loadConfig } from '../config/index.js';
import { readLockfile, resolveLockfilePath } from '../lockfile/index.js';
import type { Address, DesiredState, Diagnostic, LiveState, Lockfile, Plan } from '../model/index.js';
import { managedServiceFilter, planChanges } from '../planner/index.js';
import { openApiContext, type ApiContextInput } from './api-context.js';

export interface PlanInput {
  files: string[];
  lockfile?: string;
  replace: Address[];
  target: Address[];
  allowDataLoss: boolean;
  api: ApiContextInput;
}

export type PreparedPlan =
  | { ok: false; configErrors: Diagnostic[] }
  | { ok: true; desired: DesiredState; configWarnings: Diagnostic[]; lockPath: string; lock: Lockfile; live: LiveState; plan: Plan };

/** Reads everything a plan needs (2 + V API requests) and plans; config problems come back as diagnostics. */
export async function preparePlan(input: PlanInput): Promise<PreparedPlan> {
  const loaded = await loadConfig(input.files);
  if (!loaded.ok) return { ok: false, configErrors: loaded.errors };
  const desired = loaded.value;
  const lockPath = resolveLockfilePath(input.files, input.lockfile);
  const lock = await readLockfile(lockPath, desired.projectId);
  const live = await readLive(input.api, input.files, desired.projectId, managedServiceFilter(desired, lock));
  const plan = planChanges(desired, live, lock, { replace: input.replace, target: input.target, allowDataLoss: input.allowDataLoss, now: Date.now() });
  return { ok: true, desired, configWarnings: loaded.warnings, lockPath, lock, live, plan };
}

/**
 * The live state of a project: services with their replica sets (those of `replicaSetsOf` where the
 * list does not embed them), VPCs, and every VPC's peerings.
 */
export async function readLive(api: ApiContextInput, files: string[], projectId: string, replicaSetsOf: FetchLiveStateOptions['replicaSetsOf'] = 'all'): Promise<LiveState> {
  const ctx = await openApiContext({ ...api, configFiles: files });
  try {
    return await fetchLiveState(ctx.client, projectId, { peeringsOf: 'all', replicaSetsOf });
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
