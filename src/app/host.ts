// What a use case needs from the world outside it, handed in by the CLI (AWS CDK's injected host,
// Terraform's backend operations over a Context): the environment, the working directory, the
// process that holds locks, the API, and where lines for people go. A use case never touches
// `process`, stdout or colours, and decides no exit code of the process: it returns what happened
// (an exit status included, which history and --json results record) and the CLI acts on it.
import type { ApiClient } from '../api/client.js';
import type { Reporter } from '../executor/index.js';
import type { LocalProcess, Plan, PlanWhere } from '../model/index.js';

export type Env = Record<string, string | undefined>;

/** An open connection to the API (and, with --emulator, the in-process emulator behind it). */
export interface ApiSession {
  client: ApiClient;
  close(): Promise<void>;
}

/** Where a command's state, config and API are: the flags, environment and directory of the run. */
export interface AppHost {
  env: Env;
  /**
   * The run's directory when it is not the process's own (the CLI run inside a test's process):
   * relative paths (config, lockfile, saved plan, policies) are read from it. Unset: the process's.
   */
  cwd?: string;
  /** The process that takes the state's lock and writes the pgpass file. */
  owner: LocalProcess;
  /** `--api-key-file`, if given: its credential, like the environment's, never reaches a plan. */
  apiKeyFile?: string;
  /** Opens the API (the CLI's api-context.ts); closed by the use case when it is done. */
  connect(): Promise<ApiSession>;
  /** One line for a person about the run: notes, warnings, lock waits (the CLI: stderr). */
  note(line: string): void;
}

/** The live view of an apply's events, closed when the run ends. */
export interface RunView extends Reporter {
  close(): void;
}

/** Ctrl-C and SIGTERM, as the CLI installs them for a run that changes things. */
export interface Interrupts {
  /** Aborted at the first signal: nothing new starts, waits are abandoned. */
  signal: AbortSignal;
  dispose(): void;
}

/** What apply, destroy and sweep need beyond the host: the screen, the approval, the signals. */
export interface RunHost extends AppHost {
  /** The plan before the approval, as `dbform plan` shows it. */
  showPlan(plan: Plan): void;
  /** One line of the command's own account (`Apply cancelled; nothing was changed.`). */
  say(line: string): void;
  /** The approval; false when the answer is not yes. Throws when it cannot ask. */
  confirm(o: { question: string; command: string; signal: AbortSignal }): Promise<boolean>;
  /** The progress view of a run, for the state `where` names. */
  progress(o: { verb: 'Apply' | 'Destroy'; where: PlanWhere }): RunView;
  /** Installs the signal handlers; `onForcedExit` runs before a second signal ends the process. */
  interrupts(onForcedExit: () => void): Interrupts;
  /** The command line as run, URL passwords masked: history and the lock holder record it. */
  commandLine: string;
  /** Whether the summary is on a terminal just above the closing error (it then need not repeat the failures). */
  summaryOnScreen: boolean;
}
