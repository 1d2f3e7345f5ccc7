// `dbform mcp` (SPEC section 17): an MCP server whose tools are dbform commands. Each call: check
// the inputs, run the command through the runner, answer with what it printed (or its one-line
// refusal), write one history record naming the client, and take every known secret out of what
// is said. Everything outside (process, files, the state store) comes in through McpHost.
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { answerOf, refusal, type ToolAnswer } from './answer.js';
import { callRecord, type ClientInfo, type Operator } from './call-record.js';
import { InputError, type CallScope } from './inputs.js';
import type { DbformRunner } from './runner.js';
import { redact } from './secrets.js';
import { READ_TOOLS, scopeOf, WRITE_TOOL, type CommandParts, type ToolSpec } from './tools.js';
import type { HistoryRecord } from '../state/index.js';

/** The options dbform mcp was started with, given to every command it runs. */
export interface ServerDefaults {
  /** -f values (empty: the CLI's default, dbform.yaml). */
  files: string[];
  workspace?: string;
  /** Other config options (--state, --lockfile) as `--name=value` words, for every tool. */
  configFlags: string[];
  /** The API connection options, for the tools that read live resources. */
  apiFlags: string[];
}

/** A call's config files and workspace, the call's own or the server's. */
export interface ResolvedScope {
  files: string[];
  workspace?: string;
}

/** What the server learns of a call's scope: its state (for the record) and its secrets. */
export interface ScopeHandle {
  /** The workspace, resolved as the CLI resolves it. */
  workspace: string;
  /** Absent when no state could be opened (a config that cannot be loaded): the call goes unrecorded. */
  history?: { serial(): Promise<number>; append(record: HistoryRecord): Promise<void> };
  /** Why there is no history, when a state was looked for and not opened. */
  unrecorded?: string;
  /** Every secret value known for this scope, read when asked (an apply may have written new ones). */
  secrets(): Promise<string[]>;
  close(): Promise<void>;
}

export interface McpHost {
  runner: DbformRunner;
  /** The directory served: the files a caller names must be inside it. */
  root: string;
  version: string;
  defaults: ServerDefaults;
  allowApply: boolean;
  operator: Operator;
  /** `record: false`: the scope came from inputs that were refused, so nothing may be written. */
  openScope(scope: ResolvedScope, record: boolean): Promise<ScopeHandle>;
  /** Diagnostics of the server itself (stderr: stdout is the protocol). */
  log(line: string): void;
  now?(): Date;
}

/** No tool takes more than a few hundred values; a larger call is refused before it is parsed. */
const MAX_INPUT_ELEMENTS = 500;

const INSTRUCTIONS =
  'dbform keeps cloud database infrastructure in a YAML config. These tools read: validate, plan, drift, output (never a password), ' +
  'state_list, state_show, history, logs. Each answers with exactly what the dbform command prints with --json. ' +
  'Nothing here sends an operation of your choosing or writes a plan; apply_plan (only when the server runs with --allow-apply) ' +
  'applies a plan file that a person saved with `dbform plan --out` and reviewed, after dbform has verified it.';

export function createDbformMcpServer(host: McpHost): McpServer {
  const server = new McpServer({ name: 'dbform', version: host.version }, { instructions: INSTRUCTIONS, capabilities: { tools: {} }, maxToolInputElements: MAX_INPUT_ELEMENTS });
  const tools = host.allowApply ? [...READ_TOOLS, WRITE_TOOL] : READ_TOOLS;
  for (const spec of tools) {
    server.registerTool(
      spec.name,
      {
        title: spec.title,
        description: spec.description,
        inputSchema: spec.input,
        annotations: spec.write
          ? { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: true }
          : { readOnlyHint: true, openWorldHint: spec.api },
      },
      (args: Record<string, unknown>, extra) => {
        const client = server.server.getClientVersion();
        // An apply runs for minutes: its progress lines keep the client informed (and its timeout reset).
        const progress = spec.write ? extra._meta?.progressToken : undefined;
        let sent = 0;
        const onLine =
          progress === undefined
            ? undefined
            : (line: string, secrets: readonly string[]) =>
                void extra.sendNotification({ method: 'notifications/progress', params: { progressToken: progress, progress: ++sent, message: redact(line, secrets) } }).catch(() => undefined);
        return runTool(host, spec, args, { client: client ? { name: client.name, version: client.version } : undefined, signal: extra.signal, onLine });
      },
    );
  }
  return server;
}

