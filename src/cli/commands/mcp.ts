// `dbform mcp [--allow-apply]` (SPEC section 17): the Model Context Protocol over stdio, for an
// assistant. The server (src/mcp) gets from here all it needs of this process: stdin and stdout
// (the protocol, and nothing else is written to stdout), the directory and environment its
// commands run with, the options it was started with, and the state each call is recorded in.
import { dirname, resolve } from 'node:path';
import type { Command } from 'commander';
import type { McpHost, ResolvedScope, ScopeHandle, ServerDefaults } from '../../mcp/server.js';
import { action } from '../errors.js';
import { addApiOptions, addConfigOptions, type ApiOptions, type ConfigOptions } from '../options.js';
import { cliProcess, runDirectory } from '../process.js';

interface McpFlags extends Partial<ConfigOptions>, ApiOptions {
  allowApply?: boolean;
}

const HELP = `
Tools (read-only): validate, plan (json or markdown), drift, output (never a password),
state_list, state_show, history, logs. Each answers with exactly what the dbform command prints
with --json; a refusal is an error result with the one line the command printed.
--allow-apply adds one tool, apply_plan: \`dbform apply PLAN --auto-approve\` of a plan file that a
person saved with \`dbform plan --out PLAN\`, which dbform verifies first (an edited or stale plan is
refused). No tool sends another operation or writes a plan file.
Every call is recorded in the history of the state it is about, with the client's name.
The server runs in the directory of the first -f file (else the current one); the files a tool
names must be inside it. The options above are given to every command the tools run; a tool's
workspace and files inputs replace --workspace and -f for that call.

A client configuration (Claude Desktop and other MCP clients):
  {"mcpServers": {"dbform": {"command": "dbform", "args": ["mcp"], "env": {"DBFORM_API_KEY": "..."}}}}
`;

export function registerMcp(program: Command): void {
  const cmd = program
    .command('mcp')
    .description('serve the Model Context Protocol on stdio for an assistant: read-only tools, and with --allow-apply the apply of a verified saved plan')
    .option('--allow-apply', 'add the one write tool: apply a plan file saved with `dbform plan --out` (verified before anything runs)')
    .addHelpText('after', HELP);
  addApiOptions(addConfigOptions(cmd)).action(
    action(async (_opts: unknown, command: Command) => {
      const flags = command.optsWithGlobals<McpFlags>();
      // The API URL may come from DBFORM_API_URL, which the commands get anyway: pass only a flag.
      const apiUrlFlag = command.getOptionValueSource('apiUrl') === 'cli' ? flags.apiUrl : undefined;
      return runMcp(flags, apiUrlFlag);
    }),
  );
}

async function runMcp(given: McpFlags, apiUrlFlag: string | undefined): Promise<number> {
  const { checkStateFlag } = await import('../../app/state-choice.js');
  const { workspaceOf } = await import('../../app/context.js');
  checkStateFlag(given);
  const proc = cliProcess();
  if (given.workspace !== undefined) workspaceOf(given, proc.env);
  // The directory served is the project's: the first config file's (a client such as Claude
  // Desktop starts servers in a directory of its own), else this one. The server and its commands
  // run there, so a relative path means the same to all of them.
  const flags = withAbsolutePaths(given, proc.cwd());
  proc.chdir(flags.file?.[0] !== undefined ? dirname(flags.file[0]) : proc.cwd());
  // Nothing but the protocol may reach stdout: a stray console.log of any module goes to stderr.
  console.log = console.info = console.debug = console.error;
  const { StdioServerTransport } = await import('@modelcontextprotocol/sdk/server/stdio.js');
  const { serveMcp } = await import('../../mcp/server.js');
  const host = await makeHost(flags, apiUrlFlag);
  const transport = new StdioServerTransport(proc.stdin, proc.stdout);
  proc.stdin.once('end', () => void transport.close());
  proc.stdout.on('error', () => void transport.close());
  await serveMcp(host, transport);
  return 0;
}

function withAbsolutePaths(flags: McpFlags, cwd: string): McpFlags {
  const out: McpFlags = { ...flags };
  if (flags.file) out.file = flags.file.map((f) => resolve(cwd, f));
  if (flags.lockfile !== undefined) out.lockfile = resolve(cwd, flags.lockfile);
  if (flags.apiKeyFile !== undefined) out.apiKeyFile = resolve(cwd, flags.apiKeyFile);
  if (flags.state?.startsWith('file:') && !flags.state.startsWith('file://')) out.state = `file:${resolve(cwd, flags.state.slice('file:'.length))}`;
  return out;
}

function serverDefaults(flags: McpFlags, apiUrlFlag: string | undefined): ServerDefaults {
  const configFlags = [...(flags.state !== undefined ? [`--state=${flags.state}`] : []), ...(flags.lockfile !== undefined ? [`--lockfile=${flags.lockfile}`] : [])];
  const apiFlags = [
    ...(apiUrlFlag !== undefined ? [`--api-url=${apiUrlFlag}`] : []),
    ...(flags.apiKeyFile !== undefined ? [`--api-key-file=${flags.apiKeyFile}`] : []),
    ...(flags.emulator ? ['--emulator'] : []),
    ...(flags.allowInsecureHttp ? ['--allow-insecure-http'] : []),
  ];
  return { files: flags.file ?? [], ...(flags.workspace !== undefined ? { workspace: flags.workspace } : {}), configFlags, apiFlags };
}

