import type { Command } from 'commander';
import { addIgnoredApiOptions } from '../options.js';
import { registerApply } from './apply.js';
import { registerDestroy } from './destroy.js';
import { registerEmulator } from './emulator.js';
import { registerExport } from './export.js';
import { registerFmt } from './fmt.js';
import { registerGraph } from './graph.js';
import { registerImport } from './import.js';
import { registerLogs } from './logs.js';
import { registerMcp } from './mcp.js';
import { registerOutput } from './output.js';
import { registerPlan } from './plan.js';
import { registerPolicy } from './policy.js';
import { registerRestore } from './restore.js';
import { registerProjects } from './projects.js';
import { registerHistory, registerState, registerWorkspace } from './state.js';
import { registerSweep } from './sweep.js';
import { registerValidate } from './validate.js';

/** Order here is the order of `dbform --help`. */
export function registerCommands(program: Command): void {
  registerValidate(program);
  // validate needs no network, but takes the connection flags a CI wrapper passes to every step.
  addIgnoredApiOptions(program.commands.find((c) => c.name() === 'validate')!);
  registerFmt(program);
  registerPlan(program);
  registerApply(program);
  registerGraph(program);
  registerDestroy(program);
  registerRestore(program);
  registerSweep(program);
  registerExport(program);
  registerImport(program);
  registerOutput(program);
  registerPolicy(program);
  registerState(program);
  registerWorkspace(program);
  registerHistory(program);
  registerLogs(program);
  registerMcp(program);
  registerProjects(program);
  registerEmulator(program);
}
