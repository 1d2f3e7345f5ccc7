import type { Command } from 'commander';
import { action } from '../errors.js';
import { addApiOptions, addConfigOptions, addLockTimeoutOption, addRunOptions } from '../options.js';

export function registerDestroy(program: Command): void {
  const cmd = program.command('destroy').description('delete everything the lockfile binds, in reverse dependency order (protect still holds)');
  addConfigOptions(cmd);
  addApiOptions(cmd);
  addRunOptions(cmd.option('--auto-approve', 'destroy without asking (required when stdin is not a terminal)'))
    .option('--force-unlock', 'remove the apply lock left by another run before taking it (PostgreSQL state: clear a holder row whose session is gone)');
  addLockTimeoutOption(cmd).action(
    action(async (_opts: unknown, command: Command) => {
      const { runDestroy } = await import('../progress/destroy-command.js');
      return runDestroy(command.optsWithGlobals());
    }),
  );
}
