import { Option, type Command } from 'commander';
import { DbformError } from '../../model/errors.js';
import { parseAddress } from '../../model/address.js';
import { checkProjectIdFlag } from '../../model/project-id.js';
import { parseRfc3339 } from '../../model/rfc3339.js';
import { terminalJson, terminalLine } from '../../model/terminal-text.js';
import { action } from '../errors.js';
import { addApiOptions, addConfigOptions, configFiles, type ApiOptions, type ConfigOptions, type GlobalOptions } from '../options.js';
import type { LogsQueryDto } from '../../api/dto.js';
import { cliProcess } from '../process.js';

interface LogsFlags extends ApiOptions, GlobalOptions, Partial<ConfigOptions> {
  since?: string;
  until?: string;
  severity?: string[];
  search?: string[];
  node?: string;
  limit: string;
  json?: boolean;
  project?: string;
}

/** PostgreSQL levels the API filters on. */
export const SEVERITIES = ['DEBUG', 'DEBUG1', 'DEBUG2', 'DEBUG3', 'DEBUG4', 'DEBUG5', 'INFO', 'NOTICE', 'WARNING', 'ERROR', 'LOG', 'FATAL', 'PANIC'];

const collect = (value: string, previous: string[] | undefined): string[] => [...(previous ?? []), value];

export function registerLogs(program: Command): void {
  const cmd = program
    .command('logs')
    .description('print the logs of a service, newest first')
    .argument('<service>', 'a service address (service.<key>, resolved through the state) or a service ID')
    .option('--since <time>', 'only logs after this time: RFC 3339 (2026-01-02T03:04:05Z) or an age such as 15m, 2h, 7d')
    .option('--until <time>', 'only logs before this time (same forms as --since)')
    .addOption(new Option('--severity <level>', `only this level (repeatable): ${SEVERITIES.join(', ')}`).argParser(collect))
    .addOption(new Option('--search <word>', 'only lines containing this word (repeatable: all must match)').argParser(collect))
    .option('--node <n>', 'only this node of a multi-node service')
    .option('--limit <n>', 'print at most this many lines', '100')
    .option('--json', 'print one JSON object per line: {timestamp, severity, message}')
    .option('--project <id>', 'project of a service ID (default: the only project the token sees)');
  addApiOptions(addConfigOptions(cmd)).action(
    action(async (service: string, _flags: LogsFlags, command: Command) => runLogs(service, command.optsWithGlobals<LogsFlags>())),
  );
}

async function runLogs(service: string, flags: LogsFlags): Promise<number> {
  const now = Date.now();
  const query = buildLogsQuery(flags, now);
  const limit = positiveInteger('--limit', flags.limit);
  if (flags.project !== undefined) checkProjectIdFlag(flags.project, '--project');
  const target = await resolveServiceTarget(service, flags);
  const { openApiContext } = await import('../api-context.js');
  const { iterateServiceLogs } = await import('../../api/logs.js');
  const ctx = await openApiContext({ ...flags, configFiles: flags.file });
  try {
    const projectId = target.projectId ?? (await onlyProject(ctx.client));
    const out = new LineWriter(cliProcess().stdout);
    for await (const lines of iterateServiceLogs(ctx.client, projectId, target.serviceId, query, { limit })) {
      const text = lines.map((l) => logLine(l, flags.json === true)).join('\n');
      if (!(await out.write(`${text}\n`))) break;
    }
  } finally {
    await ctx.close();
  }
  return 0;
}

/** One entry, one line: its text from the API written as data (SPEC section 13), in JSON as JSON escapes. */
function logLine(l: { timestamp?: string; severity?: string; message: string }, json: boolean): string {
  if (json) return terminalJson({ timestamp: l.timestamp, severity: l.severity, message: l.message });
  return [l.timestamp, l.severity, l.message].filter((x) => x !== undefined).map(terminalLine).join(' ');
}

