// One history record per tool call (SPEC section 17): which client asked for which tool, in which
// workspace, who ran the server where, when, and how the command ended. Never an input value:
// those are the caller's words, and the record has no place for anything but the tool's name.
import { MCP_CALL_PREFIX, newHistoryId, type HistoryRecord } from '../state/index.js';

/** The client as it named itself in `initialize` (clientInfo), or as unknown. */
export interface ClientInfo {
  name: string;
  version: string;
}

/** Who runs the server: the user, host and CI run of every record. */
export interface Operator {
  user: string;
  host: string;
  ciRun: string | null;
}

export interface CallOutcome {
  tool: string;
  client: ClientInfo | undefined;
  workspace: string;
  operator: Operator;
  startedAt: Date;
  finishedAt: Date;
  exitCode: number;
  serialBefore: number;
  serialAfter: number;
}

/** `dbform mcp plan (client claude-ai 0.1.0)`. */
export function callCommand(tool: string, client: ClientInfo | undefined): string {
  const who = client ? `${plainWord(client.name, 'unknown')} ${plainWord(client.version, '?')}` : 'unknown';
  return `${MCP_CALL_PREFIX}${tool} (client ${who})`;
}

export function callRecord(o: CallOutcome): HistoryRecord {
  return {
    id: newHistoryId(),
    workspace: o.workspace,
    user: o.operator.user,
    host: o.operator.host,
    ciRun: o.operator.ciRun,
    command: callCommand(o.tool, o.client),
    startedAt: o.startedAt.toISOString(),
    finishedAt: o.finishedAt.toISOString(),
    configHash: null,
    serialBefore: o.serialBefore,
    serialAfter: o.serialAfter,
    exitCode: o.exitCode,
    actions: [],
  };
}

/** The client names itself: one short line, whatever it sent. */
function plainWord(text: string, fallback: string): string {
  const plain = text.replace(/[\p{Cc}\p{Cf}]+/gu, ' ').replace(/\s+/g, ' ').trim().slice(0, 80);
  return plain === '' ? fallback : plain;
}
