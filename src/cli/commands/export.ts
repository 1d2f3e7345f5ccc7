// `dbform export`: today's live infrastructure as YAML + lockfile, planning to zero changes.
// Heavy modules (client, export, config, planner) are loaded inside the action.
import type { Command } from 'commander';
import { KIND_NOUNS } from '../../model/address.js';
import { DbformError } from '../../model/errors.js';
import { action } from '../errors.js';
import { addApiOptions, stateOption, workspaceOption, type ApiOptions, type GlobalOptions } from '../options.js';
import { cliProcess } from '../process.js';

/** `VPCs, ... and services ...`: every kind, as the export writes them. */
function livePlurals(): string {
  const all = Object.values(KIND_NOUNS).map((n) => n.many);
  return `${all.slice(0, -1).join(', ')} and ${all.at(-1)}`;
}

interface ExportFlags extends ApiOptions, GlobalOptions {
  project?: string;
  allProjects?: boolean;
  output?: string;
  lockfile?: string;
  state?: string;
  workspace?: string;
  force?: boolean;
  check?: boolean;
}

/** --state or DBFORM_STATE: the bindings go to that store (workspace --workspace) instead of a lockfile file. */
const stateUrlOf = (flags: ExportFlags): string | undefined => flags.state ?? (cliProcess().env.DBFORM_STATE || undefined);

const HELP = `
Output:
  -o FILE          writes the YAML to FILE and the lockfile beside it (dbform.lock.json), or
                   to --lockfile PATH.
  --lockfile PATH  without -o: the YAML goes to stdout and the lockfile to PATH.
  --all-projects -o DIR
                   one directory per project: DIR/<project-id>/dbform.yaml and its lockfile
                   DIR/<project-id>/dbform.lock.json (plan one with: dbform plan -f DIR/<id>/dbform.yaml).
  --state URL      (or DBFORM_STATE) the bindings go to that state (postgres://... or file:PATH),
                   in workspace --workspace (default "default"), instead of a lockfile file.
  One of -o, --lockfile and a state is required: an export without its bindings would not plan to zero.

--check -o FILE  writes nothing (no YAML, no lockfile): prints a unified diff from FILE to what
                 export would write, exit 0 when they are the same, 2 when they differ (a
                 scheduled job can catch changes made outside the config). Keys come from the
                 lockfile beside FILE, or the state, as a real export keeps them.

Project: a token that sees one project exports it; with several, pass --project ID or
--all-projects.

Existing files are never overwritten silently:
  - the YAML file: left alone when it already holds this export, else needs --force;
  - the lockfile: its keys are reused (a re-export keeps your addresses), its password versions
    and protect flags kept; if this export would drop or rebind any binding it holds (or it is
    of another project, or unreadable), export refuses and lists them, unless --force.

Keys come from names: lowercased, accents folded, other characters turned into "-", a "svc-",
"vpc-" or "rs-" prefix when the name does not start with a letter, at most 63 characters; names
that collide get -2, -3, ... (a name that already is a valid key keeps it). \`name:\` is written
when it differs from the key. Services being deleted, and resources the config cannot hold
(duplicate names, overlapping VPC blocks) are listed as not exported. No secret is exported:
a commented \`# password:\` line shows where one would go.

The $schema comment points at the schema of this dbform by a relative path when it lies in the
same project as the output (e.g. node_modules/dbform), else at the schema's URL.
With --emulator, export reads the world in .dbform/ of the current directory: the one
\`dbform apply --emulator\` keeps beside a dbform.yaml there.
`;

function checkFlags(flags: ExportFlags): void {
  if (flags.check) {
    if (flags.allProjects) throw new DbformError('--check compares one file: use it with --project ID -o FILE, not --all-projects');
    if (flags.output === undefined) throw new DbformError('--check needs -o FILE: the file to compare with what export would write');
    return;
  }
  if (flags.allProjects) {
    if (flags.project !== undefined) throw new DbformError('--project and --all-projects contradict each other; use one');
    if (flags.output === undefined) throw new DbformError('--all-projects needs -o DIR: it writes DIR/<project-id>/dbform.yaml and dbform.lock.json for each project');
    if (flags.lockfile !== undefined) throw new DbformError('--lockfile cannot be used with --all-projects: each lockfile is DIR/<project-id>/dbform.lock.json');
  } else if (flags.output === undefined && flags.lockfile === undefined && stateUrlOf(flags) === undefined) {
    throw new DbformError('export writes YAML and a lockfile: give -o FILE (the lockfile goes beside it as dbform.lock.json), or --lockfile PATH to print the YAML on stdout');
  }
}

async function runExportCommand(flags: ExportFlags): Promise<number> {
  checkFlags(flags);
  const { checkProjectIdFlag } = await import('../../model/project-id.js');
  if (flags.project !== undefined) checkProjectIdFlag(flags.project, '--project');
  const { checkStateFlag } = await import('../../app/state-choice.js');
  const { workspaceOf } = await import('../../app/context.js');
  const { exportLive } = await import('../../app/export.js');
  const { appHost } = await import('../host.js');
  checkStateFlag(flags);
  const url = stateUrlOf(flags);
  // No config file: the emulator world is the current directory's, as for every other command.
  return exportLive(
    {
      ...(flags.project !== undefined ? { project: flags.project } : {}),
      allProjects: flags.allProjects === true,
      ...(flags.output !== undefined ? { output: flags.output } : {}),
      ...(flags.lockfile !== undefined ? { lockfile: flags.lockfile } : {}),
      force: flags.force === true,
      check: flags.check === true,
      ...(url !== undefined ? { stateUrl: url } : {}),
      workspace: workspaceOf(flags, cliProcess().env),
      print: (text) => void cliProcess().stdout.write(text),
    },
    appHost(flags, undefined),
  );
}

export function registerExport(program: Command): void {
  const cmd = program
    .command('export')
    .description(`write the live ${livePlurals()} as YAML + lockfile; \`plan\` right after shows no changes`)
    .option('--project <id>', 'the project to export (needed when the token sees several)')
    .option('--all-projects', 'export every project the token sees (needs -o DIR)')
    .option('-o, --output <path>', 'YAML file to write (the lockfile goes beside it); with --all-projects a directory of <project-id>/dbform.yaml')
    .option('--lockfile <path>', 'lockfile path (default: dbform.lock.json beside -o FILE)')
    .option('--force', 'overwrite an existing YAML file that differs, or a lockfile whose bindings this export would drop')
    .option('--check', 'write nothing: print a unified diff of -o FILE against what export would write (exit 0 same, 2 different)')
    .addOption(stateOption())
    .addOption(workspaceOption())
    .addHelpText('after', HELP);
  addApiOptions(cmd).action(action(async (_opts: ExportFlags, command: Command) => runExportCommand(command.optsWithGlobals<ExportFlags>())));
}
