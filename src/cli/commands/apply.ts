import { Option, type Command } from 'commander';
import { action } from '../errors.js';
import { addApiOptions, addConfigOptions } from '../options.js';

function collect(value: string, previous: string[] | undefined): string[] {
  return [...(previous ?? []), value];
}

export function registerApply(program: Command): void {
  const cmd = program
    .command('apply')
    .description('make the live infrastructure match the config (or execute a saved plan exactly)')
    .argument('[plan]', 'a plan file saved with `dbform plan --out PLAN`');
  addConfigOptions(cmd);
  addApiOptions(cmd);
  cmd
    .option('--auto-approve', 'apply without asking (required when stdin is not a terminal)')
    .option('--parallelism <n>', 'API requests in flight at once (waiting for an operation does not count)', '10')
    .option('--timeout <duration>', 'limit per action: 30m, 90s, 1h or milliseconds', '30m')
    .addOption(new Option('--replace <address>', 'plan this resource as delete + create (repeatable)').argParser(collect))
    .addOption(new Option('--target <address>', 'plan only this resource and what it depends on (repeatable)').argParser(collect))
    .option('--allow-data-loss', 'allow actions that lose data (never on protected resources)')
    .option('--pgpass <path>', 'where initial passwords of created services go (default PGPASSFILE or ~/.pgpass)')
    .option('--force-unlock', 'remove the apply lock left by another run before taking it (PostgreSQL state: clear a holder row whose session is gone)')
    .option('--ttl <duration>', 'record that this workspace expires after this long (e.g. 72h, 3d), for `dbform sweep`; not in the default workspace')
    .option('--lock-timeout <duration>', 'wait up to this long for the state lock held by another run (e.g. 5m); default 0: fail at once naming the holder', '0')
    .action(
      action(async (planFile: string | undefined, _opts: unknown, command: Command) => {
        const { runApply } = await import('../progress/apply-command.js');
        return runApply(planFile, command.optsWithGlobals());
      }),
    );
}
