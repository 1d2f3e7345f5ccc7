// The dbform program. Command modules are imported eagerly but keep their heavy dependencies
// (ajv, undici, the planner, the emulator) behind dynamic imports so `dbform --version` is fast.
import { hoistGlobalOptions } from './global-options.js';
import { createProgram } from './program.js';
import { describeSingleDashOption } from './single-dash.js';

const program = createProgram();

const singleDash = describeSingleDashOption(program, process.argv.slice(2));
if (singleDash !== undefined) {
  process.stderr.write(`error: ${singleDash}\n`);
  process.exitCode = 1;
} else {
  await program.parseAsync(hoistGlobalOptions(program, process.argv));
}
