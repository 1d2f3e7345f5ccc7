// `dbform apply`, `destroy` and `sweep` at the terminal: their flags, checked before anything is
// read; the use case (src/app); with `--json`, one result document on stdout when they end
// (schemas/result.schema.json), whatever ended them. Loaded with `await import()` by the
// command files (it pulls in the client and the engine).
import type { RunSettings } from '../app/run-plan.js';
import type { RunRecord, SweepRecord } from '../app/run-record.js';
import { pollMsFromEnv, stallNoticeMsFromEnv } from '../api/waiters.js';
import { parseDuration } from '../executor/duration.js';
import { resolvePgpassPath } from '../executor/pgpass.js';
import { DbformError, terminalJson, type PlanShape } from '../model/index.js';
import { resolveWorkspace } from '../state/index.js';
import { parseAge, parseTtl } from './expiry.js';
import { defaultIo, runHost, type FlowIo } from './host.js';
import { configFiles, type ApiOptions, type ConfigOptions, type GlobalOptions } from './options.js';
import { atCwd } from './process.js';

interface RunFlags extends ConfigOptions, ApiOptions, GlobalOptions {
  autoApprove?: boolean;
  parallelism: string;
  timeout: string;
  pgpass?: string;
  forceUnlock?: boolean;
  lockTimeout?: string;
  policy?: string[];
  json?: boolean;
}

export interface ApplyCommandOptions extends RunFlags {
  replace?: string[];
  target?: string[];
  allowDataLoss?: boolean;
  /** `--ttl DURATION`: when sweep may destroy this workspace (SPEC section 11). */
  ttl?: string;
}

export interface DestroyCommandOptions extends RunFlags {
  target?: string[];
}

export interface SweepCommandOptions extends Omit<RunFlags, 'workspace'> {
  olderThan?: string;
}

/** --parallelism, --timeout, --pgpass, --lock-timeout and the environment they read, checked now. */
export function parseRunSettings(opts: RunFlags, env: NodeJS.ProcessEnv): RunSettings {
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
  // The writer's file calls and messages take one path: joined to the run's directory here.
  const pgpassPath = atCwd(resolvePgpassPath(opts.pgpass, env));
  const lockTimeout = opts.lockTimeout ?? '0';
  const lockTimeoutMs = parseDuration(lockTimeout);
  if (lockTimeoutMs === undefined || lockTimeoutMs < 0) {
    throw new DbformError(`--lock-timeout must be a duration such as 5m, 90s, or 0 to fail at once (got "${opts.lockTimeout}")`);
  }
  return { autoApprove: opts.autoApprove === true, parallelism, timeoutMs, pgpassPath, lockTimeoutMs, lockTimeout, forceUnlock: opts.forceUnlock === true };
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

/**
 * Runs a use case; with `--json` prints its result document on stdout however it ends (the error
 * is still reported on stderr by the command's one catch, with the same exit code).
 */
async function withResult(json: boolean | undefined, io: FlowIo, run: () => Promise<number>, document: (code: number, error?: string) => Record<string, unknown>): Promise<number> {
  if (!json) return run();
  try {
    const code = await run();
    io.stdout.write(`${terminalJson(document(code), 2)}\n`);
    return code;
  } catch (err) {
    const code = err instanceof DbformError ? err.exitCode : 1;
    io.stdout.write(`${terminalJson(document(code, err instanceof Error ? err.message : String(err)), 2)}\n`);
    throw err;
  }
}

export async function runApply(planFile: string | undefined, opts: ApplyCommandOptions, io: FlowIo = defaultIo()): Promise<number> {
  const run = parseRunSettings(opts, io.env);
  if (planFile !== undefined) refusePlanShapingFlags(planFile, opts);
  const files = configFiles(opts);
  const ttlMs = parseTtl(opts.ttl, resolveWorkspace(opts.workspace, io.env));
  const shape: PlanShape = { replace: opts.replace ?? [], target: opts.target ?? [], allowDataLoss: opts.allowDataLoss === true };
  const { applyChanges } = await import('../app/apply.js');
  const { runResultJson } = await import('../app/run-record.js');
  const record: RunRecord = { command: 'apply' };
  const host = runHost(opts, files, { json: opts.json === true, ...(opts.color !== undefined ? { color: opts.color } : {}) }, io);
  const request = { files, state: opts, shape, run, record, ...(planFile !== undefined ? { planFile } : {}), ...(ttlMs !== undefined ? { ttlMs } : {}), ...(opts.policy ? { policies: opts.policy } : {}) };
  return withResult(opts.json, io, () => applyChanges(request, host), (code, error) => runResultJson(record, code, error));
}

/** `dbform restore ADDR --to TIME` without --out: the restore planned, approved and applied as `apply` runs (src/app/restore.ts). */
export async function runRestore(asked: { address: string; to: string }, opts: RunFlags, io: FlowIo = defaultIo()): Promise<number> {
  const run = parseRunSettings(opts, io.env);
  const files = configFiles(opts);
  const { applyRestore } = await import('../app/restore.js');
  const { runResultJson } = await import('../app/run-record.js');
  const record: RunRecord = { command: 'apply' };
  const host = runHost(opts, files, { json: opts.json === true, ...(opts.color !== undefined ? { color: opts.color } : {}) }, io);
  const request = { files, state: opts, asked, run, record, ...(opts.policy ? { policies: opts.policy } : {}) };
  return withResult(opts.json, io, () => applyRestore(request, host), (code, error) => runResultJson(record, code, error));
}

export async function runDestroy(opts: DestroyCommandOptions, io: FlowIo = defaultIo()): Promise<number> {
  const run = parseRunSettings(opts, io.env);
  const files = configFiles(opts);
  const { destroyAll } = await import('../app/destroy.js');
  const { runResultJson } = await import('../app/run-record.js');
  const record: RunRecord = { command: 'destroy' };
  const host = runHost(opts, files, { json: opts.json === true, ...(opts.color !== undefined ? { color: opts.color } : {}) }, io);
  const request = { files, state: opts, targets: opts.target ?? [], run, record, ...(opts.policy ? { policies: opts.policy } : {}) };
  return withResult(opts.json, io, () => destroyAll(request, host), (code, error) => runResultJson(record, code, error));
}

export async function runSweep(opts: SweepCommandOptions, io: FlowIo = defaultIo()): Promise<number> {
  const olderThanMs = opts.olderThan === undefined ? undefined : parseAge(opts.olderThan, '--older-than');
  const run = parseRunSettings(opts, io.env);
  const files = configFiles(opts);
  const { sweepWorkspaces } = await import('../app/sweep.js');
  const { sweepResultJson } = await import('../app/run-record.js');
  const record: SweepRecord = { entries: [] };
  const host = runHost(opts, files, { json: opts.json === true, ...(opts.color !== undefined ? { color: opts.color } : {}) }, io);
  const request = {
    files,
    state: opts,
    run,
    record,
    interactive: io.stdin.isTTY === true,
    ...(olderThanMs !== undefined ? { olderThanMs, olderThan: opts.olderThan! } : {}),
    ...(opts.policy ? { policies: opts.policy } : {}),
  };
  return withResult(opts.json, io, () => sweepWorkspaces(request, host), (code, error) => sweepResultJson(record, code, error));
}
