// The process the CLI runs in, as the locks below it record and judge it (model/local-process.ts).
import { hostname } from 'node:os';
import type { LocalProcess } from '../model/index.js';

export function isPidAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    // EPERM: the process exists but belongs to someone else.
    return (err as NodeJS.ErrnoException).code !== 'ESRCH';
  }
}

/** This process: its pid, this host's name, and `kill(pid, 0)` to see whether another pid runs. */
export function thisProcess(): LocalProcess {
  return { pid: process.pid, host: hostname(), isAlive: isPidAlive };
}
