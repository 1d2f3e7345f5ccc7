import { DbformError, DiagnosticsError } from '../model/errors.js';
import { terminalText } from '../model/terminal-text.js';
import { cliProcess, type CliProcess } from './process.js';

export function isDebug(argv: readonly string[] = cliProcess().argv): boolean {
  return argv.includes('--debug') || cliProcess().env.DBFORM_DEBUG === '1';
}

/**
 * The one place that turns an error into a message on stderr and an exit code. Known errors print
 * their message only; anything else is a bug and says so. Stack traces only with --debug.
 */
export function reportError(err: unknown, debug: boolean, stderr: NodeJS.WritableStream = cliProcess().stderr): number {
  if (err instanceof DbformError) {
    // Diagnostics carry their own marks: `FILE:LINE:COL: message` as validate prints them.
    // A message may carry text from the API (an error message, a name): written as data.
    const message = terminalText(err.message);
    stderr.write(err instanceof DiagnosticsError ? `${message}\n` : `error: ${message}\n`);
    if (debug && err.stack) stderr.write(`${err.stack}\n`);
    if (debug && err.cause instanceof Error && err.cause.stack) stderr.write(`caused by: ${err.cause.stack}\n`);
    return err.exitCode;
  }
  const message = terminalText(err instanceof Error ? err.message : String(err));
  stderr.write(`error: unexpected failure: ${message}\n`);
  if (debug && err instanceof Error && err.stack) stderr.write(`${err.stack}\n`);
  else stderr.write('(this is a bug in dbform; run again with --debug for details)\n');
  return 1;
}

/**
 * Wraps a command's action: the returned number (default 0) becomes the exit code, errors go
 * through reportError. Sets the exit code instead of exiting so output flushes.
 */
export function action<A extends unknown[]>(run: (...args: A) => Promise<number | void>): (...args: A) => Promise<void> {
  return async (...args: A) => {
    const proc = cliProcess();
    try {
      const code = await run(...args);
      proc.exitCode = code ?? 0;
    } catch (err) {
      const code = reportError(err, isDebug(), proc.stderr);
      proc.exitCode = code;
      exitSoonAfterError(proc, code);
    }
  };
}

/** How long a failed command may take to wind down after its error is printed. */
export const EXIT_GRACE_MS = 1000;

/**
 * Once the error is reported the command is over; anything still pending (a request still being
 * retried, a timer) must not keep a CI job waiting. The timer is unref'd: a process that winds
 * down by itself exits at once, as usual.
 */
function exitSoonAfterError(proc: CliProcess, code: number): void {
  setTimeout(() => proc.exit(code), EXIT_GRACE_MS).unref();
}
