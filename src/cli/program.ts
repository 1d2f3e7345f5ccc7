// The dbform program: every command registered, nothing parsed. run.ts parses the run's arguments
// with it; `dbform completion` builds a second one to describe it to the shell.
import { Command } from 'commander';
import { shouldUseColor } from './color.js';
import { registerCompletion } from './commands/completion.js';
import { registerHabitHints } from './commands/habits.js';
import { registerCommands } from './commands/index.js';
import { GLOBAL_OPTIONS_HELP } from './global-options.js';
import { cliProcess } from './process.js';
import { VERSION } from './version.js';

/** `shell`: false for the program that `dbform completion` describes (it adds its own). */
export function createProgram(o: { shell?: boolean } = {}): Command {
  const program = new Command('dbform')
    .description('Keep cloud database infrastructure in version control: validate, plan, apply, export.')
    .version(VERSION, '-V, --version', 'print the dbform version')
    .option('--debug', 'print API requests (token redacted) and stack traces')
    .option('--no-color', 'disable coloured output (also NO_COLOR)')
    .showHelpAfterError('(run with --help for usage)')
    .configureHelp({ showGlobalOptions: true, sortSubcommands: false });
  onRunProcess(program).addHelpText('after', GLOBAL_OPTIONS_HELP);
  registerCommands(program);
  if (o.shell !== false) registerCompletion(program, () => createProgram({ shell: false }));
  registerHabitHints(program);
  return program;
}

/** The terminal's width; off a terminal undefined, as commander's own default gives (its type says number). */
const helpWidth = (stream: NodeJS.WriteStream): number => (stream.isTTY ? stream.columns : undefined) as number;

/**
 * Help, usage errors and the exit after them go through the run's process (process.ts) instead
 * of `process` itself, as commander would do with a real one. Set before the commands are added:
 * a command made with .command() inherits both.
 */
function onRunProcess(program: Command): Command {
  return program.exitOverride((err) => cliProcess().exit(err.exitCode)).configureOutput({
    writeOut: (text) => void cliProcess().stdout.write(text),
    writeErr: (text) => void cliProcess().stderr.write(text),
    getOutHelpWidth: () => helpWidth(cliProcess().stdout),
    getErrHelpWidth: () => helpWidth(cliProcess().stderr),
    // No help text of dbform is styled: this only decides whether commander strips colours.
    getOutHasColors: () => shouldUseColor(cliProcess().stdout, undefined, cliProcess().env),
    getErrHasColors: () => shouldUseColor(cliProcess().stderr, undefined, cliProcess().env),
  });
}
