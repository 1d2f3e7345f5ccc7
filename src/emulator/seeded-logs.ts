// A test control (outside the API prefix, no auth, like /__emulator/stats): a log line of the
// test's choosing, appended as the newest entry of a service's logs. The generated history holds
// only tame text; what a real log can hold (a statement's text, a client's input) is anything,
// and SPEC section 13 asks that dbform write it as data. Kept in memory only, never persisted.
//   POST /__emulator/services/{service_id}/logs?message=TEXT[&severity=LEVEL]   -> 204
import { badRequest, HttpError, notFound } from './errors.js';
import { SEVERITIES, type LogEntry, type Severity } from './logs-generator.js';
import type { World } from './store.js';

const PATH = /^\/__emulator\/services\/([^/]+)\/logs$/;

/** World -> service ID -> its seeded entries, oldest first (their indices follow the generated ones). */
const seeded = new WeakMap<World, Map<string, LogEntry[]>>();

export function seededLogsOf(world: World, serviceId: string): readonly LogEntry[] {
  return seeded.get(world)?.get(serviceId) ?? [];
}

/** The answer when `url` is this control; undefined for any other path. */
export function answerSeededLog(world: World, method: string, url: string, now: number): { status: number } | undefined {
  const parsed = new URL(url, 'http://emulator.invalid');
  const m = PATH.exec(parsed.pathname);
  if (!m) return undefined;
  if (method !== 'POST') throw new HttpError(405, 'METHOD_NOT_ALLOWED', `${method} is not allowed on ${parsed.pathname}`, { headers: { allow: 'POST' } });
  const serviceId = decodeURIComponent(m[1]!);
  const created = createdAtOf(world, serviceId);
  const message = parsed.searchParams.get('message');
  if (message === null) throw badRequest('query parameter "message" is required');
  const severity = (parsed.searchParams.get('severity') ?? 'LOG').toUpperCase();
  if (!(SEVERITIES as readonly string[]).includes(severity)) throw badRequest(`query parameter "severity" must be one of ${SEVERITIES.join(', ')}`);
  const byService = seeded.get(world) ?? new Map<string, LogEntry[]>();
  seeded.set(world, byService);
  const list = byService.get(serviceId) ?? [];
  byService.set(serviceId, list);
  // Newer than every generated entry (they end at the service's creation) and every earlier seed.
  const timestampMs = Math.max(now, created, (list.at(-1)?.timestampMs ?? 0) + 1);
  list.push({ index: -1, timestampMs, severity: severity as Severity, node: 0, message });
  return { status: 204 };
}

function createdAtOf(world: World, serviceId: string): number {
  for (const project of world.projects.values()) {
    const svc = project.services.get(serviceId);
    if (svc) return svc.createdAt;
  }
  throw notFound(`service "${serviceId}" not found`);
}
