// `dbform import ADDR ID`: bind an existing resource to a config address in the state.
// Heavy modules (client, config, lockfile) are loaded inside the action.
import type { Command } from 'commander';
import { addressForms } from '../../model/address.js';
import { action } from '../errors.js';
import { addApiOptions, addConfigOptions, addLockTimeoutOption, configFiles, type ApiOptions, type GlobalOptions } from '../options.js';
import { cliProcess } from '../process.js';

interface ImportFlags extends ApiOptions, GlobalOptions {
  file?: string[];
  lockfile?: string;
  state?: string;
  workspace?: string;
  lockTimeout?: string;
  force?: boolean;
}

const HELP = `
ADDR is one of ${addressForms('snake').replace(' or ', ' or\n')}, and must already be in the config (a typo cannot bind an ID
to nonsense). ID must be a live resource of that kind; one whose address starts with another
resource's key must belong to that resource (found through the state, else by its unique
name), and be the one its address names.

An ID already bound to another address is refused. An address already bound to another ID is
refused unless --force (the old resource stays live, unmanaged). The state is written under
its lock (a lockfile atomically); nothing in the cloud changes. Run \`dbform plan\` afterwards.

Example: dbform import service.billing kd9w2xp4mz
`;

export function registerImport(program: Command): void {
  const cmd = program
    .command('import')
    .description('bind an existing resource to a config address in the state (the lockfile or PostgreSQL)')
    .argument('<address>', 'config address, e.g. service.billing')
    .argument('<id>', 'ID of the live resource')
    .option('--force', 'rebind an address that the state already binds to another ID')
    .addHelpText('after', HELP);
  addLockTimeoutOption(addApiOptions(addConfigOptions(cmd))).action(
    action(async (address: string, id: string, _opts: ImportFlags, command: Command) => {
      const flags = command.optsWithGlobals<ImportFlags>();
      const files = configFiles(flags);
      const { parseDuration } = await import('../../executor/duration.js');
      const { DbformError } = await import('../../model/errors.js');
      const lockTimeoutMs = parseDuration(flags.lockTimeout ?? '0');
      if (lockTimeoutMs === undefined) throw new DbformError(`--lock-timeout must be a duration such as 5m, 90s, or 0 (got "${flags.lockTimeout}")`);
      const { importResource } = await import('../../app/import.js');
      const { appHost } = await import('../host.js');
      await importResource(
        { files, state: flags, address, id, force: flags.force === true, lockTimeoutMs, print: (line) => void cliProcess().stdout.write(`${line}\n`) },
        appHost(flags, files),
      );
    }),
  );
}
