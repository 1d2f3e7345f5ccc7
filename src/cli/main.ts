// The dbform program. Command modules are imported eagerly but keep their heavy dependencies
// (ajv, undici, the planner, the emulator) behind dynamic imports so `dbform --version` is fast.
import { setFlagsFromString } from 'node:v8';
import { hoistGlobalOptions } from './global-options.js';
import { createProgram } from './program.js';
import { describeSingleDashOption } from './single-dash.js';

// undici parses HTTP with llhttp compiled to WebAssembly; V8's optimizing tier recompiles it in
// the background at a transient cost of ~35 MB resident memory, for no measurable gain on the
// response sizes of this API (BENCHMARKS.md). Must run before the first (lazy) undici import.
setFlagsFromString('--liftoff-only');

const program = createProgram();

const singleDash = describeSingleDashOption(program, process.argv.slice(2));
if (singleDash !== undefined) {
  process.stderr.write(`error: ${singleDash}\n`);
  process.exitCode = 1;
} else {
  await program.parseAsync(hoistGlobalOptions(program, process.argv));
}
