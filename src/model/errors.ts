import { formatDiagnosticLine, type Diagnostic } from './diagnostics.js';

/**
 * Base of every error dbform reports to a person. The CLI's single top-level catch prints
 * `message` (never a stack trace unless --debug) and exits with `exitCode`.
 */
export class DbformError extends Error {
  readonly exitCode: number;
  constructor(message: string, options?: { exitCode?: number; cause?: unknown }) {
    super(message, options?.cause === undefined ? undefined : { cause: options.cause });
    this.name = new.target.name;
    this.exitCode = options?.exitCode ?? 1;
  }
}

/** Config or input problems already formatted as one message per line. */
export class ConfigError extends DbformError {}

/** Config or plan diagnostics; the message is one line each, as `dbform validate` prints them. */
export class DiagnosticsError extends ConfigError {
  readonly diagnostics: Diagnostic[];
  constructor(diagnostics: Diagnostic[]) {
    super(diagnostics.map(formatDiagnosticLine).join('\n'));
    this.diagnostics = diagnostics;
  }
}

/** A saved plan no longer matches the live state of a resource it touches (SPEC section 4). */
export class StalePlanError extends DbformError {}

/** A plan with blocked actions (protection or the data-loss guard): exit code 3. */
export class BlockedPlanError extends DbformError {
  constructor(message: string) {
    super(message, { exitCode: 3 });
  }
}

/** Ctrl-C / SIGTERM during a command: exit code 130. */
export class InterruptedError extends DbformError {
  constructor(message = 'interrupted') {
    super(message, { exitCode: 130 });
  }
}
