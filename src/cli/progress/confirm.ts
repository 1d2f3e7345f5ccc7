// The interactive approval of apply and destroy, Terraform style: only the exact word `yes`.
import { createInterface } from 'node:readline';
import { DbformError, InterruptedError } from '../../model/errors.js';

export interface ConfirmOptions {
  input: NodeJS.ReadableStream & { isTTY?: boolean };
  output: NodeJS.WritableStream & { isTTY?: boolean };
  /**
   * Where the prompt goes when `output` is not a terminal (stdout piped to a log) and this is:
   * the question, the cursor codes and the echoed answer belong on the screen, not in the log.
   */
  stderr?: NodeJS.WritableStream & { isTTY?: boolean };
  autoApprove: boolean;
  signal?: AbortSignal;
  /** `Apply these changes?` */
  question: string;
  /** Names the command in the non-interactive refusal. */
  command: string;
}

/** Resolves true to proceed, false when the answer is not `yes`; throws when it cannot ask. */
export async function confirmChanges(options: ConfirmOptions): Promise<boolean> {
  if (options.autoApprove) return true;
  if (options.input.isTTY !== true) {
    throw new DbformError(
      `refusing to ${options.command} without confirmation: standard input is not a terminal. ` +
        `Review the plan above and run \`dbform ${options.command} --auto-approve\` to proceed non-interactively.`,
    );
  }
  const { output, terminal } = promptOutput(options);
  const rl = createInterface({ input: options.input, output, terminal });
  try {
    const answer = await new Promise<string>((resolve, reject) => {
      let settled = false;
      // Ctrl-C or Ctrl-D leave the cursor on the prompt's line: end it before what comes next.
      const endLine = () => {
        if (!settled) output.write('\n');
        settled = true;
      };
      const interrupted = () => {
        endLine();
        reject(new InterruptedError('interrupted at the confirmation prompt; nothing was changed'));
      };
      rl.on('SIGINT', interrupted);
      rl.on('close', () => {
        endLine();
        resolve('');
      });
      // A signal from outside (kill -INT) prints its own notice, which starts on a new line.
      options.signal?.addEventListener('abort', () => {
        settled = true;
        interrupted();
      }, { once: true });
      rl.question(`\n${options.question} Only 'yes' will be accepted: `, (answer) => {
        settled = true;
        resolve(answer);
      });
    });
    return answer.trim() === 'yes';
  } finally {
    rl.close();
  }
}

/** The terminal to ask on: stdout, else stderr; with neither, plain text without cursor codes. */
function promptOutput(options: ConfirmOptions): { output: NodeJS.WritableStream; terminal: boolean } {
  if (options.output.isTTY === true) return { output: options.output, terminal: true };
  if (options.stderr?.isTTY === true) return { output: options.stderr, terminal: true };
  return { output: options.output, terminal: false };
}
