// A deterministic log history per service: entry i is a pure function of (service ID, i), with
// timestamps about one second apart, fixed relative to the service's creation, so every read is
// stable and a page is computed without materialising the history. The history ends at the
// creation time rather than starting there, so no entry is ever dated in the future.
import { hashString, mix32 } from './prng.js';

export const SEVERITIES = ['LOG', 'INFO', 'WARNING', 'ERROR', 'FATAL'] as const;
export type Severity = (typeof SEVERITIES)[number];
/** Every node has logs: 0 is the primary, 1 and 2 the standbys. */
export const NODE_COUNT = 3;

export interface LogHistory {
  seed: number;
  /** Generated entries, then seeded ones. */
  count: number;
  startMs: number;
  generated: number;
  /** Entries a test added after the generated ones (seeded-logs.ts), oldest first. */
  seeded: readonly LogEntry[];
}

export interface LogEntry {
  index: number;
  timestampMs: number;
  severity: Severity;
  node: number;
  message: string;
}

export function historyOf(serviceId: string, createdAt: number, seeded: readonly LogEntry[] = []): LogHistory {
  const seed = hashString(serviceId);
  const generated = 3000 + (seed % 1000);
  return { seed, count: generated + seeded.length, startMs: createdAt - generated * 1000, generated, seeded };
}

export function timestampAt(h: LogHistory, i: number): number {
  if (i >= h.generated) return h.seeded[i - h.generated]!.timestampMs;
  return h.startMs + i * 1000 + (mix32(h.seed, i) % 1000);
}

export function entryAt(h: LogHistory, i: number): LogEntry {
  if (i >= h.generated) return { ...h.seeded[i - h.generated]!, index: i };
  const r = mix32(h.seed, i);
  const roll = (r >>> 10) % 100;
  const severity: Severity = roll < 55 ? 'LOG' : roll < 75 ? 'INFO' : roll < 88 ? 'WARNING' : roll < 97 ? 'ERROR' : 'FATAL';
  const node = mix32(r, 7) % NODE_COUNT;
  return { index: i, timestampMs: timestampAt(h, i), severity, node, message: messageOf(severity, mix32(r, 11)) };
}

/** Smallest index whose timestamp is >= ms (count when none): timestamps increase with the index. */
export function firstIndexAtOrAfter(h: LogHistory, ms: number): number {
  let lo = 0;
  let hi = h.count;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (timestampAt(h, mid) < ms) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

const TABLES = ['metrics', 'events', 'orders', 'readings', 'sessions', 'invoices'];
const USERS = ['tsdbadmin', 'app', 'reporting', 'grafana'];
const pick = <T>(list: readonly T[], r: number): T => list[r % list.length]!;

function messageOf(severity: Severity, r: number): string {
  const table = pick(TABLES, r >>> 3);
  const user = pick(USERS, r >>> 7);
  const n = (r >>> 11) % 10_000;
  const ms = ((r >>> 5) % 90_000) / 100;
  const templates: Record<Severity, string[]> = {
    LOG: [
      'checkpoint starting: time',
      `checkpoint complete: wrote ${n} buffers (${(n % 100) / 10}%); 0 WAL file(s) added, 0 removed`,
      `connection authorized: user=${user} database=tsdb application_name=psql`,
      `duration: ${ms.toFixed(3)} ms  statement: SELECT * FROM ${table} WHERE time > now() - interval '1 hour'`,
      `automatic vacuum of table "tsdb.public.${table}": index scans: 1`,
      `disconnection: session time: 0:0${n % 10}:${String(n % 60).padStart(2, '0')}.${n % 1000} user=${user} database=tsdb`,
    ],
    INFO: [
      `job ${1000 + (n % 50)} (Refresh Continuous Aggregate Policy [${1000 + (n % 50)}]) finished in ${ms.toFixed(1)} ms`,
      `background worker "TimescaleDB Background Worker Scheduler" started`,
      `compressing chunk _hyper_1_${n}_chunk of hypertable "${table}"`,
    ],
    WARNING: [
      'there is no transaction in progress',
      `could not receive data from client: Connection reset by peer`,
      `skipping vacuum of "${table}" --- lock not available`,
    ],
    ERROR: [
      `duplicate key value violates unique constraint "${table}_pkey"`,
      `relation "${table}_archive" does not exist`,
      'canceling statement due to statement timeout',
      `permission denied for table ${table}`,
    ],
    FATAL: [
      `password authentication failed for user "${user}"`,
      'terminating connection due to administrator command',
      `remaining connection slots are reserved for roles with the SUPERUSER attribute`,
    ],
  };
  return pick(templates[severity], r);
}
