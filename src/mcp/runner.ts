// How a tool runs the dbform command it stands for. The tools know only this interface: today a
// child process of the same built CLI (isolated, never a shell), later perhaps an in-process run.
import { spawn } from 'node:child_process';

export interface RunResult {
  /** The exit code; a process ended by a signal counts as 1 (its signal is named on stderr). */
  code: number;
  stdout: string;
  stderr: string;
}

export interface RunOptions {
  /** Aborted when the client cancels the call: the command is interrupted as Ctrl-C would. */
  signal?: AbortSignal;
  /** Each line the command writes as it runs, on either stream (the progress of an apply). */
  onLine?: (line: string) => void;
}

export interface DbformRunner {
  run(argv: readonly string[], options?: RunOptions): Promise<RunResult>;
}

export interface SpawnRunnerOptions {
  /** The Node binary that runs the CLI (the server's own). */
  execPath: string;
  /** bin/dbform.js of the same installation as the server. */
  binPath: string;
  cwd: string;
  /** The child's whole environment: the server decides what it inherits. */
  env: Record<string, string | undefined>;
  /** More output than this from one command is an error, not an answer (it would swamp the client). */
  maxOutputBytes?: number;
}

const DEFAULT_MAX_OUTPUT = 8 * 1024 * 1024;

/** Runs `node bin/dbform.js ARGV...` with no shell: an argument is never interpreted, only passed. */
export class SpawnRunner implements DbformRunner {
  constructor(private readonly o: SpawnRunnerOptions) {}

  run(argv: readonly string[], options: RunOptions = {}): Promise<RunResult> {
    const limit = this.o.maxOutputBytes ?? DEFAULT_MAX_OUTPUT;
    const child = spawn(this.o.execPath, [this.o.binPath, ...argv], { cwd: this.o.cwd, env: this.o.env, stdio: ['ignore', 'pipe', 'pipe'], shell: false });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    let size = 0;
    let tooLarge = false;
    const keep = (into: Buffer[], chunk: Buffer): void => {
      size += chunk.length;
      if (size <= limit) into.push(chunk);
      else if (!tooLarge) {
        tooLarge = true;
        child.kill('SIGTERM');
      }
    };
    const lines = { stdout: '', stderr: '' };
    const watch = (name: 'stdout' | 'stderr', into: Buffer[]) => (chunk: Buffer) => {
      keep(into, chunk);
      if (!options.onLine) return;
      const parts = (lines[name] + chunk.toString('utf8')).split('\n');
      lines[name] = parts.pop() ?? '';
      for (const line of parts) if (line.trim() !== '') options.onLine(line);
    };
    child.stdout.on('data', watch('stdout', out));
    child.stderr.on('data', watch('stderr', err));
    const onAbort = () => child.kill('SIGINT');
    if (options.signal?.aborted) onAbort();
    else options.signal?.addEventListener('abort', onAbort, { once: true });
    return new Promise((resolve, reject) => {
      child.on('error', reject);
      child.on('close', (code, signal) => {
        options.signal?.removeEventListener('abort', onAbort);
        const stderr = Buffer.concat(err).toString('utf8');
        if (tooLarge) {
          resolve({ code: 1, stdout: '', stderr: `error: dbform ${argv[0] ?? ''} wrote more than ${limit} bytes; narrow the question (a --target, fewer addresses, a smaller limit)\n` });
          return;
        }
        resolve({ code: code ?? 1, stdout: Buffer.concat(out).toString('utf8'), stderr: signal ? `${stderr}error: dbform ${argv[0] ?? ''} was ended by ${signal}\n` : stderr });
      });
    });
  }
}
