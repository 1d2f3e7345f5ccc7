import type { Command } from 'commander';
import { DbformError } from '../../model/errors.js';
import { action } from '../errors.js';

// Placeholder until the issue that owns `dbform logs` lands.
export function registerLogs(program: Command): void {
  program
    .command('logs')
    .description('(not yet available)')
    .action(
      action(async () => {
        throw new DbformError('dbform logs is not available yet');
      }),
    );
}
