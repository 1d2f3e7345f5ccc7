// `dbform destroy`: delete everything the lockfile binds, through the planner (an empty desired
// state of the same project), so the plan reads like any other and `protect` still holds.
import { readFile } from 'node:fs/promises';
import { fetchLiveState } from '../../api/live-state.js';
import { resolveLockfilePath } from '../../lockfile/index.js';
import { ConfigError, parseLockfileJson, type DesiredState, type Plan } from '../../model/index.js';
import { planChanges } from '../../planner/index.js';
import { shouldUseColor } from '../color.js';
import { configFiles, type ApiOptions, type ConfigOptions, type GlobalOptions } from '../options.js';
import { defaultIo, loadDesired, parseRunOptions, reportPlanDiagnostics } from './apply-command.js';
import { runApplyFlow, type FlowIo, type PlanInput } from './apply-flow.js';

export interface DestroyCommandOptions extends ConfigOptions, ApiOptions, GlobalOptions {
  autoApprove?: boolean;
  parallelism: string;
  timeout: string;
  forceUnlock?: boolean;
}

export async function runDestroy(opts: DestroyCommandOptions, io: FlowIo = defaultIo()): Promise<number> {
  const run = parseRunOptions(opts, io.env);
  const files = configFiles(opts);
  const lockfilePath = resolveLockfilePath(files, opts.lockfile);
  const desired = await loadDesiredOrLockProject(files, lockfilePath, io);
  const makePlan = async (input: PlanInput): Promise<Plan> => {
    const live = await fetchLiveState(input.client, desired.projectId, { peeringsOf: 'all', signal: input.signal });
    const nothing: DesiredState = { projectId: desired.projectId, vpcs: [], services: [], moved: [], files: desired.files };
    const plan = planChanges(nothing, live, input.lock, { replace: [], target: [], allowDataLoss: true });
    reportPlanDiagnostics(plan);
    return blockProtectedInConfig(plan, desired);
  };
  return runApplyFlow(
    {
      command: 'destroy',
      projectId: desired.projectId,
      lockfilePath,
      api: { ...opts, configFiles: files },
      color: shouldUseColor(io.stdout, opts.color, io.env),
      autoApprove: opts.autoApprove === true,
      confirm: true,
      ...run,
      forceUnlock: opts.forceUnlock === true,
      makePlan,
    },
    io,
  );
}

/**
 * The config names the project; without a loadable config the lockfile still does, so a deleted
 * or broken config does not stop a destroy.
 */
async function loadDesiredOrLockProject(files: string[], lockfilePath: string, io: FlowIo): Promise<DesiredState> {
  try {
    return await loadDesired(files, io);
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

/** `protect: true` written in the config also holds when the lockfile has not recorded it yet. */
function blockProtectedInConfig(plan: Plan, desired: DesiredState): Plan {
  const protectedAddresses = new Set<string>();
  for (const v of desired.vpcs) if (v.protect) protectedAddresses.add(v.address);
  for (const s of desired.services) {
    if (s.protect) protectedAddresses.add(s.address);
    for (const r of s.replicaSets) if (r.protect) protectedAddresses.add(r.address);
  }
  const actions = plan.actions.map((a) =>
    a.blocked === undefined && protectedAddresses.has(a.address) ? { ...a, blocked: `${a.address} is protected (protect: true in the config)` } : a,
  );
  return { ...plan, actions };
}
