// The interactive approval of apply and destroy, Terraform style: only the exact word `yes`.
import { createInterface } from 'node:readline';
import { DbformError, InterruptedError } from '../../model/errors.js';

export interface ConfirmOptions {
  input: NodeJS.ReadableStream & { isTTY?: boolean };
  output: NodeJS.WritableStream;
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
  const rl = createInterface({ input: options.input, output: options.output, terminal: true });
  try {
    const answer = await new Promise<string>((resolve, reject) => {
      const interrupted = () => reject(new InterruptedError('interrupted at the confirmation prompt; nothing was changed'));
      rl.on('SIGINT', interrupted);
      rl.on('close', () => resolve(''));
      options.signal?.addEventListener('abort', interrupted, { once: true });
      rl.question(`\n${options.question} Only 'yes' will be accepted: `, resolve);
    });
    return answer.trim() === 'yes';
  } finally {
    rl.close();
  }
}
