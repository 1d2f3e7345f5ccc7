// Terraform spells its options with one dash (`-auto-approve`, `-target=service.x`); commander
// reads `-auto-approve` as unknown, and worse, `-out=plan` after a command with `-o` as the file
// `ut=plan`. Before parsing, such a word is answered with dbform's spelling, on one line.
import type { Command } from 'commander';

/** Terraform options that dbform has no option of the same name for, and what to do instead. */
const TERRAFORM_ONLY: Record<string, string> = {
  var: 'dbform has no variables; write ${env:NAME} in the config to read an environment variable',
  'var-file': 'dbform has no variables; write ${env:NAME} in the config to read an environment variable',
  lock: 'dbform always locks the state during apply; `--force-unlock` removes a lock left by another run',
  'lock-timeout': 'dbform always locks the state during apply; `--force-unlock` removes a lock left by another run',
  input: 'dbform never prompts without a terminal; pass --auto-approve to apply without asking',
  refresh: 'dbform reads the live state on every plan and apply',
  'refresh-only': 'dbform reads the live state on every plan and apply',
  destroy: 'run `dbform destroy` to delete everything the state binds',
  chdir: 'run dbform in that directory, or pass -f DIR/dbform.yaml',
  state: 'choose the state with --state URL, or a lockfile with --lockfile PATH',
  'state-out': 'choose the state with --state URL, or a lockfile with --lockfile PATH',
  backup: 'dbform writes the state atomically (a lockfile by rename, PostgreSQL in a transaction) and keeps no backup option',
};

const SINGLE_DASH = /^-([a-z][a-z0-9]*(?:-[a-z0-9]+)+|[a-z][a-z0-9]+)(?:=(.*))?$/s;

/** The long and short options of `commands`: whether each takes a value. */
function optionTable(commands: readonly Command[]): Map<string, boolean> {
  const table = new Map<string, boolean>();
  for (const cmd of commands) {
    for (const o of cmd.options) {
      const takesValue = o.required || o.optional;
      if (o.long) table.set(o.long, takesValue);
      if (o.short) table.set(o.short, takesValue);
    }
  }
  return table;
}

/** The command `args` run: the first word that names one (an option's value never does here). */
const commandOf = (program: Command, args: readonly string[]): Command | undefined =>
  program.commands.find((c) => args.some((a) => a === c.name() || c.aliases().includes(a)));

/**
 * The one-line hint for the first Terraform-style option in `args` (argv after the script), or
 * undefined. Values of options that take one are skipped, and so is everything after `--`.
 */
export function describeSingleDashOption(program: Command, args: readonly string[]): string | undefined {
  const command = commandOf(program, args);
  const options = optionTable(command ? [program, command] : [program, ...program.commands]);
  const elsewhere = optionTable(program.commands);
  for (let i = 0; i < args.length; i++) {
    const token = args[i]!;
    if (token === '--') return undefined;
    if (token.startsWith('--')) {
      if (!token.includes('=') && options.get(token) === true) i += 1;
      continue;
    }
    const match = SINGLE_DASH.exec(token);
    if (!match) {
      // `-f dbform.yaml`: the value is not an option.
      if (options.get(token) === true) i += 1;
      continue;
    }
    const [, name, inline] = match as unknown as [string, string, string | undefined];
    const takesValue = options.get(`--${name}`);
    if (takesValue !== undefined) {
      const value = takesValue ? (inline ?? (args[i + 1]?.startsWith('-') === false ? args[i + 1] : undefined)) : undefined;
      const spelled = value === undefined ? `--${name}${takesValue ? ' VALUE' : ''}` : `--${name} ${/^[\w./:@=,+-]+$/.test(value) ? value : JSON.stringify(value)}`;
      return `unknown option '${token}': dbform's options take two dashes; write ${spelled}`;
    }
    if (command && elsewhere.has(`--${name}`)) {
      return `unknown option '${token}': dbform's options take two dashes, and \`dbform ${command.name()}\` has no --${name} (see dbform ${command.name()} --help)`;
    }
    const instead = TERRAFORM_ONLY[name];
    if (instead !== undefined) return `unknown option '${token}' (a Terraform option): ${instead}`;
  }
  return undefined;
}
