// The tools of `dbform mcp` (SPEC section 17): each one is a dbform command and its flags, built
// from checked inputs. Read-only ones only, but for `apply_plan`, which the server lists only with
// --allow-apply and which applies nothing but a saved plan file that the CLI verifies (section 3).
// No tool writes a plan file (no --out), reads a password (no --with-password) or sends an
// operation of the caller's choosing.
import { z } from 'zod';
import { KINDS } from '../kinds/index.js';
import { addressForm, KIND_NOUNS } from '../model/index.js';
import { checkAddress, checkCount, checkLimit, checkNode, checkProjectFile, checkService, checkSeverity, checkTime, checkWord, checkWorkspace, type CallScope } from './inputs.js';

/** A command line in parts: the server puts its own options between `flags` and `positionals`. */
export interface CommandParts {
  command: string[];
  flags: string[];
  positionals: string[];
}

export interface ToolSpec {
  name: string;
  title: string;
  description: string;
  input: z.ZodObject;
  /** Reads the live resources, so it takes the API connection options. */
  api: boolean;
  /** Changes live resources and the state: listed only with --allow-apply. */
  write: boolean;
  /** Exit codes whose stdout is the answer; any other is a refusal or failure. */
  answers: readonly number[];
  /** The command for these inputs (the scope inputs are scopeOf's); InputError when one is bad. */
  build(input: Record<string, unknown>, root: string): Promise<CommandParts>;
}

const MAX_LOG_LINES = 1000;
const MAX_HISTORY = 500;

const scopeShape = {
  workspace: z.string().optional().describe('the workspace whose state to use (default: the one dbform mcp was started with, else DBFORM_WORKSPACE, else "default")'),
  files: z.array(z.string()).optional().describe('config files, as -f takes them, inside the directory dbform mcp serves (default: the ones it was started with, else dbform.yaml)'),
};
const formatShape = { format: z.enum(['json', 'markdown']).optional().describe('json (default: exactly what --json prints) or markdown (the pull-request comment)') };

type Input<S extends z.ZodRawShape> = z.infer<z.ZodObject<S>>;

interface Definition<S extends z.ZodRawShape> extends Omit<ToolSpec, 'input' | 'build'> {
  shape: S;
  build(input: Input<S & typeof scopeShape>, root: string): Promise<CommandParts>;
}

/** Every tool takes the scope inputs; an input it does not declare is refused, never ignored. */
function defineTool<S extends z.ZodRawShape>(d: Definition<S>): ToolSpec {
  const { shape, build, ...rest } = d;
  return {
    ...rest,
    input: z.strictObject({ ...scopeShape, ...shape }),
    build: (input, root) => build(input as Input<S & typeof scopeShape>, root),
  };
}

/** The config files and workspace a call names (inputs every tool takes), checked. */
export async function scopeOf(input: { workspace?: unknown; files?: unknown }, root: string): Promise<CallScope> {
  const scope: CallScope = {};
  if (typeof input.workspace === 'string') scope.workspace = checkWorkspace(input.workspace);
  if (Array.isArray(input.files) && input.files.length > 0) {
    checkCount('files', input.files, 20);
    scope.files = [];
    for (const f of input.files as string[]) scope.files.push(await checkProjectFile('files', f, root, ['.yaml', '.yml']));
  }
  return scope;
}

const formatFlags = (format: 'json' | 'markdown' | undefined): string[] => (format === 'markdown' ? ['--format=markdown'] : ['--json']);

const validate = defineTool({
  name: 'validate',
  title: 'Validate the config',
  description: 'Checks the config files without the network: the JSON of `dbform validate --json` ({valid, errors with file:line:col, warnings, summary}).',
  shape: {},
  api: false,
  write: false,
  answers: [0, 1],
  build: async () => ({ command: ['validate'], flags: ['--json'], positionals: [] }),
});

const plan = defineTool({
  name: 'plan',
  title: 'Plan',
  description:
    'What `dbform apply` would change, reading the live resources and changing nothing: exactly what `dbform plan --json` prints (or --format markdown). ' +
    'A blocked plan is still a plan (its blocked actions say why). It saves no plan file: a person makes the plan that gets applied.',
  shape: { ...formatShape, target: z.array(z.string()).optional().describe('plan only these addresses and what they depend on (--target)') },
  api: true,
  write: false,
  answers: [0, 3],
  build: async (input) => {
    checkCount('target', input.target ?? [], 50);
    const targets = (input.target ?? []).map((a) => `--target=${checkAddress('target', a)}`);
    return { command: ['plan'], flags: [...formatFlags(input.format), ...targets], positionals: [] };
  },
});

const drift = defineTool({
  name: 'drift',
  title: 'Changes made outside dbform',
  description: 'Each live field that differs from what dbform last applied, changing nothing: exactly what `dbform plan --refresh-only --json` prints (or --format markdown).',
  shape: formatShape,
  api: true,
  write: false,
  answers: [0],
  build: async (input) => ({ command: ['plan'], flags: ['--refresh-only', ...formatFlags(input.format)], positionals: [] }),
});

