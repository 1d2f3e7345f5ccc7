// Running the built CLI (`bin/dbform.js` over `dist/`; `npm test` builds first) as a user would:
// a child process, its exit code, stdout and stderr.
import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';

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
  /** The child's whole environment, instead of the inherited one. */
  exactEnv?: NodeJS.ProcessEnv;
  /** Written to stdin, which is then closed; without it stdin is closed at once. */
  input?: string;
  /** Like `| head`: the reader goes away after the first chunk while the command still writes. */
  closeStdoutAfterFirstChunk?: boolean;
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
  return spawnCli(args, options).done;
}
