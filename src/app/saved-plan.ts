// `apply PLAN`: read the saved plan and verify it (SPEC section 3) before anything runs. It must
// come from this lockfile (lineage) and these config files (config_hash), the resources it
// touches must be as they were (fingerprints), and planning again with its own flags must give
// exactly its actions, bindings, risks and blocks for every address it touches. Made under the
// same policies too (SPEC section 16): they are evaluated again on the plan made now.
import { readFile } from 'node:fs/promises';
import { API_CAPABILITIES, CAPABILITY_TEXT, DbformError, inDirectory, StalePlanError, type DesiredState, type Plan, type PlanShape } from '../model/index.js';
import { findPlanDifference, findStaleAddresses, fromPlanJson } from '../planner/index.js';
import { planFromLive, type PolicyRun } from './pipeline.js';
import { hashConfigFiles } from './plan.js';
import type { PlanInput } from './run-plan.js';

/** `cwd`: the run's directory when it is not the process's own (model/run-directory.ts). */
export async function readSavedPlan(path: string, cwd?: string): Promise<Plan> {
  let text: string;
  try {
    text = await readFile(inDirectory(cwd, path), 'utf8');
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    throw new DbformError(`cannot read the plan file ${path}: ${code === 'ENOENT' ? 'no such file' : (err as Error).message}`);
  }
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (err) {
    throw new DbformError(`${path} is not a plan file: ${(err as Error).message} (save one with \`dbform plan --out ${path}\`)`);
  }
  const parsed = fromPlanJson(data);
  if (!parsed.ok) throw new DbformError(`${path} is not a valid plan file:\n${parsed.errors.map((e) => `  ${e}`).join('\n')}`);
  return parsed.value;
}

/** A path as a shell word, so a suggested command can be pasted as it is. */
export function shellWord(path: string): string {
  return /^[\w./@:+-]+$/.test(path) ? path : `'${path.replace(/'/g, `'\\''`)}'`;
}

/** The command that makes this plan again: the flags it was made with, the same file. */
function planCommand(planFile: string, shape: PlanShape | undefined): string {
  // A restore is made again by the restore command (a new stamp: the plan is a new one anyway).
  if (shape?.restore) return `dbform restore ${shellWord(shape.restore.address)} --to ${shellWord(shape.restore.targetTime)} --out ${shellWord(planFile)}`;
  const flags = [
    ...(shape?.target ?? []).map((a) => `--target ${shellWord(a)}`),
    ...(shape?.replace ?? []).map((a) => `--replace ${shellWord(a)}`),
    ...(shape?.allowDataLoss ? ['--allow-data-loss'] : []),
  ];
  return `dbform plan ${[...flags, '--out', shellWord(planFile)].join(' ')}`;
}

interface SavedInputs {
  lineage: string | null;
  configHash: string;
  options: PlanShape;
}

function requireSavedInputs(plan: Plan, planFile: string): SavedInputs {
  if (plan.lineage === undefined || plan.serial === undefined || plan.configHash === undefined || plan.options === undefined) {
    throw new DbformError(
      `${planFile} does not record the state, config and flags it was made from (lineage, serial, config_hash, options), so it cannot be verified; ` +
        `nothing was changed. Save the plan with \`${planCommand(planFile, plan.options)}\``,
    );
  }
  return { lineage: plan.lineage, configHash: plan.configHash, options: plan.options };
}

export interface SavedPlanContext {
  planFile: string;
  desired: DesiredState;
  files: string[];
  /** The run's directory when it is not the process's own: the config files are read from it. */
  cwd?: string;
  /** The lockfile as the user named it, for messages. */
  lockfilePath: string;
  /** The policies of this run (none: undefined), loaded before the lock was taken. */
  policies: Promise<PolicyRun | undefined>;
  secrets: readonly string[];
}

