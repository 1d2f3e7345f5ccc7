// The built CLI on a real terminal (a pseudo-terminal from util-linux `script`), as a person runs
// it: stdin and stdout are a TTY, so apply and destroy ask for approval, and the test answers
// the prompt once it is shown. Everything the terminal showed comes back as one text.
import { spawn } from 'node:child_process';
import { BIN } from './cli.js';

export interface TerminalRun {
  code: number | null;
  /** What the terminal showed (stdout and stderr together), without cursor codes. */
  screen: string;
}

/** The prompt's last words (src/cli/progress/confirm.ts). */
const PROMPT = "Only 'yes' will be accepted: ";

const quote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;

/**
 * Runs `dbform ARGS` in `cwd` with exactly `env` on a terminal; answers `answer` when the approval
 * prompt shows. A run that never asks still ends (the answer is not sent).
 */
export function runInTerminal(args: string[], o: { cwd: string; env: NodeJS.ProcessEnv; answer: string }): Promise<TerminalRun> {
  const command = [process.execPath, BIN, ...args].map(quote).join(' ');
  // -q: no start and end lines; -e: its exit status is the command's; -f: flush as it comes.
  const child = spawn('script', ['-qefc', command, '/dev/null'], { cwd: o.cwd, env: o.env, stdio: ['pipe', 'pipe', 'pipe'] });
  let raw = '';
  let answered = false;
  child.stdout.setEncoding('utf8').on('data', (d: string) => {
    raw += d;
    if (!answered && raw.includes(PROMPT)) {
      answered = true;
      child.stdin.write(`${o.answer}\r`);
    }
  });
  child.stderr.setEncoding('utf8').on('data', (d: string) => (raw += d));
  child.stdin.on('error', () => {});
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code) => {
      child.stdin.destroy();
      resolve({ code, screen: plain(raw) });
    });
  });
}

/** Without the cursor and erase codes readline writes, and with the terminal's \r\n as \n. */
function plain(text: string): string {
  // eslint-disable-next-line no-control-regex
  return text.replace(/\x1b\[[0-9;?]*[A-Za-z]/g, '').replace(/\r\n/g, '\n').replace(/\r/g, '');
}
