// The process a CLI run is in: its arguments, environment, directory, streams, exit code and
// signals, from this one place. `bin/dbform.js` runs with the real process. A test may run the CLI
// inside its own process with facts of its own for each call (withCliProcess): AsyncLocalStorage
// carries each run's facts through its promises and timers, so two runs may overlap. The rest of
// src/cli asks cliProcess() for what it needs, early in a command (a listener called by an emitter
// runs in the emitter's context, not the command's), joins the paths it reads itself with atCwd(),
// and hands runDirectory() to the layers below as their `cwd`.
import { AsyncLocalStorage } from 'node:async_hooks';
import { inDirectory } from '../model/run-directory.js';

export type CliSignal = 'SIGINT' | 'SIGTERM';

/** What of a process a command may use; `process` itself is one. */
export interface CliProcess {
  /** As process.argv: the runtime, the script, then the arguments. */
  readonly argv: readonly string[];
  readonly env: NodeJS.ProcessEnv;
  cwd(): string;
  chdir(directory: string): void;
  readonly stdin: NodeJS.ReadStream;
  readonly stdout: NodeJS.WriteStream;
  readonly stderr: NodeJS.WriteStream;
  exitCode: number | string | undefined;
  /** Ends the run now with this code (a real process exits; output written so far stays). */
  exit(code?: number): never;
  on(signal: CliSignal, listener: (signal: CliSignal) => void): unknown;
  once(signal: CliSignal, listener: (signal: CliSignal) => void): unknown;
  off(signal: CliSignal, listener: (signal: CliSignal) => void): unknown;
  readonly pid: number;
  readonly execPath: string;
}

const runs = new AsyncLocalStorage<CliProcess>();

/** The process of the run this code is part of: a test's in-process run, else the real one. */
export function cliProcess(): CliProcess {
  return runs.getStore() ?? process;
}

/** Runs `fn` (a whole CLI run) with `facts` as its process, for everything it starts. */
export function withCliProcess<T>(facts: CliProcess, fn: () => T): T {
  return runs.run(facts, fn);
}

/**
 * The run's directory when it is not the process's own (an in-process run); undefined in a real
 * process, whose relative paths the file system already reads from its directory. The layers
 * below take it as their `cwd` option and join relative paths to it (model/run-directory.ts).
 */
export function runDirectory(): string | undefined {
  const p = cliProcess();
  return p === process ? undefined : p.cwd();
}

/** A path the user gave, as this layer's own file calls must use it (see runDirectory). */
export function atCwd(path: string): string {
  return inDirectory(runDirectory(), path);
}

/** `kill(pid, 0)`: whether a process with this pid runs (EPERM: it does, as someone else). */
export function isPidAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code !== 'ESRCH';
  }
}
