import type { Command } from 'commander';
import { DbformError } from '../../model/errors.js';
import { action } from '../errors.js';

// Placeholder until the issue that owns `dbform destroy` lands.
export function registerDestroy(program: Command): void {
  program
    .command('destroy')
    .description('(not yet available)')
    .action(
      action(async () => {
        throw new DbformError('dbform destroy is not available yet');
      }),
    );
}
