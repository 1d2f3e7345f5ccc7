import type { Command } from 'commander';
import { DbformError } from '../../model/errors.js';
import { action } from '../errors.js';

// Placeholder until the issue that owns `dbform projects` lands.
export function registerProjects(program: Command): void {
  program
    .command('projects')
    .description('(not yet available)')
    .action(
      action(async () => {
        throw new DbformError('dbform projects is not available yet');
      }),
    );
}
