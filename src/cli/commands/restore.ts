// `dbform restore service.KEY --to TIME [--out PLAN] [--auto-approve]` (SPEC section 17): with
// --out, the restore planned and saved as `dbform plan --out` saves (apply it with `dbform apply
// PLAN`); without, planned and applied as `dbform apply` applies, after the approval. Heavy
// modules are loaded inside the action.
import type { Command } from 'commander';
import { DbformError } from '../../model/errors.js';
import { action } from '../errors.js';
import { addApiOptions, addConfigOptions, addLockTimeoutOption, addPolicyOption, addResultOption, addRunOptions } from '../options.js';

interface RestoreFlags {
  to?: string;
  out?: string;
  autoApprove?: boolean;
  json?: boolean;
}

export function registerRestore(program: Command): void {
  const cmd = program
    .command('restore')
    .description('restore a service to a point in time: a PITR fork with the config\'s settings becomes the address; the original is kept, retired and protected')
    .argument('<address>', 'the service to restore: service.<key>')
    .requiredOption('--to <time>', 'the moment to go back to, RFC 3339 (e.g. 2026-03-01T09:15:00Z): since the service was created, in the past')
    .option('--out <plan>', 'only plan the restore and save it for `dbform apply PLAN` (as `dbform plan --out`)')
    .option('--auto-approve', 'apply without asking (required when stdin is not a terminal)')
    .option('--pgpass <path>', 'where the fork\'s initial password goes (default PGPASSFILE or ~/.pgpass)')
    .option('--force-unlock', 'remove the apply lock left by another run before taking it');
  addConfigOptions(cmd);
  addApiOptions(cmd);
  addResultOption(addPolicyOption(addLockTimeoutOption(addRunOptions(cmd)))).action(
    action(async (address: string, _opts: unknown, command: Command) => {
      const flags = command.optsWithGlobals<RestoreFlags & Record<string, unknown>>();
      if (flags.out !== undefined) {
        const { restoreShape } = await import('../../app/restore.js');
        const shape = restoreShape({ address, to: flags.to! });
        if (flags.autoApprove || flags.json) throw new DbformError(`--out only plans the restore; apply the saved plan with \`dbform apply ${flags.out}\` (${flags.autoApprove ? '--auto-approve' : '--json'} belongs there)`);
        const { runPlan } = await import('./plan.js');
        return runPlan(flags as unknown as Parameters<typeof runPlan>[0], shape);
      }
      const { runRestore } = await import('../changes.js');
      return runRestore({ address, to: flags.to! }, flags as unknown as Parameters<typeof runRestore>[1]);
    }),
  );
}
