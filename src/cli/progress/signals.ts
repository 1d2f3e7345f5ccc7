// Ctrl-C and SIGTERM during apply/destroy (SPEC section 5): the first signal aborts (start
// nothing new, abandon waits, save the state, print the summary, exit 130); a second one exits
// at once, which is safe because every write of the state is atomic (a lockfile replaced whole, a
// PostgreSQL row in one statement).
import { setMaxListeners } from 'node:events';
import { InterruptedError } from '../../model/errors.js';
import { cliProcess } from '../process.js';

export interface InterruptHandle {
  signal: AbortSignal;
  /** Removes the handlers (and restores Node's default behaviour). */
  dispose(): void;
}

export function installInterruptHandlers(options: {
  stderr: NodeJS.WritableStream;
  /** Runs synchronously before a second signal exits the process (e.g. removing the apply lock). */
  onForcedExit?: () => void;
}): InterruptHandle {
  // The handler runs when the signal comes, outside the command's own context: it keeps its process.
  const proc = cliProcess();
  const controller = new AbortController();
  // Every action, wait and request in flight listens to it: dozens at once are expected.
  setMaxListeners(0, controller.signal);
  let count = 0;
  const handler = (sig: NodeJS.Signals) => {
    count++;
    if (count === 1) {
      options.stderr.write(
        `\n${sig} received: starting nothing new, abandoning waits (operations already sent keep running in the cloud), ` +
          'saving the state. Press Ctrl-C again to exit at once.\n',
      );
      controller.abort(new InterruptedError(`interrupted by ${sig}`));
      return;
    }
    try {
      options.onForcedExit?.();
    } finally {
      options.stderr.write(`${sig} received again: exiting now; run the same command again to resume.\n`);
      proc.exit(130);
    }
  };
  proc.on('SIGINT', handler);
  proc.on('SIGTERM', handler);
  return {
    signal: controller.signal,
    dispose: () => {
      // Once interrupted, the process is on its way out: a further signal during the clean-up
      // still means "exit now" with 130, not Node's default death by signal.
      if (count > 0) return;
      proc.off('SIGINT', handler);
      proc.off('SIGTERM', handler);
    },
  };
}

/** Throws the abort reason when the signal fired: checkpoints between the stages of a command. */
export function throwIfInterrupted(signal: AbortSignal): void {
  if (signal.aborted) throw signal.reason instanceof Error ? signal.reason : new InterruptedError();
}
