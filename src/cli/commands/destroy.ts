import { Option, type Command } from 'commander';
import { action } from '../errors.js';
import { addApiOptions, addConfigOptions, addLockTimeoutOption, addPolicyOption, addResultOption, addRunOptions } from '../options.js';

const collect = (value: string, previous: string[] | undefined): string[] => [...(previous ?? []), value];

export function registerDestroy(program: Command): void {
  const cmd = program
    .command('destroy')
    .description('delete everything the state binds (or only --target resources), in reverse dependency order (protect and the policies still hold)');
  addConfigOptions(cmd);
  addApiOptions(cmd);
  addRunOptions(cmd.option('--auto-approve', 'destroy without asking (required when stdin is not a terminal)'))
    .option('--force-unlock', 'remove the apply lock left by another run before taking it (PostgreSQL state: clear a holder row whose session is gone)')
    .addOption(
      new Option('--target <address>', "delete only this resource and what must go with it: the resources that belong to it, and what stays is detached from it (repeatable)").argParser(collect),
    );
  addResultOption(addPolicyOption(addLockTimeoutOption(cmd))).action(
    action(async (_opts: unknown, command: Command) => {
      const { runDestroy } = await import('../changes.js');
      return runDestroy(command.optsWithGlobals());
    }),
  );
}
