// The dbform program run on its process (process.ts): bin/dbform.js runs it on the real one
// (main.ts), a test inside its own process on one of its own for each call.
import { hoistGlobalOptions } from './global-options.js';
import { cliProcess } from './process.js';
import { createProgram } from './program.js';
import { describeSingleDashOption } from './single-dash.js';

/** Parses the run's arguments and runs the command; the exit code is left in `exitCode`. */
export async function runMain(): Promise<void> {
  const proc = cliProcess();
  const program = createProgram();
  const singleDash = describeSingleDashOption(program, proc.argv.slice(2));
  if (singleDash !== undefined) {
    proc.stderr.write(`error: ${singleDash}\n`);
    proc.exitCode = 1;
    return;
  }
  await program.parseAsync(hoistGlobalOptions(program, proc.argv));
}
