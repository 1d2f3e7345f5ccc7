// `dbform destroy`: delete everything the state binds (or, with --target, those resources and what
// must go with them), through the planner (an empty desired state of the same project), so the
// plan reads like any other and `protect` and the policies still hold.
import { readFile } from 'node:fs/promises';
import { resolveLockfilePath } from '../lockfile/index.js';
import { ConfigError, inDirectory, parseLockfileJson, type Address, type DesiredState, type Plan } from '../model/index.js';
import { workspaceLockfilePath } from '../state/index.js';
import { throwOnPlanErrors, lockWaitNote } from './apply.js';
import { loadDesired, openContext, workspaceOf, type Selection } from './context.js';
import { credentialValues } from './credential-guard.js';
import type { RunHost } from './host.js';
import { destroyedDesired, planFromLive } from './pipeline.js';
import { hashConfigFiles } from './plan.js';
import { startPolicies } from './policies.js';
import { runPlanFlow, type FlowOptions, type PlanInput, type RunSettings } from './run-plan.js';
import type { RunRecord } from './run-record.js';

export interface DestroyRequest extends Selection {
  /** `--target ADDR`: only these and what goes with them (their children; the detaches of what stays); none: everything. */
  targets: Address[];
  policies?: string[];
  run: RunSettings;
  record?: RunRecord;
}

/** How sweep runs a destroy: its approval question, and its re-check once the lock is held. */
export type SweepRun = Pick<FlowOptions, 'confirmAs' | 'underLock'>;

export async function destroyAll(req: DestroyRequest, host: RunHost, sweep: SweepRun = {}): Promise<number> {
  const workspace = workspaceOf(req.state, host.env);
  const lockfilePath = workspaceLockfilePath(resolveLockfilePath(req.files, req.state.lockfile), workspace);
  const desired = await loadDesiredOrLockProject(req.files, lockfilePath, host, workspace);
  const ctx = await openContext(req, host, { desired, onLockWait: lockWaitNote(req.run, host) });
  if (req.record) Object.assign(req.record, { projectId: desired.projectId, where: { workspace, state: ctx.store.location } });
  try {
    const policies = startPolicies(req.policies, host);
    await policies;
    const secrets = await credentialValues(host.apiKeyFile, host.env, host.cwd);
    const shape = { replace: [], target: req.targets, allowDataLoss: true };
    const makePlan = async (input: PlanInput): Promise<Plan> => {
      const { plan } = await planFromLive({ ...input, desired, shape, purpose: 'destroy', policies, secrets });
      return throwOnPlanErrors(plan);
    };
    return await runPlanFlow(
      {
        command: 'destroy',
        projectId: desired.projectId,
        state: ctx.store,
        journal: ctx.journal,
        lockTimeoutMs: req.run.lockTimeoutMs,
        configHash: await hashConfigFiles(req.files, host.cwd).catch(() => null),
        autoApprove: req.run.autoApprove,
        confirm: true,
        parallelism: req.run.parallelism,
        timeoutMs: req.run.timeoutMs,
        pgpassPath: req.run.pgpassPath,
        forceUnlock: req.run.forceUnlock,
        // With --target, what stays is the config without the targets: a service detached from a
        // VPC destroyed under it is recorded as detached (not as drift the next plan reports).
        ...(req.targets.length > 0 ? { desired: destroyedDesired(desired, req.targets), targets: req.targets } : {}),
        ...(req.record ? { record: req.record } : {}),
        ...sweep,
        makePlan,
      },
      host,
    );
  } catch (err) {
    await ctx.store.close().catch(() => undefined);
    throw err;
  }
}

/**
 * The config names the project; without a loadable config the lockfile still does, so a deleted
 * or broken config does not stop a destroy.
 */
async function loadDesiredOrLockProject(files: string[], lockfilePath: string, host: RunHost, workspace: string): Promise<DesiredState> {
  try {
    return await loadDesired(files, host, workspace, host.note);
  } catch (err) {
    if (!(err instanceof ConfigError)) throw err;
    const projectId = await lockfileProject(inDirectory(host.cwd, lockfilePath));
    if (projectId === undefined) throw err;
    host.note(`warning: the config could not be loaded; destroying what ${lockfilePath} binds in project ${projectId}\n${err.message}`);
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
