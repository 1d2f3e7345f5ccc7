// Terraform's verbs that dbform spells otherwise: each answers with one line naming the dbform
// command, instead of commander's bare "unknown command". Hidden from --help.
import type { Command } from 'commander';
import { DbformError } from '../../model/errors.js';
import { action } from '../errors.js';

const HINTS: Record<string, (args: string[]) => string> = {
  refresh: () =>
    'dbform has no refresh: every plan reads the live state. `dbform plan --refresh-only` shows what changed outside dbform, and changes nothing',
  show: (args) =>
    args.length > 0
      ? `dbform has no show: \`dbform state show ${args[0]}\` prints a binding and its live resource; a saved plan is JSON (\`dbform plan --out PLAN\` wrote it)`
      : 'dbform has no show: `dbform state list` lists the bindings, `dbform state show ADDR` one with its live resource, `dbform output` the endpoints',
  init: () =>
    'dbform needs no init: there are no providers or modules to install. `dbform validate` checks the file; the state is created by the first apply',
  taint: (args) =>
    `dbform has no taint: replacing is a reviewed plan, \`dbform plan --replace ${args[0] ?? 'ADDR'}\` (then apply with the same flag)`,
};

export function registerHabitHints(program: Command): void {
  for (const [verb, hint] of Object.entries(HINTS)) {
    program
      .command(verb, { hidden: true })
      .argument('[args...]')
      .allowUnknownOption()
      .action(
        action(async (args: string[]) => {
          throw new DbformError(hint(args));
        }),
      );
  }
}
