// The dbform program. Command modules are imported eagerly but keep their heavy dependencies
// (ajv, undici, the planner, the emulator) behind dynamic imports so `dbform --version` is fast.
import { Command } from 'commander';
import { registerCommands } from './commands/index.js';
import { VERSION } from './version.js';

const program = new Command('dbform')
  .description('Keep cloud database infrastructure in version control: validate, plan, apply, export.')
  .version(VERSION, '-V, --version', 'print the dbform version')
  .option('--debug', 'print API requests (token redacted) and stack traces')
  .option('--no-color', 'disable coloured output (also NO_COLOR)')
  .showHelpAfterError('(run with --help for usage)')
  .configureHelp({ showGlobalOptions: true, sortSubcommands: false });

registerCommands(program);

await program.parseAsync(process.argv);
