// `dbform completion bash|zsh|fish|powershell` prints a script that the shell sources; the script
// asks `dbform complete -- WORDS...` (hidden) for the candidates as the user types. Both are
// answered by @bomb.sh/tab, which reads commands, options and their choices from a commander
// program. It is loaded only here, so no other command pays for it. tab prints with console.log
// and keeps what it describes in its module: these two commands need a process of their own
// (tests run them spawned, test/support/cli.ts).
import type { Command } from 'commander';
import { action } from '../errors.js';
import { cliProcess } from '../process.js';

const SHELLS = ['bash', 'zsh', 'fish', 'powershell'];

/**
 * `describe` builds the program to describe, without these two commands: tab adds its own
 * `completion` and `complete` to it and answers from there.
 */
export function registerCompletion(program: Command, describe: () => Command): void {
  const answer = (words: string[]) =>
    action(async () => {
      const { default: tab } = await import('@bomb.sh/tab/commander');
      const described = describe();
      tab(described, { completionCommandName: 'completion' });
      await described.parseAsync(words, { from: 'user' });
    });
  program
    .command('completion')
    .description(`print a shell completion script (${SHELLS.join(', ')}); e.g. \`source <(dbform completion bash)\``)
    .argument('<shell>', `one of ${SHELLS.join(', ')}`)
    .action(async (shell: string) => {
      if (!SHELLS.includes(shell)) {
        cliProcess().stderr.write(`error: dbform completion knows ${SHELLS.join(', ')} (got "${shell}")\n`);
        cliProcess().exitCode = 1;
        return;
      }
      await answer(['completion', shell])();
    });
  program
    .command('complete', { hidden: true })
    .description('the completion script asks this for candidates: dbform complete -- WORDS...')
    .argument('[words...]')
    .allowUnknownOption()
    .action(async (words: string[]) => answer(['complete', '--', ...words])());
}
