// `dbform output [ADDR]...`: how to connect to each managed service and replica set (SPEC section 11).
import { Option, type Command } from 'commander';
import { action } from '../errors.js';
import { addApiOptions, addConfigOptions } from '../options.js';

const HELP = `
Fields: host, port, pooler_host/pooler_port (while the pooler is enabled), vpc_host/vpc_port
(while attached to a VPC), database (tsdb), user (tsdbadmin), uri (no password), and with
--with-password the password. Values come only from the live resource each address is bound to
in the state (workspace --workspace): an address that is not bound, whose resource is gone or
not READY, is an error and nothing is printed.

Formats:
  text (default)  one block per address
  --json          {"service.app": {"host": ..., "port": 5432, ...}}
  --format env    DBFORM_<KEY>_<FIELD>=value lines for a shell (eval, or source a file):
                  the key upper-cased with - as _; a value the shell would interpret is
                  single-quoted
  --format github appends <key>_<field>=value to the file $GITHUB_OUTPUT (step outputs)
A replica set's key is <service key>__<replica set key> (two underscores; keys have none), e.g.
DBFORM_APP__READ_HOST or app__read_host.

--with-password reads the password from the config's password.from_env, else from the pgpass
file that apply writes (--pgpass PATH, else PGPASSFILE, else ~/.pgpass); never from the API.
With --format github, "::add-mask::<password>" is printed on stdout first so the runner hides it.
`;

export function registerOutput(program: Command): void {
  const cmd = program
    .command('output')
    .description('print how to connect to the managed services and replica sets (host, port, pooler, VPC endpoint, uri)')
    .argument('[address...]', 'service.KEY or replica_set.SERVICE.KEY (default: all of the config)')
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
