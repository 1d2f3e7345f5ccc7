// `dbform output [ADDR]...` at the terminal: the flags, the use case (src/app/output.ts), and the
// chosen format on stdout or in $GITHUB_OUTPUT.
import { appendFile } from 'node:fs/promises';
import { OUTPUT_KINDS, type Connection } from '../../app/connections.js';
import { readOutputs } from '../../app/output.js';
import { describeFileError } from '../../lockfile/index.js';
import { DbformError, nounOf } from '../../model/index.js';
import { appHost } from '../host.js';
import type { ApiOptions, ConfigOptions, GlobalOptions } from '../options.js';
import { configFiles } from '../options.js';
import { renderGithubOutput, renderOutputEnv, renderOutputJson, renderOutputText, type OutputFormat } from './render-output.js';
import { atCwd, cliProcess } from '../process.js';

export interface OutputFlags extends Partial<ConfigOptions>, ApiOptions, GlobalOptions {
  json?: boolean;
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

export async function runOutput(addresses: string[], flags: OutputFlags, env: NodeJS.ProcessEnv = cliProcess().env): Promise<number> {
  const format = chooseFormat(flags);
  const githubFile = format === 'github' ? env.GITHUB_OUTPUT : undefined;
  if (format === 'github' && !githubFile) {
    throw new DbformError('--format github appends to the file named by $GITHUB_OUTPUT, which is not set here; run it in a GitHub Actions step, or use --format env');
  }
  const files = configFiles(flags);
  const out = await readOutputs(
    { files, state: flags, addresses, withPassword: flags.withPassword === true, ...(flags.pgpass !== undefined ? { pgpass: flags.pgpass } : {}) },
    appHost(flags, files, env),
  );
  if (out.kind === 'nothing') {
    cliProcess().stderr.write(`note: ${out.files.join(', ')} has no ${OUTPUT_KINDS.map((k) => nounOf(k.kind)).join(' or ')}: there is nothing to output\n`);
    if (format === 'json') cliProcess().stdout.write('{}\n');
    return 0;
  }
  if (githubFile) await writeGithubOutput(githubFile, out.connections);
  else cliProcess().stdout.write(render(format, out.connections));
  return 0;
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
  for (const p of passwords) cliProcess().stdout.write(`::add-mask::${p}\n`);
  try {
    await appendFile(atCwd(path), text, 'utf8');
  } catch (err) {
    throw new DbformError(`cannot append to $GITHUB_OUTPUT (${path}): ${describeFileError(err)}`);
  }
  const count = connections.reduce((n, c) => n + c.fields.length, 0);
  cliProcess().stderr.write(`Wrote ${count} outputs of ${connections.map((c) => c.address).join(', ')} to $GITHUB_OUTPUT.\n`);
}
