// `dbform output [ADDR]...`: how to connect to each managed resource of a kind that takes
// connections (SPEC section 11).
import { Option, type Command } from 'commander';
import { endpointKinds, nounOf } from '../../model/index.js';
import { action } from '../errors.js';
import { addApiOptions, addConfigOptions } from '../options.js';
import { OUTPUT_KINDS, outputNouns } from '../../app/connections.js';

// The endpoints beside the resource's own come from the field descriptors that open them.
const ENDPOINTS = endpointKinds(...OUTPUT_KINDS.map((k) => k.fields));

/** A child's key: `<parent key>__<key>`, as the help says it. */
const CHILD_KEYS = OUTPUT_KINDS.filter((k) => k.parent !== undefined)
  .map((k) => `A ${nounOf(k.kind)}'s key is <${nounOf(k.parent!)} key>__<${nounOf(k.kind)} key>`)
  .join('; ');

/** `service.KEY or <child>.SERVICE.KEY`: the address forms of the kinds output prints. */
const FORMS = OUTPUT_KINDS.map((k) => [k.kind, ...(k.parent ? [k.parent.toUpperCase()] : []), 'KEY'].join('.')).join(' or ');

const HELP = `
Fields, in this order:
  host, port
${ENDPOINTS.map((e) => `  ${e.prefix}_host, ${e.prefix}_port (${e.when})`).join('\n')}
  database (tsdb), user (tsdbadmin), uri (no password)
  password, with --with-password
Values come only from the live resource each address is bound to
in the state (workspace --workspace): an address that is not bound, whose resource is gone or
not READY, is an error and nothing is printed.

Formats:
  text (default)  one block per address
  --json          {"service.app": {"host": ..., "port": 5432, ...}}
  --format env    DBFORM_<KEY>_<FIELD>=value lines for a shell (eval, or source a file):
                  the key upper-cased with - as _; a value the shell would interpret is
                  single-quoted
  --format github appends <key>_<field>=value to the file $GITHUB_OUTPUT (step outputs)
${CHILD_KEYS} (two underscores; keys have none), e.g.
DBFORM_APP__READ_HOST or app__read_host.

--with-password reads the password from the config's password.from_env, else from the pgpass
file that apply writes (--pgpass PATH, else PGPASSFILE, else ~/.pgpass); never from the API.
With --format github, "::add-mask::<password>" is printed on stdout first so the runner hides it.
`;

export function registerOutput(program: Command): void {
  const cmd = program
    .command('output')
    .description(`print how to connect to the managed ${outputNouns()} (host, port, ${ENDPOINTS.map((e) => e.prefix).join(' and ')} endpoints, uri)`)
    .argument('[address...]', `${FORMS} (default: all of the config)`)
    .option('--json', 'print JSON (same as --format json)')
    .addOption(new Option('--format <format>', 'output format').choices(['text', 'json', 'env', 'github']))
    .option('--with-password', 'add the password, from password.from_env or the pgpass file (never stored by dbform)')
    .option('--pgpass <path>', 'the pgpass file to read the password from (default PGPASSFILE or ~/.pgpass)')
    .addHelpText('after', HELP);
  addApiOptions(addConfigOptions(cmd)).action(
    action(async (addresses: string[], _opts: unknown, command: Command) => {
      const { runOutput } = await import('../output/run-output.js');
      return runOutput(addresses, command.optsWithGlobals());
    }),
  );
}
