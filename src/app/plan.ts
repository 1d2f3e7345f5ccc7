// `dbform plan` and `dbform graph`: config + state + live state -> Plan, changing nothing. Heavy:
// the commands load it with `await import()`.
import { createHash } from 'node:crypto';
import { mkdir, readFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { describeFileError, writeFileAtomic } from '../lockfile/index.js';
import { DbformError, inDirectory, terminalJson, type DesiredState, type Diagnostic, type LiveState, type Lockfile, type Plan, type PlanShape } from '../model/index.js';
import { findDrift, toPlanJson, withSavedInputs } from '../planner/index.js';
import { readWithJournal } from '../state/journal-push.js';
import { openStore, readConfig, workspaceOf, type Selection } from './context.js';
import { credentialValues } from './credential-guard.js';
import type { AppHost } from './host.js';
import { planFromLive } from './pipeline.js';
import { startPolicies } from './policies.js';
import { openJournal } from './state-choice.js';

export interface PlanRequest extends Selection {
  shape: PlanShape;
  /** `--policy` files (DBFORM_POLICY adds its own). */
  policies?: string[];
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
      /** The policies' hash when policies were given: a saved plan records it. */
      policiesHash?: string;
    };

/**
 * Reads everything a plan needs (2 + V API requests, and the state: one query on PostgreSQL, in
 * parallel with the API) and plans; config problems come back as diagnostics.
 */
export async function preparePlan(req: PlanRequest, host: AppHost): Promise<PreparedPlan> {
  const workspace = workspaceOf(req.state, host.env);
  const loaded = await readConfig(req.files, host, workspace);
  if (!loaded.ok) return { ok: false, configErrors: loaded.errors };
  const desired = loaded.value;
  const policies = startPolicies(req.policies, host);
  const store = openStore(req, host, desired, workspace);
  try {
    // The state first: where a parent's list lacks its children, the live read needs to know
    // which parents the state manages (SPEC section 12).
    const { snapshot, pending } = await readWithJournal(store, openJournal(req.files, host.cwd));
    const api = await host.connect();
    try {
      const { plan, live, policiesHash } = await planFromLive({
        client: api.client,
        desired,
        lock: snapshot.lockfile,
        claimedElsewhere: snapshot.claimedElsewhere,
        shape: req.shape,
        where: { workspace, state: store.location },
        purpose: 'apply',
        policies,
        secrets: await credentialValues(host.apiKeyFile, host.env, host.cwd),
      });
      return {
        ok: true,
        desired,
        configWarnings: loaded.warnings,
        stateLocation: store.location,
        pendingJournal: pending,
        lock: snapshot.lockfile,
        live,
        plan,
        ...(policiesHash !== undefined ? { policiesHash } : {}),
      };
    } finally {
      await api.close();
    }
  } finally {
    await store.close();
  }
}

/**
 * `plan --refresh-only` (SPEC section 11): only what changed outside dbform, from the state's
 * record and the live resources, whatever the config now asks.
 */
export function driftOf(prepared: Extract<PreparedPlan, { ok: true }>) {
  return { projectId: prepared.desired.projectId, drift: findDrift(prepared.live, prepared.lock) };
}

/**
 * `sha256:<hex>` of the config files' bytes, in the order given, each followed by a NUL byte so
 * that moving text from one file to the next changes the hash. Paths are not hashed: a plan saved
 * in one checkout applies in another.
 */
export async function hashConfigFiles(files: string[], cwd?: string): Promise<string> {
  const hash = createHash('sha256');
  for (const file of files) {
    hash.update(await readFile(inDirectory(cwd, file)));
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

/**
 * `--out PLAN`: the plan with what apply needs to make it again and compare (SPEC section 3), its
 * directory created (as for export -o and --pgpass); a failure is one clear message. `cwd`: the
 * run's directory when it is not the process's own.
 */
export async function savePlan(path: string, prepared: Extract<PreparedPlan, { ok: true }>, req: PlanRequest, cwd?: string): Promise<void> {
  const saved = withSavedInputs(prepared.plan, prepared.lock, await hashConfigFiles(req.files, cwd), req.shape);
  const file = inDirectory(cwd, path);
  const text = `${terminalJson(toPlanJson(prepared.policiesHash !== undefined ? { ...saved, policiesHash: prepared.policiesHash } : saved), 2)}\n`;
  try {
    await mkdir(dirname(file), { recursive: true });
  } catch (err) {
    throw new DbformError(`cannot write the plan file ${path}: cannot create its directory ${dirname(path)} (${describeFileError(err)})`);
  }
  try {
    await writeFileAtomic(file, text);
  } catch (err) {
    throw new DbformError(`cannot write the plan file ${path}: ${describeFileError(err)}`);
  }
}
