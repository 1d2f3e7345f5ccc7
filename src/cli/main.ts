// The dbform program. Command modules are imported eagerly but keep their heavy dependencies
// (ajv, undici, the planner, the emulator) behind dynamic imports so `dbform --version` is fast.
import { runMain } from './run.js';

await runMain();
