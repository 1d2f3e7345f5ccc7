// `dbform state ...`, `dbform workspace ...` and `dbform history` (SPEC section 10). Each loads
// its implementation inside the action, so `dbform --version` stays fast.
import type { Command } from 'commander';
import { action } from '../errors.js';
import { addApiOptions, addConfigOptions } from '../options.js';

const JSON_HELP = 'print JSON instead of text';

export function registerState(program: Command): void {
  const state = program.command('state').description('inspect and move the state (bindings of addresses to IDs), wherever it lives');
  addConfigOptions(state.command('list').description('address, kind, ID and protect of every binding of this workspace').option('--json', JSON_HELP)).action(
    action(async (_o: unknown, cmd: Command) => (await import('../state-commands/state-list-show.js')).runStateList(cmd.optsWithGlobals())),
  );
  addApiOptions(
    addConfigOptions(state.command('show').description('one binding and the live resource it names').argument('<address>', 'e.g. service.metrics').option('--json', JSON_HELP)),
  ).action(action(async (address: string, _o: unknown, cmd: Command) => (await import('../state-commands/state-list-show.js')).runStateShow(address, cmd.optsWithGlobals())));
  addConfigOptions(
    state
      .command('rm')
      .description('forget bindings without touching the resources, which become unmanaged (their claims, drift records and protect marks go too)')
      .argument('<address...>', 'e.g. service.metrics')
      .option('--force', 'also forget a protected binding')
      .option('--lock-timeout <duration>', 'wait up to this long for the state lock (e.g. 5m); default 0', '0')
      .option('--json', JSON_HELP),
  ).action(action(async (addresses: string[], _o: unknown, cmd: Command) => (await import('../state-commands/state-edit.js')).runStateRm(addresses, cmd.optsWithGlobals())));
  addConfigOptions(
    state
      .command('mv')
      .description('rename a binding (the command-line twin of a moved: entry); the resource is untouched')
      .argument('<from>', 'the address bound now')
      .argument('<to>', 'the address to bind it to')
      .option('--lock-timeout <duration>', 'wait up to this long for the state lock (e.g. 5m); default 0', '0')
      .option('--json', JSON_HELP),
  ).action(action(async (from: string, to: string, _o: unknown, cmd: Command) => (await import('../state-commands/state-edit.js')).runStateMv(from, to, cmd.optsWithGlobals())));
  addConfigOptions(
    state
      .command('migrate')
      .description('copy this workspace\'s state and history to another store (refuses a target holding another lineage)')
      .requiredOption('--to <url>', 'postgres://user@host:5432/db (password from PGPASSWORD or pgpass) or file:PATH')
      .option('--json', JSON_HELP),
  ).action(action(async (_o: unknown, cmd: Command) => (await import('../state-commands/state-migrate.js')).runStateMigrate(cmd.optsWithGlobals())));
  addConfigOptions(
    state.command('unlock').description('show who holds the state lock; clear it when that run is gone (PostgreSQL: its session)').option('--json', JSON_HELP),
  ).action(action(async (_o: unknown, cmd: Command) => (await import('../state-commands/workspace-history.js')).runStateUnlock(cmd.optsWithGlobals())));
}

export function registerWorkspace(program: Command): void {
  const ws = program.command('workspace').description('list and delete the workspaces (separate states) of the project');
  addConfigOptions(ws.command('list').description('workspaces with resource count, last apply and expiry').option('--json', JSON_HELP)).action(
    action(async (_o: unknown, cmd: Command) => (await import('../state-commands/workspace-history.js')).runWorkspaceList(cmd.optsWithGlobals())),
  );
  addConfigOptions(ws.command('delete').description('remove an empty workspace (destroy it first)').argument('<name>', 'the workspace').option('--json', JSON_HELP)).action(
    action(async (name: string, _o: unknown, cmd: Command) => (await import('../state-commands/workspace-history.js')).runWorkspaceDelete(name, cmd.optsWithGlobals())),
  );
}

export function registerHistory(program: Command): void {
  addConfigOptions(
    program
      .command('history')
      .description("what was done to this workspace's state, newest first: applies and destroys (a sweep's too), state rm and state mv, and the tool calls of dbform mcp")
      .option('--limit <n>', 'at most this many records')
      .option('--json', JSON_HELP),
  ).action(action(async (_o: unknown, cmd: Command) => (await import('../state-commands/workspace-history.js')).runHistory(cmd.optsWithGlobals())));
}
