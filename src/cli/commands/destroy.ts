import type { Command } from 'commander';
import { action } from '../errors.js';
import { addApiOptions, addConfigOptions } from '../options.js';

export function registerDestroy(program: Command): void {
  const cmd = program.command('destroy').description('delete everything the lockfile binds, in reverse dependency order (protect still holds)');
  addConfigOptions(cmd);
  addApiOptions(cmd);
  cmd
    .option('--auto-approve', 'destroy without asking (required when stdin is not a terminal)')
    .option('--parallelism <n>', 'API requests in flight at once (waiting for an operation does not count)', '10')
    .option('--timeout <duration>', 'limit per action: 30m, 90s, 1h or milliseconds', '30m')
    .option('--force-unlock', 'remove the apply lock left by another run before taking it (PostgreSQL state: clear a holder row whose session is gone)')
    .option('--lock-timeout <duration>', 'wait up to this long for the state lock held by another run (e.g. 5m); default 0: fail at once naming the holder', '0')
    .action(
      action(async (_opts: unknown, command: Command) => {
        const { runDestroy } = await import('../progress/destroy-command.js');
        return runDestroy(command.optsWithGlobals());
      }),
    );
}