/** The kinds `dbform output` connects to. */
const CONNECTING = KINDS.filter((k) => k.output !== undefined).map((k) => k.kind);

const output = defineTool({
  name: 'output',
  title: 'Connection details',
  description:
    `How to connect to the managed ${CONNECTING.map((k) => KIND_NOUNS[k].many).join(' and ')} (host, port, their other endpoints while open, database, user, uri): exactly what \`dbform output --json\` prints. Never a password.`,
  shape: { addresses: z.array(z.string()).optional().describe(`${CONNECTING.map((k) => addressForm(k, 'snake')).join(' or ')} (default: all of the config)`) },
  api: true,
  write: false,
  answers: [0],
  build: async (input) => {
    checkCount('addresses', input.addresses ?? [], 100);
    return { command: ['output'], flags: ['--json'], positionals: (input.addresses ?? []).map((a) => checkAddress('addresses', a)) };
  },
});

const stateList = defineTool({
  name: 'state_list',
  title: 'Bindings in the state',
  description: 'Address, kind, ID and protect of every binding of the workspace: exactly what `dbform state list --json` prints.',
  shape: {},
  api: false,
  write: false,
  answers: [0],
  build: async () => ({ command: ['state', 'list'], flags: ['--json'], positionals: [] }),
});

const stateShow = defineTool({
  name: 'state_show',
  title: 'One binding and its live resource',
  description: 'One binding and the live resource it names: exactly what `dbform state show ADDRESS --json` prints.',
  shape: { address: z.string().describe('e.g. service.metrics') },
  api: true,
  write: false,
  answers: [0],
  build: async (input) => ({ command: ['state', 'show'], flags: ['--json'], positionals: [checkAddress('address', input.address)] }),
});

const history = defineTool({
  name: 'history',
  title: 'History',
  description: `The records of this workspace (applies, destroys, state edits, calls of these tools), newest first: exactly what \`dbform history --json --limit N\` prints.`,
  shape: { limit: z.number().int().optional().describe(`at most this many records, 1-${MAX_HISTORY} (default 20)`) },
  api: false,
  write: false,
  answers: [0],
  build: async (input) => ({ command: ['history'], flags: ['--json', `--limit=${checkLimit('limit', input.limit ?? 20, MAX_HISTORY)}`], positionals: [] }),
});

const logs = defineTool({
  name: 'logs',
  title: 'Service logs',
  description: 'Log lines of a service, newest first: exactly what `dbform logs SERVICE --json` prints (one JSON object per line: timestamp, severity, message).',
  shape: {
    service: z.string().describe('service.KEY (resolved through the state) or a service ID'),
    since: z.string().optional().describe('only lines after this time: RFC 3339 or an age such as 15m, 2h, 7d'),
    until: z.string().optional().describe('only lines before this time (same forms as since)'),
    severity: z.array(z.string()).optional().describe('only these levels, e.g. ERROR, WARNING, LOG'),
    search: z.array(z.string()).optional().describe('only lines containing every one of these words'),
    node: z.number().int().optional().describe('only this node of a multi-node service'),
    limit: z.number().int().optional().describe(`at most this many lines, 1-${MAX_LOG_LINES} (default 100)`),
  },
  api: true,
  write: false,
  answers: [0],
  build: async (input) => {
    const flags = ['--json', `--limit=${checkLimit('limit', input.limit ?? 100, MAX_LOG_LINES)}`];
    if (input.since !== undefined) flags.push(`--since=${checkTime('since', input.since)}`);
    if (input.until !== undefined) flags.push(`--until=${checkTime('until', input.until)}`);
    checkCount('severity', input.severity ?? [], 13);
    for (const s of input.severity ?? []) flags.push(`--severity=${checkSeverity(s)}`);
    checkCount('search', input.search ?? [], 10);
    for (const w of input.search ?? []) flags.push(`--search=${checkWord('search', w)}`);
    if (input.node !== undefined) flags.push(`--node=${checkNode(input.node)}`);
    return { command: ['logs'], flags, positionals: [checkService(input.service)] };
  },
});

const applyPlan = defineTool({
  name: 'apply_plan',
  title: 'Apply a saved plan',
  description:
    'Applies a plan file that a person saved with `dbform plan --out PLAN` and reviewed: `dbform apply PLAN --auto-approve`. ' +
    'dbform verifies it first (the same state lineage, the same config files, the resources it touches unchanged, and planning again gives exactly its actions); ' +
    'an edited or stale plan file is refused and nothing changes.',
  shape: { plan_file: z.string().describe('the saved plan file, inside the directory dbform mcp serves') },
  api: true,
  write: true,
  answers: [0],
  build: async (input, root) => ({ command: ['apply'], flags: ['--auto-approve'], positionals: [await checkProjectFile('plan_file', input.plan_file, root)] }),
});

export const READ_TOOLS: readonly ToolSpec[] = [validate, plan, drift, output, stateList, stateShow, history, logs];
export const WRITE_TOOL: ToolSpec = applyPlan;
