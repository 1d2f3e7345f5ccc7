// Running the CLI as a user would: its exit code, stdout and stderr. By default inside the test's
// own process (runCli): the program runs with a process of its own for the call (src/cli/
// process.ts: arguments, environment, directory, streams, exit code), which costs the command's
// work and not a Node start and module load (~300 ms of CPU each). What needs a real process
// spawns `bin/dbform.js` over `dist/` (`npm test` builds first): signals, SIGKILL, locks held by
// another process, the exit of a process with work still pending, a reader that goes away, a
// terminal. Pass `spawn: true` to runCli, or use spawnCli for a handle on the child. What an
// in-process run must not do (write after it is over, outlive its test file): cli-runs.ts.
import { spawn, type ChildProcess } from 'node:child_process';
import { EventEmitter } from 'node:events';
import { join, resolve } from 'node:path';
import { Readable, Writable } from 'node:stream';
import { withCliProcess, type CliProcess, type CliSignal } from '../../src/cli/process.js';
import { runMain } from '../../src/cli/run.js';
import { noteLateOutput, noteRunning } from './cli-runs.js';

export const BIN = join(import.meta.dirname, '..', '..', 'bin', 'dbform.js');

export interface CliResult {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

export interface CliOptions {
  cwd?: string;
  /** Added to the test process's environment minus every `DBFORM_*`, `NO_COLOR` and `FORCE_COLOR`. */
  env?: NodeJS.ProcessEnv;
  /** The run's whole environment, instead of the inherited one. */
  exactEnv?: NodeJS.ProcessEnv;
  /** Written to stdin, which is then closed; without it stdin is closed at once. */
  input?: string;
  /** Like `| head`: the reader goes away after the first chunk while the command still writes (spawns). */
  closeStdoutAfterFirstChunk?: boolean;
  /** A real process (`bin/dbform.js`), for what only a process has: see the top of this file. */
  spawn?: boolean;
}

/** The test process's environment without anything that would change how dbform behaves. */
export function inheritedEnv(extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env)) if (!k.startsWith('DBFORM_') && k !== 'NO_COLOR' && k !== 'FORCE_COLOR') env[k] = v;
  return { ...env, ...extra };
}

export function spawnCli(args: string[], options: CliOptions = {}): { child: ChildProcess; done: Promise<CliResult> } {
  const env = options.exactEnv ?? inheritedEnv(options.env);
  const child = spawn(process.execPath, [BIN, ...args], { cwd: options.cwd, env, stdio: ['pipe', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout!.setEncoding('utf8').on('data', (d: string) => {
    stdout += d;
    if (options.closeStdoutAfterFirstChunk) child.stdout!.destroy();
  });
  child.stderr!.setEncoding('utf8').on('data', (d: string) => (stderr += d));
  child.stdin!.on('error', () => {}); // a command that exits before reading its input
  child.stdin!.end(options.input);
  const done = new Promise<CliResult>((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code, signal) => resolve({ code, signal, stdout, stderr }));
  });
  return { child, done };
}

export function runCli(args: string[], options: CliOptions = {}): Promise<CliResult> {
  if (options.spawn === true || options.closeStdoutAfterFirstChunk === true) return spawnCli(args, options).done;
  return runInProcess(args, options);
}

/** Thrown by an in-process run's exit(): it ends the run where a real process would end. */
class RunExit extends Error {
  constructor(readonly code: number) {
    super(`dbform exited with ${code}`);
  }
}

/** What a pipe collects: the text written, in order. */
class Collector extends Writable {
  text = '';
  constructor(private readonly run: { over: boolean; argv: readonly string[] }) {
    super();
  }

  override _write(chunk: Buffer | string, encoding: BufferEncoding, done: (error?: Error | null) => void): void {
    const text = typeof chunk === 'string' ? chunk : chunk.toString('utf8');
    if (this.run.over) noteLateOutput(['dbform', ...this.run.argv.slice(2)].join(' '), text);
    else this.text += text;
    done();
  }
}

/** The process an in-process run sees: its own arguments, environment, directory and pipes. */
class RunProcess implements CliProcess {
  readonly argv: readonly string[];
  readonly env: NodeJS.ProcessEnv;
  readonly stdin: NodeJS.ReadStream;
  readonly stdout = new Collector(this) as Collector & NodeJS.WriteStream;
  readonly stderr = new Collector(this) as Collector & NodeJS.WriteStream;
  exitCode: number | string | undefined;
  readonly pid = process.pid;
  readonly execPath = process.execPath;
  /** Set when the run is over (its program returned, or it exited): later exits change nothing. */
  over = false;
  private directory: string;
  private readonly signals = new EventEmitter();

  constructor(args: string[], options: CliOptions) {
    this.argv = [process.execPath, BIN, ...args];
    this.env = options.exactEnv ?? inheritedEnv(options.env);
    this.directory = resolve(options.cwd ?? process.cwd());
    this.stdin = Readable.from(options.input === undefined ? [] : [options.input]) as Readable & NodeJS.ReadStream;
  }

  cwd(): string {
    return this.directory;
  }

  chdir(directory: string): void {
    this.directory = resolve(this.directory, directory);
  }

  exit(code?: number): never {
    if (this.over) return undefined as never; // a timer of a run that is over: it exited already
    this.exitCode = code ?? this.exitCode;
    this.over = true;
    throw new RunExit(Number(this.exitCode ?? 0));
  }

  on(signal: CliSignal, listener: () => void): this {
    this.signals.on(signal, listener);
    return this;
  }

  once(signal: CliSignal, listener: () => void): this {
    this.signals.once(signal, listener);
    return this;
  }

  off(signal: CliSignal, listener: () => void): this {
    this.signals.off(signal, listener);
    return this;
  }
}

async function runInProcess(args: string[], options: CliOptions): Promise<CliResult> {
  const run = new RunProcess(args, options);
  const done = noteRunning(['dbform', ...args].join(' '));
  let code: number;
  try {
    await withCliProcess(run, runMain);
    code = Number(run.exitCode ?? 0);
  } catch (err) {
    if (!(err instanceof RunExit)) throw err;
    code = err.code;
  } finally {
    run.over = true;
    done();
  }
  return { code, signal: null, stdout: run.stdout.text, stderr: run.stderr.text };
}
