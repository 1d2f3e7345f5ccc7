import type { LogEntryDto, LogsResponseDto } from '../../api/dto.js';
import { badRequest } from '../errors.js';
import { entryAt, firstIndexAtOrAfter, historyOf, NODE_COUNT, type LogEntry, type LogHistory } from '../logs-generator.js';
import { mix32 } from '../prng.js';
import { seededLogsOf } from '../seeded-logs.js';
import type { RequestContext, Route } from '../router.js';
import { parseRfc3339 } from '../validate.js';
import { ok, projectOf, serviceOf } from './common.js';

export const PAGE_SIZE = 500;
const PG_LEVELS = new Set(['DEBUG', 'DEBUG1', 'DEBUG2', 'DEBUG3', 'DEBUG4', 'DEBUG5', 'INFO', 'NOTICE', 'WARNING', 'ERROR', 'LOG', 'FATAL', 'PANIC']);

interface LogsFilter {
  /** Entries with index in [lo, hi) are inside since/until. */
  lo: number;
  hi: number;
  severities?: Set<string>;
  search: string[];
  node?: number;
}

export const logRoutes: Route[] = [
  {
    method: 'GET',
    template: '/projects/{project_id}/services/{service_id}/logs',
    handle(ctx) {
      const project = projectOf(ctx);
      const svc = serviceOf(ctx, project);
      const history = historyOf(svc.id, svc.createdAt, seededLogsOf(ctx.world, svc.id));
      const filter = filterOf(ctx, history);
      const cursor = ctx.query.get('cursor');
      const start = cursor === null ? filter.hi - 1 : Math.min(decodeCursor(history, cursor), filter.hi - 1);
      return ok(readPage(history, filter, start));
    },
  },
];

/** Walks from index `start` down to older entries; the cursor points at the next match, if any. */
function readPage(history: LogHistory, filter: LogsFilter, start: number): LogsResponseDto {
  const entries: LogEntryDto[] = [];
  let i = start;
  for (; i >= filter.lo && entries.length < PAGE_SIZE; i--) {
    const e = entryAt(history, i);
    if (matches(e, filter)) entries.push({ message: e.message, severity: e.severity, timestamp: new Date(e.timestampMs).toISOString() });
  }
  const out: LogsResponseDto = { logs: entries.map((e) => e.message), entries };
  for (; i >= filter.lo; i--) {
    if (matches(entryAt(history, i), filter)) {
      out.last_cursor = encodeCursor(history, i);
      out.lastCursor = out.last_cursor;
      break;
    }
  }
  return out;
}

function matches(e: LogEntry, f: LogsFilter): boolean {
  if (f.node !== undefined && e.node !== f.node) return false;
  if (f.severities && !f.severities.has(e.severity)) return false;
  if (f.search.length > 0) {
    const text = e.message.toLowerCase();
    if (!f.search.every((term) => text.includes(term))) return false;
  }
  return true;
}

function filterOf(ctx: RequestContext, history: LogHistory): LogsFilter {
  const q = ctx.query;
  const since = timeParam(q.get('since'), 'since');
  const until = timeParam(q.get('until'), 'until');
  if (since !== undefined && until !== undefined && until < since) throw badRequest('query parameter "until" must not be before "since"');
  const filter: LogsFilter = {
    lo: since === undefined ? 0 : firstIndexAtOrAfter(history, since),
    hi: until === undefined ? history.count : firstIndexAtOrAfter(history, until),
    search: q.getAll('search').map(searchTerm),
  };
  const severities = q.getAll('severities');
  if (severities.length > 0) {
    filter.severities = new Set(severities.map((s) => s.toUpperCase()));
    for (const s of filter.severities) {
      if (!PG_LEVELS.has(s)) throw badRequest(`query parameter "severities": unknown level "${s}" (use LOG, INFO, NOTICE, WARNING, ERROR, FATAL, PANIC or DEBUG1-5)`);
    }
  }
  const node = q.get('node');
  if (node !== null) {
    if (!/^[0-9]{1,3}$/.test(node) || Number(node) >= NODE_COUNT) {
      throw badRequest(`query parameter "node" must be a node number 0-${NODE_COUNT - 1} (got "${node.slice(0, 20)}")`);
    }
    filter.node = Number(node);
  }
  return filter;
}

/** A blank term would match everything: the OpenAPI asks for at least one non-space character. */
function searchTerm(raw: string): string {
  const term = raw.trim().toLowerCase();
  if (term === '') throw badRequest('query parameter "search" must not be blank (give a word to look for, or leave the parameter out)');
  return term;
}

function timeParam(value: string | null, name: string): number | undefined {
  if (value === null) return undefined;
  const ms = parseRfc3339(value);
  if (ms === undefined) throw badRequest(`query parameter "${name}" must be an RFC 3339 timestamp such as 2026-01-02T03:04:05Z (got "${value.slice(0, 40)}")`);
  return ms;
}

// A cursor is opaque to clients; the checksum ties it to the service and catches tampering.
function encodeCursor(history: LogHistory, index: number): string {
  return Buffer.from(`v1:${index}:${mix32(history.seed, index ^ 0x5bd1e995).toString(36)}`).toString('base64url');
}

function decodeCursor(history: LogHistory, cursor: string): number {
  const text = /^[A-Za-z0-9_-]{1,64}$/.test(cursor) ? Buffer.from(cursor, 'base64url').toString('utf8') : '';
  const m = /^v1:([0-9]{1,7}):([0-9a-z]{1,8})$/.exec(text);
  const index = m ? Number(m[1]) : -1;
  if (!m || index >= history.count || m[2] !== mix32(history.seed, index ^ 0x5bd1e995).toString(36)) {
    throw badRequest('query parameter "cursor" is not a cursor of this service (pass "last_cursor" of a previous answer)');
  }
  return index;
}
