import type { Command } from 'commander';
import { DbformError } from '../../model/errors.js';
import { action } from '../errors.js';

// Placeholder until the issue that owns `dbform validate` lands.
export function registerValidate(program: Command): void {
  program
    .command('validate')
    .description('(not yet available)')
    .action(
      action(async () => {
        throw new DbformError('dbform validate is not available yet');
      }),
    );
}
