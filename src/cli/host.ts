// The host the use cases (src/app) run in, made of this process: its environment, directory,
// streams, signals and terminal. The only place that hands them over; the use cases never reach
// for them themselves.
import type { AppHost, RunHost } from '../app/host.js';
import type { SweepHost } from '../app/sweep.js';
import { redactUrl } from '../state/pg/url.js';
import type { ApiContextInput } from './api-context.js';
import { shouldUseColor } from './color.js';
import { isDebug, reportError } from './errors.js';
import { thisProcess } from './local-process.js';
import { confirmChanges } from './progress/confirm.js';
import { createProgressView } from './progress/index.js';
import { kleurWouldColour } from './progress/paint.js';
import { installInterruptHandlers } from './progress/signals.js';
import { renderPlanText } from './render/text.js';
import { cliProcess, runDirectory } from './process.js';

/** The streams and environment of a run (tests give their own). */
export interface FlowIo {
  stdout: NodeJS.WriteStream;
  stderr: NodeJS.WriteStream;
  stdin: NodeJS.ReadStream;
  env: NodeJS.ProcessEnv;
}

export function defaultIo(): FlowIo {
  return { stdout: cliProcess().stdout, stderr: cliProcess().stderr, stdin: cliProcess().stdin, env: cliProcess().env };
}

/** The command line as run, with any URL password masked: it goes into history and the lock holder. */
export function commandLine(argv: readonly string[] = cliProcess().argv.slice(2)): string {
  return ['dbform', ...argv.map((a) => redactUrl(a).replace(/(\w+:\/\/[^:@/\s]*):[^@/\s]*@/g, '$1:***@'))].join(' ');
}

/** A command that reads the state and the API: notes on stderr, the API as the flags say. */
export function appHost(flags: ApiContextInput, files: string[] | undefined, env: NodeJS.ProcessEnv = cliProcess().env, stderr: NodeJS.WritableStream = cliProcess().stderr): AppHost {
  return {
    env,
    cwd: runDirectory(),
    owner: thisProcess(),
    ...(flags.apiKeyFile !== undefined ? { apiKeyFile: flags.apiKeyFile } : {}),
    connect: async () => {
      const { openApiContext } = await import('./api-context.js');
      return openApiContext({ ...flags, ...(files ? { configFiles: files } : {}) }, env, stderr);
    },
    note: (line) => void stderr.write(`${line}\n`),
  };
}

export interface RunOutput {
  /** `--json`: the result document alone on stdout; the plan, prompt and progress go to stderr. */
  json: boolean;
  /** `--no-color` (false), else undefined. */
  color?: boolean;
}

/**
 * A command that changes things (apply, destroy, sweep): the plan, the approval and the progress
 * on stdout, or on stderr when stdout carries the `--json` result.
 */
export function runHost(flags: ApiContextInput, files: string[], o: RunOutput, io: FlowIo = defaultIo()): SweepHost {
  const screen = o.json ? io.stderr : io.stdout;
  const color = shouldUseColor(screen, o.color, io.env);
  // Progress lines colour only where kleur would on its own as well (progress/paint.ts).
  const paintColor = color && kleurWouldColour(io.env, io.stdout);
  const host: RunHost = {
    ...appHost(flags, files, io.env, io.stderr),
    showPlan: (plan) => void screen.write(renderPlanText(plan, { color })),
    say: (line) => void screen.write(`${line}\n`),
    confirm: ({ question, command, signal }) =>
      confirmChanges({ input: io.stdin, output: screen, stderr: io.stderr, autoApprove: false, signal, question, command }),
    progress: ({ verb, where }) => createProgressView(screen, { color: paintColor, verb, where, ...(o.json ? {} : { stderr: io.stderr }) }),
    interrupts: (onForcedExit) => installInterruptHandlers({ stderr: io.stderr, onForcedExit }),
    commandLine: commandLine(),
    summaryOnScreen: screen.isTTY === true,
  };
  return { ...host, reportError: (err) => reportError(err, isDebug(), io.stderr) };
}
