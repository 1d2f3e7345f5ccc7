// SPEC section 4 calls the config and connection options global: `dbform -f prod.yaml plan`
// must work as well as `dbform plan -f prod.yaml`. Each command declares them itself (so its
// help lists them); this moves the ones written before the command name to just after it.
import type { Command } from 'commander';

/** Long name -> whether it takes a value. `-f` is `--file`. */
const GLOBAL_OPTIONS: ReadonlyMap<string, boolean> = new Map([
  ['--file', true],
  ['--lockfile', true],
  ['--state', true],
  ['--workspace', true],
  ['--api-url', true],
  ['--api-key-file', true],
  ['--emulator', false],
  ['--allow-insecure-http', false],
]);

export const GLOBAL_OPTIONS_HELP =
  '\nThe options -f/--file, --lockfile, --state, --workspace, --api-url, --api-key-file, --emulator and\n--allow-insecure-http' +
  ' may also come before a command that takes them, e.g. `dbform -f prod.yaml plan`.';

/** `-fX`, `--file=X`, `--file X`: the long name, and the value when it is in the same token. */
function splitOption(token: string): { long: string; inline?: string } {
  if (token.startsWith('--')) {
    const eq = token.indexOf('=');
    return eq === -1 ? { long: token } : { long: token.slice(0, eq), inline: token.slice(eq + 1) };
  }
  if (token.startsWith('-f')) return token.length > 2 ? { long: '--file', inline: token.slice(2) } : { long: '--file' };
  return { long: token };
}

/**
 * argv with the global options that precede the command name moved right after it, when that
 * command declares them; anything else is left where it was, for commander to accept or refuse.
 */
export function hoistGlobalOptions(program: Command, argv: readonly string[]): string[] {
  const args = argv.slice(2);
  const before: string[] = [];
  const hoisted: string[] = [];
  const longs: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const token = args[i]!;
    if (token === '--') break;
    if (!token.startsWith('-')) {
      const named = (list: readonly Command[], name: string | undefined) => list.find((c) => c.name() === name || c.aliases().includes(name ?? ''));
      const top = named(program.commands, token);
      // A group (`state list`, `workspace delete`): the options go after its subcommand.
      const sub = top && top.commands.length > 0 ? named(top.commands, args[i + 1]) : undefined;
      const command = sub ?? top;
      const words = sub ? [token, args[i + 1]!] : [token];
      const declared = (long: string) => command?.options.some((o) => o.long === long) === true;
      const movable = hoisted.length > 0 && command !== undefined && longs.every(declared);
      if (!movable) return [...argv];
      return [...argv.slice(0, 2), ...before, ...words, ...hoisted, ...args.slice(i + words.length)];
    }
    const { long, inline } = splitOption(token);
    const takesValue = GLOBAL_OPTIONS.get(long);
    if (takesValue === undefined) {
      before.push(token);
      continue;
    }
    hoisted.push(token);
    longs.push(long);
    if (takesValue && inline === undefined && i + 1 < args.length) hoisted.push(args[++i]!);
  }
  return [...argv];
}
