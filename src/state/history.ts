// One record per apply or destroy (SPEC section 10): which workspace and state (section 14), who,
// when, what, and how it ended. No secrets:
// actions carry address, op, outcome and ID only.
import { randomUUID } from 'node:crypto';

export type ActionOutcome = 'done' | 'failed' | 'skipped' | 'abandoned' | 'blocked';

export interface HistoryAction {
  address: string;
  op: string;
  outcome: ActionOutcome;
  id: string | null;
}

export interface HistoryRecord {
  /** UUID: copying history to another store (state migrate) never duplicates a record. */
  id: string;
  workspace: string;
  /** Where the state lives (SPEC section 14): the lockfile path or the URL without its password; absent in records older than it. */
  state?: string;
  user: string;
  host: string;
  ciRun: string | null;
  command: string;
  startedAt: string;
  finishedAt: string;
  configHash: string | null;
  serialBefore: number;
  serialAfter: number;
  exitCode: number;
  actions: HistoryAction[];
}

/**
 * The command of every record a tool call of an assistant writes (`dbform mcp`, SPEC section 17).
 * Such a call reads; its one write tool runs an apply that records itself. So it is no apply, and
 * never a workspace's last apply, by which `workspace list` and `sweep --older-than` judge.
 */
export const MCP_CALL_PREFIX = 'dbform mcp ';

export function countsAsApply(r: Pick<HistoryRecord, 'command'>): boolean {
  return !r.command.startsWith(MCP_CALL_PREFIX);
}

export function newHistoryId(): string {
  return randomUUID();
}

/** The stored form: snake_case, fixed key order (a JSON line of history.jsonl, or the jsonb row). */
export function historyToJson(r: HistoryRecord): Record<string, unknown> {
  return {
    id: r.id,
    workspace: r.workspace,
    ...(r.state !== undefined ? { state: r.state } : {}),
    user: r.user,
    host: r.host,
    ci_run: r.ciRun,
    command: r.command,
    started_at: r.startedAt,
    finished_at: r.finishedAt,
    config_hash: r.configHash,
    serial_before: r.serialBefore,
    serial_after: r.serialAfter,
    exit_code: r.exitCode,
    actions: r.actions.map((a) => ({ address: a.address, op: a.op, outcome: a.outcome, id: a.id })),
  };
}

const str = (v: unknown, fallback = ''): string => (typeof v === 'string' ? v : fallback);
const int = (v: unknown): number => (typeof v === 'number' && Number.isInteger(v) ? v : 0);

/** Lenient: a record written by another version still lists; unknown fields are dropped. */
export function historyFromJson(data: unknown): HistoryRecord | undefined {
  if (typeof data !== 'object' || data === null || Array.isArray(data)) return undefined;
  const o = data as Record<string, unknown>;
  if (typeof o.id !== 'string' || typeof o.started_at !== 'string') return undefined;
  const actions = Array.isArray(o.actions) ? o.actions : [];
  return {
    id: o.id,
    workspace: str(o.workspace, 'default'),
    ...(typeof o.state === 'string' ? { state: o.state } : {}),
    user: str(o.user),
    host: str(o.host),
    ciRun: typeof o.ci_run === 'string' ? o.ci_run : null,
    command: str(o.command),
    startedAt: o.started_at,
    finishedAt: str(o.finished_at),
    configHash: typeof o.config_hash === 'string' ? o.config_hash : null,
    serialBefore: int(o.serial_before),
    serialAfter: int(o.serial_after),
    exitCode: int(o.exit_code),
    actions: actions.flatMap((a) => {
      if (typeof a !== 'object' || a === null) return [];
      const x = a as Record<string, unknown>;
      return [{ address: str(x.address), op: str(x.op), outcome: str(x.outcome) as ActionOutcome, id: typeof x.id === 'string' ? x.id : null }];
    }),
  };
}
