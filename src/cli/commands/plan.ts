import type { Command } from 'commander';
import { DbformError } from '../../model/errors.js';
import { action } from '../errors.js';

// Placeholder until the issue that owns `dbform plan` lands.
export function registerPlan(program: Command): void {
  program
    .command('plan')
    .description('(not yet available)')
    .action(
      action(async () => {
        throw new DbformError('dbform plan is not available yet');
      }),
    );
}
