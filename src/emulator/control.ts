// Endpoints under /__emulator/: no auth, never faulted, not counted. They observe and steer the
// emulator for tests; they are not part of the cloud API.
import type { EmulatorStatsDto } from '../api/dto.js';
import { DURATIONS, type Clock } from './clock.js';
import type { Dialect } from './dialect.js';
import { conflict, HttpError, notFound } from './errors.js';
import type { RequestStats } from './stats.js';
import type { PeeringRecord, World } from './store.js';
import { peeringPhaseAt, serviceStatusAt, settlePeerings, settleService } from './timelines.js';

export interface ControlAnswer {
  status: number;
  body?: EmulatorStatsDto;
  headers?: Record<string, string>;
}

export interface ControlDeps {
  world: World;
  stats: RequestStats;
  clock: Clock;
  dialect: Dialect;
}

interface ControlRoute {
  method: 'GET' | 'POST';
  pattern: RegExp;
  /** Answers; a 204 changed the world (persisted before answering), except a stats reset. */
  run(deps: ControlDeps, id: string, now: number): ControlAnswer;
}

const ROUTES: ControlRoute[] = [
  { method: 'GET', pattern: /^\/__emulator\/stats$/, run: (deps) => ({ status: 200, body: deps.stats.snapshot() }) },
  {
    method: 'POST',
    pattern: /^\/__emulator\/reset$/,
    run: (deps) => {
      deps.stats.reset();
      return { status: 204 };
    },
  },
  steer(/^\/__emulator\/replica-sets\/([^/]+)\/fail$/, (deps, id, now) => failReplicaSet(deps.world, id, now)),
  steer(/^\/__emulator\/services\/([^/]+)\/fail$/, (deps, id, now) => failService(deps.world, id, now)),
  steer(/^\/__emulator\/peerings\/([^/]+)\/accept$/, acceptPeering),
];

/** A POST that changes one resource of the path and answers 204. */
function steer(pattern: RegExp, change: (deps: ControlDeps, id: string, now: number) => void): ControlRoute {
  return {
    method: 'POST',
    pattern,
    run: (deps, id, now) => {
      change(deps, id, now);
      return { status: 204 };
    },
  };
}

/** Whether the answer changed the world (so the state file is written before it is sent). */
export function controlMutates(path: string, answer: { status: number }): boolean {
  return answer.status === 204 && path !== '/__emulator/reset';
}

export function answerControl(deps: ControlDeps, method: string, path: string, now: number): ControlAnswer {
  for (const route of ROUTES) {
    const m = route.pattern.exec(path);
    if (!m) continue;
    if (method !== route.method) {
      throw new HttpError(405, 'METHOD_NOT_ALLOWED', `${method} is not allowed on ${path}`, { headers: { allow: route.method } });
    }
    return route.run(deps, m[1] === undefined ? '' : safeDecode(m[1]), now);
  }
  throw notFound(`no such emulator endpoint: ${path}`);
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

/**
 * Puts a service in status FAILED (the real service sends it though its enum does not list it;
 * SPEC section 15) until it is deleted. Its running transition is dropped; a service already
 * being deleted is a 409.
 */
export function failService(world: World, serviceId: string, now: number): void {
  for (const project of world.projects.values()) {
    const svc = project.services.get(serviceId);
    if (!svc || !settleService(project, svc, now)) continue;
    if (serviceStatusAt(svc, now) === 'DELETING') throw conflict(`service "${serviceId}" is being deleted`);
    delete svc.timeline;
    svc.status = 'FAILED';
    return;
  }
  throw notFound(`service "${serviceId}" not found`);
}

/**
 * The peer account accepts a peering made under manual acceptance: it goes through the dialect's
 * acceptance step (APPROVED 1 s in tiger) to active. Accepted before it is provisioned, it is
 * active as soon as it is. Anything else (failed, accepted, deleting) is a 409.
 */
export function acceptPeering(deps: ControlDeps, peeringId: string, now: number): void {
  const peering = findPeering(deps.world, peeringId, now);
  if (!peering.awaitsAcceptance) {
    const phase = peeringPhaseAt(peering, now, deps.dialect.peeringStatus.approved !== undefined);
    const why = phase === 'failed' ? 'it has failed' : phase === 'deleting' ? 'it is being deleted' : 'it does not await acceptance (accepted already, or made under automatic acceptance)';
    throw conflict(`peering "${peeringId}" cannot be accepted: ${why}`);
  }
  if (peering.fails && now >= peering.settlesAt) throw conflict(`peering "${peeringId}" cannot be accepted: it has failed`);
  delete peering.awaitsAcceptance;
  if (deps.dialect.peeringStatus.approved !== undefined) {
    peering.approvedUntil = Math.max(now, peering.settlesAt) + deps.clock.scale(DURATIONS.peeringApproved);
  }
}

function findPeering(world: World, peeringId: string, now: number): PeeringRecord {
  for (const project of world.projects.values()) {
    for (const vpc of project.vpcs.values()) {
      settlePeerings(vpc, now);
      const peering = vpc.peerings.get(peeringId);
      if (peering) return peering;
    }
  }
  throw notFound(`peering "${peeringId}" not found`);
}

function safeDecode(part: string): string {
  try {
    return decodeURIComponent(part);
  } catch {
    return part;
  }
}
