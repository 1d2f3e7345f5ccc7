// `dbform sweep`: destroy the expired workspaces of the project (SPEC section 11).
import { Option, type Command } from 'commander';
import { action } from '../errors.js';
import { addApiOptions, addPolicyOption, addResultOption, addRunOptions, stateOption } from '../options.js';

const collect = (value: string, previous: string[] | undefined): string[] => [...(previous ?? []), value];

export function registerSweep(program: Command): void {
  const cmd = program
    .command('sweep')
    .description('destroy every workspace whose expiry (apply --ttl) passed, or not applied for --older-than; never the default workspace')
    .addOption(new Option('-f, --file <path>', 'config file (repeatable; default dbform.yaml)').argParser(collect))
    .option('--lockfile <path>', 'lockfile path of the default workspace (default: dbform.lock.json beside the first config file)')
    .addOption(stateOption())
    .option('--older-than <duration>', 'also sweep workspaces whose last apply is older than this (e.g. 7d, 72h)')
    .option('--auto-approve', 'destroy without asking (required when stdin is not a terminal)');
  addRunOptions(cmd)
    .option('--lock-timeout <duration>', 'wait up to this long for a workspace\'s state lock held by another run (e.g. 5m); default 0: fail that workspace at once', '0')
    .addHelpText(
      'after',
      '\nEach workspace is destroyed as `dbform destroy --workspace NAME` would (its plan shown first, its lock taken, a\n' +
        'history record appended), then its empty state is deleted. A protected resource blocks its workspace (exit 3);\n' +
        'the other workspaces are still swept. Exit 0 all swept (or none due), 3 some blocked, 1 an error.',
    );
  addResultOption(addPolicyOption(addApiOptions(cmd))).action(
    action(async (_opts: unknown, command: Command) => {
      const { runSweep } = await import('../changes.js');
      return runSweep(command.optsWithGlobals());
    }),
  );
}
