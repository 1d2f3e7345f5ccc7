// `dbform apply [PLAN]`: plan now (or read a saved plan and check it is not stale), then run it.
import { fetchLiveState } from '../../api/live-state.js';
import { pollMsFromEnv, stallNoticeMsFromEnv } from '../../api/waiters.js';
import { loadConfig } from '../../config/index.js';
import { parseDuration } from '../../executor/duration.js';
import { resolvePgpassPath } from '../../executor/pgpass.js';
import { DbformError, DiagnosticsError, formatDiagnostic, type DesiredState, type Plan } from '../../model/index.js';
import { managedParents } from '../../planner/index.js';
import { shouldUseColor } from '../color.js';
import { parseTtl } from '../expiry.js';
import { hashConfigFiles, planOptions, planWithApi } from '../plan-pipeline.js';
import { configFiles, type ApiOptions, type ConfigOptions, type GlobalOptions } from '../options.js';
import { openJournal, openStateStore, workspaceOf } from '../state-context.js';
import { runApplyFlow, type FlowIo, type PlanInput } from './apply-flow.js';
import { readSavedPlan, verifySavedPlan } from './saved-plan-check.js';

export interface ApplyCommandOptions extends ConfigOptions, ApiOptions, GlobalOptions {
  autoApprove?: boolean;
  parallelism: string;
  timeout: string;
  replace?: string[];
  target?: string[];
  allowDataLoss?: boolean;
  pgpass?: string;
  forceUnlock?: boolean;
  lockTimeout?: string;
  /** `--ttl DURATION`: when sweep may destroy this workspace (SPEC section 11). */
  ttl?: string;
}

export function defaultIo(): FlowIo {
  return { stdout: process.stdout, stderr: process.stderr, stdin: process.stdin, env: process.env };
}

export async function runApply(planFile: string | undefined, opts: ApplyCommandOptions, io: FlowIo = defaultIo()): Promise<number> {
  const run = parseRunOptions(opts, io.env);
  if (planFile !== undefined) refusePlanShapingFlags(planFile, opts);
  const files = configFiles(opts);
  const workspace = workspaceOf(opts, io.env);
  const ttlMs = parseTtl(opts.ttl, workspace);
  const desired = await loadDesired(files, io, workspace);
  const saved = planFile === undefined ? undefined : await readSavedPlan(planFile);
  if (saved && saved.projectId !== desired.projectId) {
    throw new DbformError(`${planFile} is a plan for project "${saved.projectId}" but the config targets "${desired.projectId}"`);
  }
  const state = openState(opts, io, files, desired, workspace);
  const makePlan = saved
    ? (input: PlanInput) => verifySavedPlan(saved, { planFile: planFile!, desired, files, lockfilePath: state.state.location }, input)
    : async (input: PlanInput) => {
        const live = await fetchLiveState(input.client, desired.projectId, { childrenOf: managedParents(desired, input.lock), signal: input.signal });
        const shape = { replace: opts.replace ?? [], target: opts.target ?? [], allowDataLoss: opts.allowDataLoss === true };
        const plan = await planWithApi(input.client, desired, live, input.lock, planOptions(shape, input.claimedElsewhere));
        reportPlanDiagnostics(plan);
        return plan;
      };
  return runApplyFlow(
    {
      command: 'apply',
      projectId: desired.projectId,
      ...state,
      configHash: await hashConfigFiles(files),
      api: { ...opts, configFiles: files },
      color: shouldUseColor(io.stdout, opts.color, io.env),
      autoApprove: opts.autoApprove === true,
      confirm: saved === undefined,
      ...run,
      forceUnlock: opts.forceUnlock === true,
      ...(ttlMs !== undefined ? { ttlMs } : {}),
      desired,
      targets: saved?.options?.target ?? opts.target ?? [],
      makePlan,
    },
    io,
  );
}

/** The store, journal and lock timeout of an apply or destroy (SPEC section 10). */
export function openState(
  opts: ConfigOptions & { lockTimeout?: string },
  io: FlowIo,
  files: string[],
  desired: Pick<DesiredState, 'projectId' | 'state'>,
  workspace: string,
) {
  const lockTimeoutMs = parseDuration(opts.lockTimeout ?? '0');
  if (lockTimeoutMs === undefined || lockTimeoutMs < 0) {
    throw new DbformError(`--lock-timeout must be a duration such as 5m, 90s, or 0 to fail at once (got "${opts.lockTimeout}")`);
  }
  const state = openStateStore({
    flags: opts,
    env: io.env,
    files,
    projectId: desired.projectId,
    workspace,
    ...(desired.state ? { configState: desired.state } : {}),
    onLockWait: (message) => void io.stderr.write(`waiting up to ${opts.lockTimeout} for the state lock: ${message}\n`),
  });
  return { state, journal: openJournal(files), lockTimeoutMs };
}

export function parseRunOptions(opts: { parallelism: string; timeout: string; pgpass?: string }, env: NodeJS.ProcessEnv) {
  const parallelism = Number(opts.parallelism);
  if (!/^\d+$/.test(opts.parallelism.trim()) || parallelism < 1) {
    throw new DbformError(`--parallelism must be a whole number of at least 1 (got "${opts.parallelism}")`);
  }
  const timeoutMs = parseDuration(opts.timeout);
  if (timeoutMs === undefined || timeoutMs <= 0) {
    throw new DbformError(`--timeout must be a duration such as 30m, 90s, 1h, or a number of milliseconds (got "${opts.timeout}")`);
  }
  // Checked now, not after the approval: a bad DBFORM_POLL_MS must not stop an apply half-way in.
  pollMsFromEnv(env);
  stallNoticeMsFromEnv(env);
  return { parallelism, timeoutMs, pgpassPath: resolvePgpassPath(opts.pgpass, env) };
}

export async function loadDesired(files: string[], io: FlowIo, workspace: string): Promise<DesiredState> {
  const loaded = await loadConfig(files, { env: io.env, workspace });
  if (!loaded.ok) {
    // A failed load carries its warnings along with the errors; only the errors are the failure.
    for (const w of loaded.errors.filter((d) => d.severity === 'warning')) io.stderr.write(`${formatDiagnostic(w)}\n`);
    throw new DiagnosticsError(loaded.errors.filter((d) => d.severity === 'error'));
  }
  for (const w of loaded.warnings) io.stderr.write(`${formatDiagnostic(w)}\n`);
  return loaded.value;
}

/** Plan errors stop the command (exit 1) before anything changes; warnings show in the plan text. */
export function reportPlanDiagnostics(plan: Plan): void {
  const errors = plan.diagnostics.filter((d) => d.severity === 'error');
  if (errors.length > 0) throw new DiagnosticsError(errors);
}

/** --target and --replace shape a plan; a saved one is applied exactly as made, so they would do nothing. */
function refusePlanShapingFlags(planFile: string, opts: ApplyCommandOptions): void {
  const flags = [...(opts.target ?? []).map((a) => `--target ${a}`), ...(opts.replace ?? []).map((a) => `--replace ${a}`)];
  if (flags.length === 0) return;
  throw new DbformError(
    `${flags.join(' ')} cannot change the saved plan ${planFile}, which is applied exactly as it was made; ` +
      `make a new plan with them (\`dbform plan ${flags.join(' ')} --out PLAN\`) or run apply without a plan file`,
  );
}