/**
 * The commands run with this process's environment, less what would change how they print: no
 * colours, and never --debug's stack traces (DBFORM_DEBUG).
 */
function commandEnv(): Record<string, string | undefined> {
  const { DBFORM_DEBUG: _debug, FORCE_COLOR: _force, ...env } = cliProcess().env;
  return { ...env, NO_COLOR: '1' };
}

async function makeHost(flags: McpFlags, apiUrlFlag: string | undefined): Promise<McpHost> {
  // `log` is called as requests come in, outside this function's context: it keeps its process.
  const proc = cliProcess();
  const cwd = runDirectory();
  const { fileURLToPath } = await import('node:url');
  const { SpawnRunner } = await import('../../mcp/runner.js');
  const { describeHolder } = await import('../../state/index.js');
  const { thisProcess } = await import('../local-process.js');
  const { VERSION } = await import('../version.js');
  const env = commandEnv();
  const binPath = fileURLToPath(new URL('../../../bin/dbform.js', import.meta.url));
  const { user, host, ciRun } = describeHolder(thisProcess(), proc.env, 'dbform mcp');
  const { redact, collectSecrets } = await import('../../mcp/secrets.js');
  const { resolvePgpassPath } = await import('../../executor/pgpass.js');
  const serverSecrets = () => collectSecrets({ env, passwordEnv: [], stateUrls: [flags.state ?? '', env.DBFORM_STATE ?? ''], keyFiles: flags.apiKeyFile ? [flags.apiKeyFile] : [], pgpassFiles: [resolvePgpassPath(undefined, env)] });
  return {
    runner: new SpawnRunner({ execPath: proc.execPath, binPath, cwd: proc.cwd(), env }),
    root: proc.cwd(),
    version: VERSION,
    defaults: serverDefaults(flags, apiUrlFlag),
    allowApply: flags.allowApply === true,
    operator: { user, host, ciRun },
    openScope: (scope, record) => openScope(flags, env, scope, record, serverSecrets, cwd),
    log: (line) => void serverSecrets().then((secrets) => proc.stderr.write(`${redact(line, secrets)}\n`)),
  };
}

/**
 * The call's config, loaded as its command loads it: the state it selects (where the record goes)
 * and the passwords it names (password.from_env, a password in `state:`). A config that cannot be
 * loaded selects no state: the call is answered (the command says what is wrong) but not recorded.
 */
async function openScope(
  flags: McpFlags,
  env: Record<string, string | undefined>,
  scope: ResolvedScope,
  record: boolean,
  serverSecrets: () => Promise<string[]>,
  cwd: string | undefined,
): Promise<ScopeHandle> {
  const { readConfig, workspaceOf } = await import('../../app/context.js');
  const { openStateStore } = await import('../../app/state-choice.js');
  const { collectSecrets } = await import('../../mcp/secrets.js');
  const { configFiles } = await import('../options.js');
  const { thisProcess } = await import('../local-process.js');
  const files = configFiles({ file: scope.files });
  let workspace = 'default';
  try {
    workspace = workspaceOf({ ...(scope.workspace !== undefined ? { workspace: scope.workspace } : {}) }, env);
  } catch {
    record = false; // DBFORM_WORKSPACE names no valid workspace: the command refuses, and no state is open
  }
  const loaded = await readConfig(files, { env, cwd }, workspace).catch(() => undefined);
  const desired = loaded?.ok ? loaded.value : undefined;
  const passwordEnv = desired?.services.flatMap((s) => (s.password ? [s.password.fromEnv] : [])) ?? [];
  const own = () => collectSecrets({ env, passwordEnv, stateUrls: desired?.state ? [desired.state.value] : [], keyFiles: [], pgpassFiles: [] });
  const secrets = async () => [...(await serverSecrets()), ...(await own())];
  const none = { workspace, secrets, close: async () => undefined };
  if (!record) return none;
  if (desired === undefined) return { ...none, unrecorded: `its config (${files.join(', ')}) could not be loaded, so it names no state` };
  const state = { ...(flags.state !== undefined ? { state: flags.state } : {}), ...(flags.lockfile !== undefined ? { lockfile: flags.lockfile } : {}), workspace };
  try {
    const store = openStateStore({ flags: state, env, cwd, owner: thisProcess(), files, projectId: desired.projectId, workspace, ...(desired.state ? { configState: desired.state } : {}) });
    const history = { serial: async () => (await store.read()).lockfile.serial ?? 0, append: (r: Parameters<typeof store.appendHistory>[0]) => store.appendHistory({ state: store.location, ...r }) };
    return { workspace, history, secrets, close: () => store.close() };
  } catch (err) {
    return { ...none, unrecorded: (err as Error).message };
  }
}
