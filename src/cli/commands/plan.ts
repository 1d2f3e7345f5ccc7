// `dbform plan`: read the config, the lockfile and the live state, print what apply would do.
// Never mutates anything. Heavy modules are loaded inside the action (start-up stays fast).
import { Option, type Command } from 'commander';
import { formatDiagnosticLine, type Diagnostic } from '../../model/diagnostics.js';
import { DbformError } from '../../model/errors.js';
import type { PlanShape } from '../../model/plan.js';
import type { PreparedPlan } from '../../app/plan.js';
import { action } from '../errors.js';
import { addApiOptions, addConfigOptions, addPolicyOption, configFiles, type ApiOptions, type GlobalOptions } from '../options.js';
import { cliProcess, runDirectory } from '../process.js';

interface PlanFlags extends ApiOptions, GlobalOptions {
  file?: string[];
  lockfile?: string;
  state?: string;
  workspace?: string;
  out?: string;
  json?: boolean;
  format?: 'text' | 'json' | 'markdown';
  detailedExitcode?: boolean;
  replace?: string[];
  target?: string[];
  allowDataLoss?: boolean;
  refreshOnly?: boolean;
  policy?: string[];
}

const collect = (value: string, previous: string[] | undefined): string[] => [...(previous ?? []), value];

function outputFormat(flags: PlanFlags): 'text' | 'json' | 'markdown' {
  if (flags.json && flags.format !== undefined && flags.format !== 'json') {
    throw new DbformError(`--json and --format ${flags.format} contradict each other; use one`);
  }
  return flags.json ? 'json' : (flags.format ?? 'text');
}

/** One line each, positioned ones exactly as `dbform validate` prints them (CI problem matchers). */
function printDiagnostics(list: Diagnostic[]): void {
  if (list.length > 0) cliProcess().stderr.write(`${list.map(formatDiagnosticLine).join('\n')}\n`);
}

/** `dbform plan`, or with `shape` a plan of that shape (`dbform restore --out`: a restore's). */
export async function runPlan(flags: PlanFlags, shape?: PlanShape): Promise<number> {
  const format = outputFormat(flags);
  if (flags.refreshOnly && flags.out !== undefined) throw new DbformError('--refresh-only plans no actions, so there is no plan to save with --out');
  const files = configFiles(flags);
  const { preparePlan, planExitCode, savePlan } = await import('../../app/plan.js');
  const { appHost } = await import('../host.js');
  const request = {
    files,
    state: flags,
    shape: shape ?? { replace: flags.replace ?? [], target: flags.target ?? [], allowDataLoss: flags.allowDataLoss === true },
    ...(flags.policy ? { policies: flags.policy } : {}),
  };
  const prepared = await preparePlan(request, appHost(flags, files));
  if (!prepared.ok) {
    printDiagnostics(prepared.configErrors);
    return 1;
  }
  printDiagnostics(prepared.configWarnings);
  if (flags.refreshOnly) return printDrift(prepared, format, flags);
  if (prepared.pendingJournal > 0) {
    cliProcess().stderr.write(
      `note: ${prepared.pendingJournal} binding(s) kept in the local state journal during an earlier apply are not in ${prepared.stateLocation} yet; this plan includes them, and the next apply pushes them first\n`,
    );
  }
  const plan = prepared.plan;
  // Environment-dependent, so a warning on stderr and not part of the (deterministic) plan.
  const { findMissingPasswordEnv } = await import('../../executor/preflight.js');
  printDiagnostics(
    findMissingPasswordEnv(plan, cliProcess().env).map((m): Diagnostic => ({
      severity: 'warning',
      address: m.address,
      message: `password.from_env ${m.variable} is not set here; apply will refuse to start until it is`,
    })),
  );
  const errors = plan.diagnostics.filter((d) => d.severity === 'error');
  const render = await import('../render/index.js');
  const { shouldUseColor } = await import('../color.js');
  // The plan was refused where it was made if it held the API credential (app/pipeline.ts).
  const shown =
    format === 'json' ? render.renderPlanJson(plan) : format === 'markdown' ? render.renderPlanMarkdown(plan) : render.renderPlanText(plan, { color: shouldUseColor(cliProcess().stdout, flags.color) });
  if (errors.length > 0) {
    // A failed plan is not shown as a plan (it is not one); JSON readers still get the whole object.
    if (format === 'json') cliProcess().stdout.write(shown);
    printDiagnostics(errors);
    return 1;
  }
  // What apply needs to make this plan again and compare (SPEC section 3).
  if (flags.out !== undefined) await savePlan(flags.out, prepared, request, runDirectory());
  cliProcess().stdout.write(shown);
  if (flags.out !== undefined) {
    const next = plan.actions.some((a) => a.blocked !== undefined)
      ? 'it is blocked (see above), so apply will refuse it'
      : `run \`dbform apply ${flags.out}\` to apply exactly this plan`;
    cliProcess().stderr.write(`Saved the plan to ${flags.out}; ${next}.\n`);
  }
  return planExitCode(plan, flags.detailedExitcode === true);
}

/**
 * `plan --refresh-only` (SPEC section 11): only what changed outside dbform, from the state's
 * record and the live resources, whatever the config now asks. It changes nothing, not even the
 * record: an apply records the values it leaves (accept a change by writing it into the config).
 */
async function printDrift(prepared: Extract<PreparedPlan, { ok: true }>, format: 'text' | 'json' | 'markdown', flags: PlanFlags): Promise<number> {
  const { driftOf } = await import('../../app/plan.js');
  const render = await import('../render/index.js');
  const { createPalette } = await import('../render/palette.js');
  const { shouldUseColor } = await import('../color.js');
  const report = driftOf(prepared);
  if (format === 'json') cliProcess().stdout.write(render.renderDriftJson(report));
  else if (format === 'markdown') cliProcess().stdout.write(render.renderDriftMarkdown(report));
  else cliProcess().stdout.write(render.renderDriftText(report, createPalette(shouldUseColor(cliProcess().stdout, flags.color))));
  return flags.detailedExitcode === true && report.drift.length > 0 ? 2 : 0;
}

export function registerPlan(program: Command): void {
  const cmd = program
    .command('plan')
    .description('show what apply would change: reads the live state, changes nothing (exit 0; 2 with --detailed-exitcode and changes; 3 blocked; 1 error)')
    .option('--out <plan>', 'also save the plan (JSON, no secrets) for `dbform apply PLAN`')
    .option('--json', 'print the plan as JSON (same as --format json)')
    .addOption(new Option('--format <format>', 'output format').choices(['text', 'json', 'markdown']))
    .option('--detailed-exitcode', 'exit 2 when the plan has changes, 0 when it has none (resources still settling are not changes)')
    .addOption(new Option('--replace <address>', 'plan this resource as delete + create (repeatable)').argParser(collect))
    .addOption(new Option('--target <address>', 'plan only this resource and what it depends on (repeatable)').argParser(collect))
    .option('--allow-data-loss', 'allow actions that destroy data (deleting or replacing a service) unless protected')
    .option('--refresh-only', 'show only what changed outside dbform since the last apply, and change nothing (with --detailed-exitcode: exit 2 when anything did)');
  addPolicyOption(addApiOptions(addConfigOptions(cmd))).action(
    action(async (_opts: PlanFlags, command: Command) => runPlan(command.optsWithGlobals<PlanFlags>())),
  );
}
