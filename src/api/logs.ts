// Paging through service logs with the cursor, one page in memory at a time.
import type { ApiClient, CallOptions } from './client.js';
import type { LogsQueryDto, LogsResponseDto } from './dto.js';

export interface LogLine {
  /** RFC 3339; absent when the API only sent the legacy `logs` strings. */
  timestamp?: string;
  severity?: string;
  message: string;
}

/** The cursor of the next (older) page: `last_cursor`, else the deprecated `lastCursor`. */
export function nextCursorOf(page: LogsResponseDto): string | undefined {
  const cursor = page.last_cursor ?? page.lastCursor;
  return typeof cursor === 'string' && cursor !== '' ? cursor : undefined;
}

/** The lines of a page: `entries` when present, else the legacy `logs` strings. */
export function linesOf(page: LogsResponseDto): LogLine[] {
  if (Array.isArray(page.entries)) {
    return page.entries.map((e) => {
      const line: LogLine = { message: typeof e?.message === 'string' ? e.message : String(e?.message ?? '') };
      if (typeof e?.timestamp === 'string') line.timestamp = e.timestamp;
      if (typeof e?.severity === 'string') line.severity = e.severity;
      return line;
    });
  }
  return (Array.isArray(page.logs) ? page.logs : []).map((m) => ({ message: String(m) }));
}

/**
 * Yields the log lines of a service page by page, newest first, until `limit` lines were yielded
 * or there is no older page. The query's own cursor, if any, is where paging starts.
 */
export async function* iterateServiceLogs(
  client: Pick<ApiClient, 'getServiceLogs'>,
  projectId: string,
  serviceId: string,
  query: Omit<LogsQueryDto, 'cursor'> & { cursor?: string },
  options: { limit: number } & CallOptions,
): AsyncGenerator<LogLine[]> {
  let remaining = options.limit;
  let cursor = query.cursor;
  const seen = new Set<string>();
  while (remaining > 0) {
    const page = await client.getServiceLogs(projectId, serviceId, cursor === undefined ? { ...query } : { ...query, cursor }, { signal: options.signal });
    const lines = linesOf(page).slice(0, remaining);
    remaining -= lines.length;
    if (lines.length > 0) yield lines;
    const next = nextCursorOf(page);
    // A cursor seen before would loop forever: treat it as the end.
    if (next === undefined || lines.length === 0 || seen.has(next)) return;
    seen.add(next);
    cursor = next;
  }
}
