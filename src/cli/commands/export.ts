import type { Command } from 'commander';
import { DbformError } from '../../model/errors.js';
import { action } from '../errors.js';

// Placeholder until the issue that owns `dbform export` lands.
export function registerExport(program: Command): void {
  program
    .command('export')
    .description('(not yet available)')
    .action(
      action(async () => {
        throw new DbformError('dbform export is not available yet');
      }),
    );
}
