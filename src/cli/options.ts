// Options shared by several commands, declared once so every command spells them the same.
import { Option, type Command } from 'commander';

export interface ConfigOptions {
  file: string[];
  lockfile?: string;
  /** Where the state lives (SPEC section 10): postgres://... or file:PATH. */
  state?: string;
  workspace?: string;
}

export interface ApiOptions {
  apiUrl?: string;
  apiKeyFile?: string;
  emulator?: boolean;
  allowInsecureHttp?: boolean;
}

export interface GlobalOptions {
  debug?: boolean;
  color?: boolean;
}

function collect(value: string, previous: string[] | undefined): string[] {
  return [...(previous ?? []), value];
}

export function addConfigOptions(cmd: Command): Command {
  return cmd
    .addOption(new Option('-f, --file <path>', 'config file (repeatable; default dbform.yaml)').argParser(collect))
    .option('--lockfile <path>', 'lockfile path (default: dbform.lock.json beside the first config file)')
    .addOption(stateOption())
    .addOption(workspaceOption());
}

export function stateOption(): Option {
  return new Option('--state <url>', 'where the state lives: postgres://user@host:5432/db (password from PGPASSWORD or pgpass, never here) or file:PATH (else env DBFORM_STATE, the config\'s state:, the lockfile)');
}

export function workspaceOption(): Option {
  return new Option('--workspace <name>', 'the state of this workspace of the project (else env DBFORM_WORKSPACE, else "default"); ${workspace} in the config expands to it');
}

/** `--policy FILE` (repeatable; env DBFORM_POLICY adds its own): rules checked on every plan (SPEC section 16). */
export function addPolicyOption(cmd: Command): Command {
  return cmd.addOption(
    new Option('--policy <file>', 'a policy file (CEL rules) every plan must pass: a deny blocks its action, a warn is printed (repeatable; env DBFORM_POLICY adds files separated by ":")').argParser(collect),
  );
}

/** `--json` of apply, destroy and sweep: their result as one JSON document (schemas/result.schema.json). */
export function addResultOption(cmd: Command): Command {
  return cmd.option('--json', 'print the result as one JSON document on stdout when done (schemas/result.schema.json); the plan and progress go to stderr');
}

/** --lock-timeout: how long a command that writes the state waits for another run's lock. */
export function addLockTimeoutOption(cmd: Command): Command {
  return cmd.option('--lock-timeout <duration>', 'wait up to this long for the state lock held by another run (e.g. 5m); default 0: fail at once naming the holder', '0');
}

/** --parallelism and --timeout: how the commands that run a plan (apply, destroy, sweep) pace its actions. */
export function addRunOptions(cmd: Command): Command {
  return cmd
    .option('--parallelism <n>', 'API requests in flight at once (waiting for an operation does not count)', '10')
    .option('--timeout <duration>', 'limit per action: 30m, 90s, 1h or milliseconds', '30m');
}

export function addApiOptions(cmd: Command): Command {
  return cmd
    // Not commander's .env(): it reads `process.env`, not the run's (process.ts). The API context
    // falls back to DBFORM_API_URL itself; the help says so as .env() would.
    .option('--api-url <url>', 'API base URL ending in /public/api/v1 (env: DBFORM_API_URL)')
    .option('--api-key-file <path>', 'read the API token from this file (else env DBFORM_API_KEY)')
    .option('--emulator', 'run against an in-process emulator whose state lives in .dbform/ beside the config')
    .option('--allow-insecure-http', 'allow plain http:// to a non-loopback host');
}

/**
 * For commands that need no network (validate): the connection options are accepted and
 * ignored, so a CI wrapper can pass the same flags to every step.
 */
export function addIgnoredApiOptions(cmd: Command): Command {
  const ignored = 'ignored: this command needs no network (accepted so scripts can pass shared flags)';
  return cmd
    .option('--api-url <url>', ignored)
    .option('--api-key-file <path>', ignored)
    .option('--emulator', ignored)
    .option('--allow-insecure-http', ignored);
}

/** The config files of a command: `-f` values in order, or the default. */
export function configFiles(opts: { file?: string[] }): string[] {
  return opts.file && opts.file.length > 0 ? opts.file : ['dbform.yaml'];
}