/** Checks run in order; the first that fails is the one message (exit 1, nothing changed). */
export async function verifySavedPlan(saved: Plan, ctx: SavedPlanContext, input: PlanInput): Promise<Plan> {
  const { planFile } = ctx;
  const inputs = requireSavedInputs(saved, planFile);
  const again = `Nothing was changed; make a new plan with \`${planCommand(planFile, inputs.options)}\` and review it`;
  const lineage = input.lock.lineage ?? null;
  if (lineage !== inputs.lineage) {
    // No lineage: a lockfile not written yet, or last written by an older dbform.
    const name = (l: string | null) => (l === null ? 'no lineage yet' : `lineage ${l}`);
    throw new DbformError(
      `${planFile} was made from another state (${name(inputs.lineage)}) than ${ctx.lockfilePath} (${name(lineage)}); ` +
        `a plan applies only to the state it was made from. ${again}`,
    );
  }
  if (inputs.configHash !== (await hashConfigFiles(ctx.files, ctx.cwd))) {
    throw new DbformError(`the config files (${ctx.files.join(', ')}) changed since ${planFile} was made (config_hash differs). ${again}`);
  }
  const policies = await ctx.policies;
  if (saved.policiesHash !== policies?.hash) {
    // Either side may be none: a plan made without policies is not one made under them, and back.
    const name = (hash: string | undefined) => (hash === undefined ? 'no policy' : `policies ${hash.slice(0, 'sha256:'.length + 12)}`);
    throw new DbformError(
      `${planFile} was made under other policies than this apply's (${name(saved.policiesHash)} in the plan file, ${name(policies?.hash)} now; --policy and DBFORM_POLICY). ${again}`,
    );
  }
  // The IDs other workspaces bind are as much a part of the state as the lockfile (SPEC section 10).
  const { plan: now } = await planFromLive({
    client: input.client,
    desired: ctx.desired,
    lock: input.lock,
    claimedElsewhere: input.claimedElsewhere,
    shape: inputs.options,
    where: input.where,
    purpose: 'apply',
    signal: input.signal,
    policies: ctx.policies,
    secrets: ctx.secrets,
    checkLive: (live) => {
      const stale = findStaleAddresses(saved, live);
      if (stale.length > 0) {
        throw new StalePlanError(
          `stale plan: ${planFile} no longer matches the live state of ${stale.join(', ')}; ` +
            'these resources changed since the plan was made. Run `dbform plan` again and review the new plan.',
        );
      }
    },
  });
  await refuseOtherApi(saved, now, input, planFile, again);
  const error = now.diagnostics.find((d) => d.severity === 'error');
  if (error) throw new StalePlanError(`${planFile} cannot be applied: planning it again now fails: ${error.address ? `${error.address}: ` : ''}${error.message}`);
  const difference = findPlanDifference(saved, now);
  if (difference !== undefined) {
    throw new StalePlanError(`${planFile} is not what dbform plans now from the same config, the current state and the live resources: ${difference}. ${again}`);
  }
  return withSavedPlanHints(saved, planFile);
}

/**
 * A plan made for what one API can do (SPEC section 15: a service renamed in place, or replaced) is
 * not applied against an API that does otherwise: one line saying which, before anything runs.
 */
async function refuseOtherApi(saved: Plan, now: Plan, input: PlanInput, planFile: string, again: string): Promise<void> {
  for (const c of API_CAPABILITIES) {
    const made = saved.api?.[c];
    if (made === undefined) continue;
    const here = now.api?.[c] ?? (await input.client.capabilities())[c];
    if (here === made) continue;
    const says = (yes: boolean) => (yes ? CAPABILITY_TEXT[c].yes : CAPABILITY_TEXT[c].no);
    throw new DbformError(`${planFile} was made where ${says(made)}, but at ${input.client.baseUrl} ${says(here)}. ${again}`);
  }
}

/**
 * A saved plan runs exactly as it was made, so the data-loss guard's "re-run with
 * --allow-data-loss" cannot unblock it: the way out is a new plan made with the flag.
 */
function withSavedPlanHints(plan: Plan, planFile: string): Plan {
  const actions = plan.actions.map((a) =>
    a.blocked?.startsWith('data-loss:')
      ? {
          ...a,
          blocked:
            `data-loss: ${a.op} destroys ${a.address} and its data; a saved plan is applied exactly as it was made, ` +
            `so make a new one with \`dbform plan --allow-data-loss --out ${shellWord(planFile)}\` and apply that`,
        }
      : a,
  );
  return { ...plan, actions };
}
