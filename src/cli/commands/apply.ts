import type { Command } from 'commander';
import { DbformError } from '../../model/errors.js';
import { action } from '../errors.js';

// Placeholder until the issue that owns `dbform apply` lands.
export function registerApply(program: Command): void {
  program
    .command('apply')
    .description('(not yet available)')
    .action(
      action(async () => {
        throw new DbformError('dbform apply is not available yet');
      }),
    );
}
