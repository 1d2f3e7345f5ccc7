// `dbform apply [PLAN]`: plan now (or read a saved plan and verify it), then run it under the
// state's lock (run-plan.ts).
import { DbformError, DiagnosticsError, type Diagnostic, type PlanShape } from '../model/index.js';
import { openContext, type Selection } from './context.js';
import { credentialValues } from './credential-guard.js';
import type { RunHost } from './host.js';
import { planFromLive } from './pipeline.js';
import { hashConfigFiles } from './plan.js';
import { startPolicies } from './policies.js';
import { runPlanFlow, type FlowOptions, type PlanInput, type RunSettings } from './run-plan.js';
import type { RunRecord } from './run-record.js';
import { readSavedPlan, verifySavedPlan } from './saved-plan.js';

export interface ApplyRequest extends Selection {
  /** `apply PLAN`: the saved plan to verify and run exactly. */
  planFile?: string;
  shape: PlanShape;
  /** `--policy` files (DBFORM_POLICY adds its own). */
  policies?: string[];
  /** `--ttl`: when sweep may destroy this workspace (SPEC section 11). */
  ttlMs?: number;
  run: RunSettings;
  /** Filled as the run goes, for `--json`. */
  record?: RunRecord;
  /** The approval in another command's words (`dbform restore`). */
  confirmAs?: FlowOptions['confirmAs'];
}

export async function applyChanges(req: ApplyRequest, host: RunHost): Promise<number> {
  const ctx = await openContext(req, host, { onLockWait: lockWaitNote(req.run, host) });
  const { desired, workspace } = ctx;
  if (req.record) Object.assign(req.record, { projectId: desired.projectId, where: { workspace, state: ctx.store.location } });
  try {
    const saved = req.planFile === undefined ? undefined : await readSavedPlan(req.planFile, host.cwd);
    if (saved && saved.projectId !== desired.projectId) {
      throw new DbformError(`${req.planFile} is a plan for project "${saved.projectId}" but the config targets "${desired.projectId}"`);
    }
    // Loaded before the lock: a policy file that does not parse stops the run before it starts.
    const policies = startPolicies(req.policies, host);
    await policies;
    const secrets = await credentialValues(host.apiKeyFile, host.env, host.cwd);
    const makePlan = saved
      ? (input: PlanInput) => verifySavedPlan(saved, { planFile: req.planFile!, desired, files: req.files, cwd: host.cwd, lockfilePath: ctx.store.location, policies, secrets }, input)
      : async (input: PlanInput) => {
          const { plan } = await planFromLive({ ...input, desired, shape: req.shape, purpose: 'apply', policies, secrets });
          return throwOnPlanErrors(plan);
        };
    return await runPlanFlow(
      {
        command: 'apply',
        projectId: desired.projectId,
        state: ctx.store,
        journal: ctx.journal,
        lockTimeoutMs: req.run.lockTimeoutMs,
        configHash: await hashConfigFiles(req.files, host.cwd),
        autoApprove: req.run.autoApprove,
        confirm: saved === undefined,
        parallelism: req.run.parallelism,
        timeoutMs: req.run.timeoutMs,
        pgpassPath: req.run.pgpassPath,
        forceUnlock: req.run.forceUnlock,
        ...(req.ttlMs !== undefined ? { ttlMs: req.ttlMs } : {}),
        desired,
        targets: saved?.options?.target ?? req.shape.target,
        ...(req.record ? { record: req.record } : {}),
        ...(req.confirmAs ? { confirmAs: req.confirmAs } : {}),
        makePlan,
      },
      host,
    );
  } catch (err) {
    await ctx.store.close().catch(() => undefined);
    throw err;
  }
}

/** `--lock-timeout`: a wait for another run's lock is told once, with whose it is. */
export function lockWaitNote(run: RunSettings, host: RunHost): (message: string) => void {
  return (message) => host.note(`waiting up to ${run.lockTimeout} for the state lock: ${message}`);
}

/** Plan errors stop the command (exit 1) before anything changes; warnings show in the plan text. */
export function throwOnPlanErrors<P extends { diagnostics: Diagnostic[] }>(plan: P): P {
  const errors = plan.diagnostics.filter((d) => d.severity === 'error');
  if (errors.length > 0) throw new DiagnosticsError(errors);
  return plan;
}
