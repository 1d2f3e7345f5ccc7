// The process the CLI runs in, as the locks below it record and judge it (model/local-process.ts).
import { hostname } from 'node:os';
import type { LocalProcess } from '../model/index.js';
import { cliProcess, isPidAlive } from './process.js';

export { isPidAlive } from './process.js';

/** This process: its pid, this host's name, and `kill(pid, 0)` to see whether another pid runs. */
export function thisProcess(): LocalProcess {
  return { pid: cliProcess().pid, host: hostname(), isAlive: isPidAlive };
}
