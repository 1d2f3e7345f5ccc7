// The dbform program: every command registered, nothing parsed. main.ts parses process.argv with
// it; `dbform completion` builds a second one to describe it to the shell.
import { Command } from 'commander';
import { registerCompletion } from './commands/completion.js';
import { registerHabitHints } from './commands/habits.js';
import { registerCommands } from './commands/index.js';
import { GLOBAL_OPTIONS_HELP } from './global-options.js';
import { VERSION } from './version.js';

/** `shell`: false for the program that `dbform completion` describes (it adds its own). */
export function createProgram(o: { shell?: boolean } = {}): Command {
  const program = new Command('dbform')
    .description('Keep cloud database infrastructure in version control: validate, plan, apply, export.')
    .version(VERSION, '-V, --version', 'print the dbform version')
    .option('--debug', 'print API requests (token redacted) and stack traces')
    .option('--no-color', 'disable coloured output (also NO_COLOR)')
    .showHelpAfterError('(run with --help for usage)')
    .configureHelp({ showGlobalOptions: true, sortSubcommands: false })
    .addHelpText('after', GLOBAL_OPTIONS_HELP);
  registerCommands(program);
  if (o.shell !== false) registerCompletion(program, () => createProgram({ shell: false }));
  registerHabitHints(program);
  return program;
}
