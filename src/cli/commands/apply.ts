import { Option, type Command } from 'commander';
import { action } from '../errors.js';
import { addApiOptions, addConfigOptions, addLockTimeoutOption, addPolicyOption, addResultOption, addRunOptions } from '../options.js';

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
  addRunOptions(cmd.option('--auto-approve', 'apply without asking (required when stdin is not a terminal)'))
    .addOption(new Option('--replace <address>', 'plan this resource as delete + create (repeatable)').argParser(collect))
    .addOption(new Option('--target <address>', 'plan only this resource and what it depends on (repeatable)').argParser(collect))
    .option('--allow-data-loss', 'allow actions that lose data (never on protected resources)')
    .option('--pgpass <path>', 'where initial passwords of created services go (default PGPASSFILE or ~/.pgpass)')
    .option('--force-unlock', 'remove the apply lock left by another run before taking it (PostgreSQL state: clear a holder row whose session is gone)')
    .option('--ttl <duration>', 'record that this workspace expires after this long (whole minutes, hours or days from 1m to 366d, e.g. 72h, 7d), for `dbform sweep`; not in the default workspace');
  addResultOption(addPolicyOption(addLockTimeoutOption(cmd))).action(
    action(async (planFile: string | undefined, _opts: unknown, command: Command) => {
      const { runApply } = await import('../changes.js');
      return runApply(planFile, command.optsWithGlobals());
    }),
  );
}
