// Endpoints under /__emulator/: no auth, never faulted, not counted. They observe and steer the
// emulator for tests; they are not part of the cloud API.
import type { EmulatorStatsDto } from '../api/dto.js';
import { HttpError, notFound } from './errors.js';
import type { RequestStats } from './stats.js';
import type { World } from './store.js';
import { settleService } from './timelines.js';

export interface ControlAnswer {
  status: number;
  body?: EmulatorStatsDto;
  headers?: Record<string, string>;
}

const FAIL_REPLICA_SET = /^\/__emulator\/replica-sets\/([^/]+)\/fail$/;

export function answerControl(world: World, stats: RequestStats, method: string, path: string, now: number): ControlAnswer {
  const failMatch = FAIL_REPLICA_SET.exec(path);
  const allowed = path === '/__emulator/stats' ? 'GET' : path === '/__emulator/reset' || failMatch ? 'POST' : undefined;
  if (!allowed) throw notFound(`no such emulator endpoint: ${path}`);
  if (method !== allowed) {
    throw new HttpError(405, 'METHOD_NOT_ALLOWED', `${method} is not allowed on ${path}`, { headers: { allow: allowed } });
  }
  if (path === '/__emulator/stats') return { status: 200, body: stats.snapshot() };
  if (failMatch) {
    failReplicaSet(world, safeDecode(failMatch[1]!), now);
    return { status: 204 };
  }
  stats.reset();
  return { status: 204 };
}

/**
 * Puts a replica set in the terminal `error` status (the real service does so on provisioning
 * failures), so clients can test how they report it. Its pending transition, if any, is dropped.
 */
export function failReplicaSet(world: World, replicaSetId: string, now: number): void {
  for (const project of world.projects.values()) {
    for (const svc of project.services.values()) {
      const rs = svc.replicaSets.get(replicaSetId);
      if (rs && settleService(project, svc, now) && svc.replicaSets.has(replicaSetId)) {
        delete rs.timeline;
        rs.status = 'error';
        return;
      }
    }
  }
  throw notFound(`replica set "${replicaSetId}" not found`);
}

function safeDecode(part: string): string {
  try {
    return decodeURIComponent(part);
  } catch {
    return part;
  }
}