/** The query from the flags, checked before any request. */
export function buildLogsQuery(flags: Pick<LogsFlags, 'since' | 'until' | 'severity' | 'search' | 'node'>, nowMs: number): LogsQueryDto {
  const query: LogsQueryDto = {};
  if (flags.since !== undefined) query.since = parseTimeFlag('--since', flags.since, nowMs);
  if (flags.until !== undefined) query.until = parseTimeFlag('--until', flags.until, nowMs);
  if (query.since !== undefined && query.until !== undefined && Date.parse(query.until) < Date.parse(query.since)) {
    throw new DbformError(`--until (${query.until}) is before --since (${query.since})`);
  }
  if (flags.severity && flags.severity.length > 0) {
    query.severities = flags.severity.map((s) => {
      const level = s.trim().toUpperCase();
      if (!SEVERITIES.includes(level)) throw new DbformError(`--severity "${s}" is not a log level; use one of ${SEVERITIES.join(', ')}`);
      return level;
    });
  }
  const search = (flags.search ?? []).map((w) => w.trim()).filter((w) => w !== '');
  if (search.length > 0) query.search = search;
  if (flags.node !== undefined) {
    if (!/^\d{1,3}$/.test(flags.node.trim())) throw new DbformError(`--node must be a node number such as 0 or 1 (got "${flags.node}")`);
    query.node = Number(flags.node.trim());
  }
  return query;
}

const AGE_UNITS: Record<string, number> = { s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 };

/** RFC 3339, or an age (`90s`, `15m`, `2h`, `7d`) before now; returned as RFC 3339 UTC. */
export function parseTimeFlag(flag: string, value: string, nowMs: number): string {
  const text = value.trim();
  const age = /^(\d+)([smhd])$/.exec(text);
  if (age) return new Date(nowMs - Number(age[1]) * AGE_UNITS[age[2]!]!).toISOString();
  const ms = parseRfc3339(text);
  if (ms === undefined) {
    throw new DbformError(`${flag} "${value}" is not a time; use RFC 3339 (2026-01-02T03:04:05Z) or an age such as 30s, 15m, 2h, 7d`);
  }
  return new Date(ms).toISOString();
}

function positiveInteger(flag: string, value: string): number {
  const n = /^\d+$/.test(value.trim()) ? Number(value.trim()) : Number.NaN;
  if (!Number.isSafeInteger(n) || n < 1) throw new DbformError(`${flag} must be a whole number >= 1 (got "${value}")`);
  return n;
}

/**
 * A service ID, or `service.<key>` resolved through the state the flags, env or config's `state:`
 * select (the lockfile file or PostgreSQL, SPEC section 14), which also gives the project.
 */
async function resolveServiceTarget(service: string, flags: LogsFlags): Promise<{ serviceId: string; projectId?: string }> {
  const address = parseAddress(service);
  if (address === undefined) {
    if (!/^[A-Za-z0-9][A-Za-z0-9_-]{0,127}$/.test(service)) {
      throw new DbformError(`"${service}" is neither a service address (service.<key>) nor a service ID`);
    }
    return flags.project === undefined ? { serviceId: service } : { serviceId: service, projectId: flags.project };
  }
  if (address.kind !== 'service') throw new DbformError(`${service} is a ${address.kind.replace('_', ' ')}; dbform logs needs a service (service.<key>) or a service ID`);
  const { withStateCommand } = await import('../state-commands/context.js');
  return withStateCommand({ ...flags, file: configFiles(flags) }, async ({ store, desired }) => {
    const { lockfile } = await store.read();
    const entry = lockfile.resources[service];
    if (entry === undefined) {
      throw new DbformError(`${service} is not bound in workspace "${store.workspace}" of ${store.location} (not applied yet?); give the service ID instead`);
    }
    if (flags.project !== undefined && flags.project !== desired.projectId) {
      throw new DbformError(`--project ${flags.project} does not match the project of the config (${desired.projectId})`);
    }
    return { serviceId: entry.id, projectId: desired.projectId };
  });
}

async function onlyProject(client: { listProjects(): Promise<Array<{ id: string }>> }): Promise<string> {
  const projects = await client.listProjects();
  if (projects.length === 1) return String(projects[0]!.id);
  if (projects.length === 0) throw new DbformError('the API token sees no project');
  throw new DbformError(`the API token sees ${projects.length} projects (${projects.map((p) => p.id).join(', ')}); choose one with --project ID`);
}

/** Writes with backpressure; a closed pipe (`| head`) ends the output quietly. */
class LineWriter {
  private closed = false;

  constructor(private readonly stream: NodeJS.WriteStream) {
    // EPIPE when the reader went away: stop writing, it is not an error of dbform.
    stream.on('error', () => {
      this.closed = true;
    });
  }

  async write(text: string): Promise<boolean> {
    if (this.closed) return false;
    if (!this.stream.write(text)) {
      await new Promise<void>((resolve) => {
        const done = () => {
          this.stream.off('drain', done);
          this.stream.off('close', done);
          resolve();
        };
        this.stream.on('drain', done);
        this.stream.on('close', done);
      });
    }
    return !this.closed;
  }
}
