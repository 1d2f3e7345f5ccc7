// `dbform policy test FILE... --plan PLAN.json`: load the rules (every problem at FILE:LINE:COL,
// exit 1), read the saved plan, evaluate, print, exit 3 when a deny holds.
import { DbformError, formatDiagnosticLine, parseRfc3339, type DesiredState, type Diagnostic } from '../../model/index.js';
import { shouldUseColor } from '../color.js';
import { readSavedPlan } from '../../app/saved-plan.js';
import { renderPolicyTestJson, renderPolicyTestText } from './render-policy-test.js';
import { cliProcess, runDirectory } from '../process.js';

export interface PolicyTestOptions {
  plan: string;
  file?: string[];
  workspace?: string;
  now?: string;
  all?: boolean;
  json?: boolean;
  color?: boolean;
}

function printDiagnostics(list: readonly Diagnostic[]): void {
  if (list.length > 0) cliProcess().stderr.write(`${list.map(formatDiagnosticLine).join('\n')}\n`);
}

function nowOf(flag: string | undefined): Date {
  if (flag === undefined) return new Date();
  const ms = parseRfc3339(flag);
  if (ms === undefined) throw new DbformError(`--now ${JSON.stringify(flag)} is not an RFC 3339 time such as 2026-05-15T16:00:00+02:00`);
  return new Date(ms);
}

/** The config the plan was made from, when -f names it. */
async function desiredOf(files: string[] | undefined, workspace: string, projectId: string): Promise<DesiredState | Diagnostic[] | undefined> {
  if (!files || files.length === 0) return undefined;
  const { readConfig } = await import('../../app/context.js');
  const loaded = await readConfig(files, { env: cliProcess().env, cwd: runDirectory() }, workspace);
  if (!loaded.ok) return loaded.errors;
  if (loaded.value.projectId !== projectId) {
    throw new DbformError(`${files.join(', ')} is the config of project ${loaded.value.projectId}, but the plan is of project ${projectId}; give the config the plan was made from`);
  }
  return loaded.value;
}

export async function runPolicyTest(files: string[], opts: PolicyTestOptions): Promise<number> {
  const policy = await import('../../policy/index.js');
  const { resolveWorkspace } = await import('../../state/workspace.js');
  const now = nowOf(opts.now);
  const loaded = await policy.loadPolicyFiles(files, runDirectory());
  if (!loaded.ok) {
    printDiagnostics(loaded.errors);
    return 1;
  }
  const plan = await readSavedPlan(opts.plan, runDirectory());
  // The workspace the plan was made in, unless --workspace asks what the rules would say in another.
  const workspace = opts.workspace === undefined && plan.where ? plan.where.workspace : resolveWorkspace(opts.workspace, cliProcess().env);
  const desired = await desiredOf(opts.file, workspace, plan.projectId);
  if (Array.isArray(desired)) {
    printDiagnostics(desired);
    return 1;
  }
  const input = policy.policyInputFromPlan(plan, { workspace, now, resourceOf: policy.resourcesFromSavedPlan(plan, desired) });
  const result = policy.evaluatePolicies(loaded.value, input, { all: opts.all === true });
  const view = { policies: loaded.value, hash: policy.hashPolicies(loaded.value.files), input, result, rules: loaded.value.rules };
  if (opts.json) cliProcess().stdout.write(renderPolicyTestJson(view));
  else cliProcess().stdout.write(renderPolicyTestText(view, shouldUseColor(cliProcess().stdout, opts.color)));
  return result.denies > 0 ? 3 : 0;
}
