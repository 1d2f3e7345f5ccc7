// `dbform output [ADDR]...` (SPEC section 11): config -> state -> one live read (2 + V requests)
// -> the connection of each address, printed in the chosen format. Nothing is printed unless
// every address resolves: a CI step never gets half of its variables, or another resource's.
import { appendFile } from 'node:fs/promises';
import { describeFileError } from '../../lockfile/index.js';
import { DbformError, nounOf } from '../../model/index.js';
import { managedParents } from '../../planner/index.js';
import { readWithJournal } from '../../state/journal-push.js';
import type { ApiOptions, GlobalOptions } from '../options.js';
import { readLive } from '../plan-pipeline.js';
import { openJournal } from '../state-context.js';
import { withStateCommand, type StateCommandFlags } from '../state-commands/context.js';
import { chooseTargets, OUTPUT_KINDS, resolveConnections, type Connection } from './connections.js';
import { withPasswords } from './passwords.js';
import { renderGithubOutput, renderOutputEnv, renderOutputJson, renderOutputText, type OutputFormat } from './render-output.js';

export interface OutputFlags extends StateCommandFlags, ApiOptions, GlobalOptions {
  format?: OutputFormat;
  withPassword?: boolean;
  pgpass?: string;
}

function chooseFormat(flags: OutputFlags): OutputFormat {
  if (flags.json && flags.format !== undefined && flags.format !== 'json') {
    throw new DbformError(`--json and --format ${flags.format} contradict each other; use one`);
  }
  return flags.json ? 'json' : (flags.format ?? 'text');
}

/** Several problems: one `error:` line each (reportError prefixes the first). */
const problemsError = (problems: string[]) => new DbformError(problems.join('\nerror: '));

export async function runOutput(addresses: string[], flags: OutputFlags, env: NodeJS.ProcessEnv = process.env): Promise<number> {
  const format = chooseFormat(flags);
  const githubFile = format === 'github' ? env.GITHUB_OUTPUT : undefined;
  if (format === 'github' && !githubFile) {
    throw new DbformError('--format github appends to the file named by $GITHUB_OUTPUT, which is not set here; run it in a GitHub Actions step, or use --format env');
  }
  return withStateCommand(flags, async ({ files, desired, store }) => {
    const chosen = chooseTargets(desired, addresses);
    if (!chosen.ok) throw problemsError(chosen.problems);
    if (chosen.targets.length === 0) {
      process.stderr.write(`note: ${desired.files.join(', ')} has no ${OUTPUT_KINDS.map((k) => nounOf(k.kind)).join(' or ')}: there is nothing to output\n`);
      if (format === 'json') process.stdout.write('{}\n');
      return 0;
    }
    const { snapshot } = await readWithJournal(store, openJournal(files));
    const live = await readLive(flags, files, desired.projectId, managedParents(desired, snapshot.lockfile));
    const resolved = resolveConnections(chosen.targets, snapshot.lockfile, live, { workspace: store.workspace, location: store.location, projectId: desired.projectId });
    if (!resolved.ok) throw problemsError(resolved.problems);
    const connections = flags.withPassword ? withPasswords(resolved.connections, env, flags.pgpass) : resolved.connections;
    if (githubFile) await writeGithubOutput(githubFile, connections);
    else process.stdout.write(render(format, connections));
    return 0;
  });
}

function render(format: OutputFormat, connections: Connection[]): string {
  if (format === 'json') return renderOutputJson(connections);
  if (format === 'env') return renderOutputEnv(connections);
  return renderOutputText(connections);
}

/** The masks first, on stdout where the runner reads them, then the values into the file. */
async function writeGithubOutput(path: string, connections: Connection[]): Promise<void> {
  const text = renderGithubOutput(connections);
  const passwords = [...new Set(connections.flatMap((c) => c.fields.filter((f) => f.name === 'password').map((f) => String(f.value))))];
  for (const p of passwords) process.stdout.write(`::add-mask::${p}\n`);
  try {
    await appendFile(path, text, 'utf8');
  } catch (err) {
    throw new DbformError(`cannot append to $GITHUB_OUTPUT (${path}): ${describeFileError(err)}`);
  }
  const count = connections.reduce((n, c) => n + c.fields.length, 0);
  process.stderr.write(`Wrote ${count} outputs of ${connections.map((c) => c.address).join(', ')} to $GITHUB_OUTPUT.\n`);
}
