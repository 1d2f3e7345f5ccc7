import type { Command } from 'commander';
import { DbformError } from '../../model/errors.js';
import { action } from '../errors.js';

// Placeholder until the issue that owns `dbform emulator` lands.
export function registerEmulator(program: Command): void {
  program
    .command('emulator')
    .description('(not yet available)')
    .action(
      action(async () => {
        throw new DbformError('dbform emulator is not available yet');
      }),
    );
}
