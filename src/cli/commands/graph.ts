// `dbform graph [--format mermaid|dot]` (SPEC section 14): the dependency graph of the plan that
// `dbform plan` would show (the same reads, the same flags that shape it), for a reviewer or a
// diagram tool: `dbform graph --format dot | dot -Tsvg > plan.svg`.
import { Option, type Command } from 'commander';
import { formatDiagnosticLine } from '../../model/diagnostics.js';
import { action } from '../errors.js';
import { addApiOptions, addConfigOptions, addPolicyOption, configFiles, type ApiOptions, type ConfigOptions, type GlobalOptions } from '../options.js';
import { cliProcess } from '../process.js';

interface GraphFlags extends Partial<ConfigOptions>, ApiOptions, GlobalOptions {
  format?: 'mermaid' | 'dot';
  replace?: string[];
  target?: string[];
  allowDataLoss?: boolean;
  policy?: string[];
}

const collect = (value: string, previous: string[] | undefined): string[] => [...(previous ?? []), value];

async function runGraph(flags: GraphFlags): Promise<number> {
  const files = configFiles(flags);
  const { preparePlan } = await import('../../app/plan.js');
  const { appHost } = await import('../host.js');
  const prepared = await preparePlan(
    {
      files,
      state: flags,
      shape: { replace: flags.replace ?? [], target: flags.target ?? [], allowDataLoss: flags.allowDataLoss === true },
      ...(flags.policy ? { policies: flags.policy } : {}),
    },
    appHost(flags, files),
  );
  const problems = prepared.ok ? prepared.plan.diagnostics.filter((d) => d.severity === 'error') : prepared.configErrors;
  if (problems.length > 0 || !prepared.ok) {
    cliProcess().stderr.write(`${problems.map(formatDiagnosticLine).join('\n')}\n`);
    return 1;
  }
  const { renderGraph } = await import('../render/index.js');
  cliProcess().stdout.write(renderGraph(prepared.plan, flags.format ?? 'mermaid'));
  return 0;
}

export function registerGraph(program: Command): void {
  const cmd = program
    .command('graph')
    .description("print the plan's dependency graph (mermaid or DOT): an arrow from an action to each one that waits for it")
    .addOption(new Option('--format <format>', 'graph language').choices(['mermaid', 'dot']).default('mermaid'))
    .addOption(new Option('--replace <address>', 'as plan --replace (repeatable)').argParser(collect))
    .addOption(new Option('--target <address>', 'as plan --target (repeatable)').argParser(collect))
    .option('--allow-data-loss', 'as plan --allow-data-loss');
  addPolicyOption(addApiOptions(addConfigOptions(cmd))).action(action(async (_opts: GraphFlags, command: Command) => runGraph(command.optsWithGlobals<GraphFlags>())));
}