export async function serveMcp(host: McpHost, transport: Transport): Promise<void> {
  const server = createDbformMcpServer(host);
  const closed = new Promise<void>((resolve) => {
    server.server.onclose = () => resolve();
  });
  await server.connect(transport);
  await closed;
}

interface CallContext {
  client: ClientInfo | undefined;
  signal: AbortSignal;
  onLine: ((line: string, secrets: readonly string[]) => void) | undefined;
}

async function runTool(host: McpHost, spec: ToolSpec, args: Record<string, unknown>, ctx: CallContext): Promise<ToolAnswer> {
  const now = () => host.now?.() ?? new Date();
  const startedAt = now();
  const checked = await checkInputs(host, spec, args);
  const scope = resolveScope(host.defaults, checked.scope);
  const handle = await host.openScope(scope, checked.scope !== undefined);
  if (handle.unrecorded !== undefined) host.log(`dbform mcp: this ${spec.name} call is not recorded in any history: ${handle.unrecorded}`);
  try {
    const serialBefore = await serialOf(host, handle);
    let answer: ToolAnswer;
    let exitCode = 1;
    if ('refused' in checked) answer = refusal(`error: ${checked.refused}`);
    else {
      const known = await handle.secrets();
      const onLine = ctx.onLine ? (line: string) => ctx.onLine!(line, known) : undefined;
      const result = await host.runner.run(argvOf(host.defaults, spec, checked.parts, checked.scope), { signal: ctx.signal, ...(onLine ? { onLine } : {}) });
      answer = answerOf(result, spec.answers, spec.name);
      exitCode = result.code;
    }
    const serialAfter = spec.write ? await serialOf(host, handle) : serialBefore;
    const outcome = { tool: spec.name, client: ctx.client, workspace: handle.workspace, operator: host.operator, startedAt, finishedAt: now(), exitCode, serialBefore, serialAfter };
    await handle.history?.append(callRecord(outcome)).catch((err: unknown) => host.log(`dbform mcp: could not record the ${spec.name} call in the history: ${messageOf(err)}`));
    const secrets = await handle.secrets();
    return { ...answer, content: answer.content.map((c) => ({ type: 'text' as const, text: redact(c.text, secrets) })) };
  } finally {
    await handle.close().catch(() => undefined);
  }
}

type Checked = { parts: CommandParts; scope: CallScope } | { refused: string; scope?: CallScope };

/** The inputs, checked: the command to run, or the one line that refuses them. */
async function checkInputs(host: McpHost, spec: ToolSpec, args: Record<string, unknown>): Promise<Checked> {
  let scope: CallScope | undefined;
  try {
    scope = await scopeOf(args, host.root);
    return { parts: await spec.build(args, host.root), scope };
  } catch (err) {
    if (err instanceof InputError) return { refused: err.message, ...(scope ? { scope } : {}) };
    throw err;
  }
}

function resolveScope(defaults: ServerDefaults, scope: CallScope | undefined): ResolvedScope {
  const workspace = scope?.workspace ?? defaults.workspace;
  return { files: scope?.files ?? defaults.files, ...(workspace !== undefined ? { workspace } : {}) };
}

/** The command, the server's options, the tool's flags, then `--` and the positionals. */
export function argvOf(defaults: ServerDefaults, spec: ToolSpec, parts: CommandParts, scope: CallScope): string[] {
  const { files, workspace } = resolveScope(defaults, scope);
  const global = [...files.map((f) => `--file=${f}`), ...(workspace !== undefined ? [`--workspace=${workspace}`] : []), ...defaults.configFlags, ...(spec.api ? defaults.apiFlags : [])];
  return [...parts.command, ...global, ...parts.flags, ...(parts.positionals.length > 0 ? ['--', ...parts.positionals] : [])];
}

async function serialOf(host: McpHost, handle: ScopeHandle): Promise<number> {
  try {
    return (await handle.history?.serial()) ?? 0;
  } catch (err) {
    host.log(`dbform mcp: could not read the state's serial: ${messageOf(err)}`);
    return 0;
  }
}

const messageOf = (err: unknown): string => (err instanceof Error ? err.message : String(err));
