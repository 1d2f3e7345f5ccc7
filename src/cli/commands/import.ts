import type { Command } from 'commander';
import { DbformError } from '../../model/errors.js';
import { action } from '../errors.js';

// Placeholder until the issue that owns `dbform import` lands.
export function registerImport(program: Command): void {
  program
    .command('import')
    .description('(not yet available)')
    .action(
      action(async () => {
        throw new DbformError('dbform import is not available yet');
      }),
    );
}
