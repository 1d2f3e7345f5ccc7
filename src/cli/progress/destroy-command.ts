// `dbform destroy`: delete everything the lockfile binds, through the planner (an empty desired
// state of the same project), so the plan reads like any other and `protect` still holds.
import { readFile } from 'node:fs/promises';
import { fetchLiveState } from '../../api/live-state.js';
import { resolveLockfilePath } from '../../lockfile/index.js';
import { ConfigError, parseLockfileJson, type Action, type DesiredState, type Lockfile, type Plan } from '../../model/index.js';
import { managedParents, planChanges } from '../../planner/index.js';
import { workspaceLockfilePath } from '../../state/index.js';
import { shouldUseColor } from '../color.js';
import { hashConfigFiles, planOptions } from '../plan-pipeline.js';
import { configFiles, type ApiOptions, type ConfigOptions, type GlobalOptions } from '../options.js';
import { workspaceOf } from '../state-context.js';
import { defaultIo, loadDesired, openState, parseRunOptions, reportPlanDiagnostics } from './apply-command.js';
import { runApplyFlow, type FlowIo, type FlowOptions, type PlanInput } from './apply-flow.js';
import { DELETE_OPS, eachDesired } from '../../kinds/index.js';

export interface DestroyCommandOptions extends ConfigOptions, ApiOptions, GlobalOptions {
  autoApprove?: boolean;
  parallelism: string;
  timeout: string;
  forceUnlock?: boolean;
  lockTimeout?: string;
}

/** How sweep runs a destroy: its approval question, and its re-check once the lock is held. */
export type SweepRun = Pick<FlowOptions, 'confirmAs' | 'underLock'>;

export async function runDestroy(opts: DestroyCommandOptions, io: FlowIo = defaultIo(), sweep: SweepRun = {}): Promise<number> {
  const run = parseRunOptions(opts, io.env);
  const files = configFiles(opts);
  const workspace = workspaceOf(opts, io.env);
  const lockfilePath = workspaceLockfilePath(resolveLockfilePath(files, opts.lockfile), workspace);
  const desired = await loadDesiredOrLockProject(files, lockfilePath, io, workspace);
  const makePlan = async (input: PlanInput): Promise<Plan> => {
    const live = await fetchLiveState(input.client, desired.projectId, { childrenOf: managedParents(undefined, input.lock), signal: input.signal });
    const nothing: DesiredState = { projectId: desired.projectId, vpcs: [], services: [], moved: [], files: desired.files };
    const plan = planChanges(nothing, live, input.lock, planOptions({ replace: [], target: [], allowDataLoss: true }, input.claimedElsewhere));
    reportPlanDiagnostics(plan);
    return asDestroyPlan(plan, desired, input.lock);
  };
  return runApplyFlow(
    {
      command: 'destroy',
      projectId: desired.projectId,
      ...openState(opts, io, files, desired, workspace),
      configHash: await hashConfigFiles(files).catch(() => null),
      api: { ...opts, configFiles: files },
      color: shouldUseColor(io.stdout, opts.color, io.env),
      autoApprove: opts.autoApprove === true,
      confirm: true,
      ...run,
      forceUnlock: opts.forceUnlock === true,
      ...sweep,
      makePlan,
    },
    io,
  );
}

/**
 * The config names the project; without a loadable config the lockfile still does, so a deleted
 * or broken config does not stop a destroy.
 */
async function loadDesiredOrLockProject(files: string[], lockfilePath: string, io: FlowIo, workspace: string): Promise<DesiredState> {
  try {
    return await loadDesired(files, io, workspace);
  } catch (err) {
    if (!(err instanceof ConfigError)) throw err;
    const projectId = await lockfileProject(lockfilePath);
    if (projectId === undefined) throw err;
    io.stderr.write(`warning: the config could not be loaded; destroying what ${lockfilePath} binds in project ${projectId}\n${err.message}\n`);
    return { projectId, vpcs: [], services: [], moved: [], files };
  }
}

async function lockfileProject(path: string): Promise<string | undefined> {
  try {
    const parsed = parseLockfileJson(JSON.parse(await readFile(path, 'utf8')));
    return parsed.ok ? parsed.value.projectId : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The planner sees an empty config, so every delete reads "no longer in the config" and its
 * protect hint says to put the block back. For destroy the reason is the destroy itself, and
 * `protect: true` (in the lockfile, or written in the config but not applied yet) blocks with
 * a hint that fits: unprotect, apply, destroy again.
 */
function asDestroyPlan(plan: Plan, desired: DesiredState, lock: Lockfile): Plan {
  const inConfig = new Map<string, boolean>();
  eachDesired(desired, (_def, r) => inConfig.set(r.address!, (r as { protect?: boolean }).protect === true));
  const actions = plan.actions.map((a): Action => {
    const reason = a.reason === 'removed' ? 'destroy' : a.reason;
    const configured = inConfig.get(a.address);
    const isProtected = configured === true || lock.resources[a.address]?.protect === true;
    if (!DELETE_OPS.has(a.op) || !isProtected) return { ...a, reason };
    const where = configured === undefined ? 'add it to the config with protect: false' : 'set protect: false on it in the config';
    const blocked = `protected: ${a.address} has protect: true${configured ? ' in the config' : ' in the lockfile'}, so destroy does not delete it (to delete it: ${where}, run apply, then destroy)`;
    return { ...a, reason, blocked };
  });
  return { ...plan, actions };
}
