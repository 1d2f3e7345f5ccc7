// `dbform policy test FILE... --plan PLAN.json` (SPEC section 16): what each rule says about a
// saved plan, for writing rules. Its implementation loads only when it runs.
import type { Command } from 'commander';
import { action } from '../errors.js';

const HELP = `
Evaluates the policy files against a plan saved with \`dbform plan --out PLAN.json\`, without the
network, and prints per action the rules that hold (deny, warn; --all: every rule), then the
plan_deny and plan_warn rules.

What a rule sees:
  action      op, address, kind, reason, risk, changes [{path, before, after}], id
  resource    with -f: the desired resource from the config the plan was made from, as plan
              gives it; without -f: the after-values of the plan's changes to that address (an
              update lists only what changes). A delete sees nothing of its resource here: a plan
              file does not record the live resource (plan and apply give it), so a rule that
              reads one of its fields fails closed unless it guards with has().
  workspace   --workspace, else the one the plan was made in, else DBFORM_WORKSPACE, else "default"
  project_id  the plan's
  now         --now (RFC 3339), else the current time
  plan        the plan's summary counts: plan.create, plan.delete, ...

Exit status: 0 when no deny holds, 3 when one does, 1 on an error in a policy file (printed
as FILE:LINE:COL: message) or in the plan file.
`;

export function registerPolicy(program: Command): void {
  const policy = program.command('policy').description('check policy files (CEL rules evaluated on every plan)');
  policy
    .command('test')
    .description('evaluate policy files against a saved plan: exit 0 when no deny holds, 3 when one does, 1 on an error in a file')
    .argument('<file...>', 'policy files (YAML: version: 1, rules: [...])')
    .requiredOption('--plan <path>', 'a plan saved with `dbform plan --out`')
    .option('-f, --file <path>', 'the config the plan was made from (repeatable): resource then holds every desired field', (v: string, p: string[] | undefined) => [...(p ?? []), v])
    .option('--workspace <name>', 'the workspace rules see (else the plan\'s, else env DBFORM_WORKSPACE, else "default")')
    .option('--now <time>', 'the time rules see as now, RFC 3339 (e.g. 2026-05-15T16:00:00+02:00); default the current time')
    .option('--all', 'also list the rules that do not hold')
    .option('--json', 'print JSON: {policies, policies_hash, actions, plan, denies, warns}')
    .addHelpText('after', HELP)
    .action(
      action(async (files: string[], _opts: unknown, cmd: Command) => {
        const { runPolicyTest } = await import('../policy/run-policy-test.js');
        return runPolicyTest(files, cmd.optsWithGlobals());
      }),
    );
}
