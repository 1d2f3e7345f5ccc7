import { DURATIONS } from '../clock.js';
import { conflict } from '../errors.js';
import type { RequestContext, Route, RouteResult } from '../router.js';
import type { ProjectRecord, ReplicaSetRecord, ServiceRecord } from '../store.js';
import { replicaSetStatusAt } from '../timelines.js';
import { allowedPair, bodyObject, ENVIRONMENTS, requireEnum, requireInt, requireString, sizePair } from '../validate.js';
import { toReplicaSetDto } from '../views.js';
import {
  liveServiceOf,
  message,
  ok,
  operableServiceOf,
  projectOf,
  replicaSetOf,
  requireBackup,
  requireNotDeleting,
  requireReady,
  serviceOf,
} from './common.js';

const BASE = '/projects/{project_id}/services/{service_id}/replicaSets';

type Action = (ctx: RequestContext, project: ProjectRecord, svc: ServiceRecord, rs: ReplicaSetRecord) => RouteResult;

/**
 * An action on one replica set of a service that is not being deleted; only a delete is taken
 * while the service is FAILED.
 */
function setRoute(method: 'POST' | 'DELETE', suffix: string, action: Action): Route {
  return {
    method,
    template: `${BASE}/{replica_set_id}${suffix}`,
    handle(ctx) {
      const project = projectOf(ctx);
      const svc = method === 'DELETE' ? liveServiceOf(ctx, project) : operableServiceOf(ctx, project);
      return action(ctx, project, svc, replicaSetOf(ctx, svc));
    },
  };
}

export const replicaSetRoutes: Route[] = [
  {
    method: 'GET',
    template: BASE,
    handle(ctx) {
      const project = projectOf(ctx);
      const svc = serviceOf(ctx, project);
      return ok([...svc.replicaSets.values()].map((rs) => toReplicaSetDto(project.id, svc, rs, ctx.now, ctx.dialect)));
    },
  },
  { method: 'POST', template: BASE, handle: createReplicaSet },
  setRoute('DELETE', '', (ctx, _project, _svc, rs) => {
    requireNotDeleting(rs, ctx.now);
    rs.timeline = { status: 'deleting', until: ctx.now + ctx.clock.scale(DURATIONS.replicaSetDeleting), then: 'GONE' };
    // No body, as both documents describe (SPEC section 12): the status is read from the list.
    return { status: 202, mutated: true };
  }),
  setRoute('POST', '/resize', (ctx, _project, _svc, rs) => {
    const size = sizePair(bodyObject(ctx.body), { optional: false, allowShared: false, sizes: ctx.dialect.sizes }) as { cpuMillis: number; memoryGbs: number };
    const status = replicaSetStatusAt(rs, ctx.now);
    if (status !== 'active') throw conflict(`cannot resize replica set "${rs.id}" while it is ${status} (it must be active)`);
    rs.timeline = { status: 'resizing', until: ctx.now + ctx.clock.scale(DURATIONS.replicaSetResizing), then: 'active', size };
    return message(202, `replica set "${rs.id}" is resizing to ${size.cpuMillis}/${size.memoryGbs}`);
  }),
  setRoute('POST', '/enablePooler', (ctx, _project, _svc, rs) => {
    requireNotDeleting(rs, ctx.now);
    rs.pooler = true;
    return message(200, `connection pooler enabled for replica set "${rs.id}"`);
  }),
  setRoute('POST', '/disablePooler', (ctx, _project, _svc, rs) => {
    requireNotDeleting(rs, ctx.now);
    rs.pooler = false;
    return message(200, `connection pooler disabled for replica set "${rs.id}"`);
  }),
  setRoute('POST', '/setEnvironment', (ctx, _project, _svc, rs) => {
    const environment = requireEnum(bodyObject(ctx.body), 'environment', ENVIRONMENTS);
    requireNotDeleting(rs, ctx.now);
    rs.environment = environment;
    return message(200, `environment of replica set "${rs.id}" set to ${environment}`);
  }),
];

function createReplicaSet(ctx: RequestContext): RouteResult {
  const project = projectOf(ctx);
  const svc = operableServiceOf(ctx, project);
  const b = bodyObject(ctx.body);
  const cpuMillis = requireInt(b, 'cpu_millis', 1, 1_000_000);
  const memoryGbs = requireInt(b, 'memory_gbs', 1, 1_000_000);
  const name = requireString(b, 'name');
  const nodes = requireInt(b, 'nodes', 1, 10);
  const size = allowedPair(cpuMillis, memoryGbs, ctx.dialect.sizes);
  requireReady(svc, ctx.now, 'create a replica set of');
  requireBackup(svc, ctx.now);
  for (const other of svc.replicaSets.values()) {
    if (other.name === name) throw conflict(`service "${svc.id}" already has a replica set named "${name}" (${other.id})`);
  }
  const rs: ReplicaSetRecord = {
    id: ctx.world.newId('alnum'),
    name,
    ...size,
    nodes,
    pooler: false,
    environment: 'DEV',
    status: 'active',
    timeline: { status: 'creating', until: ctx.now + ctx.clock.scale(DURATIONS.replicaSetCreating), then: 'active' },
  };
  svc.replicaSets.set(rs.id, rs);
  return { status: 202, body: toReplicaSetDto(project.id, svc, rs, ctx.now, ctx.dialect, 'creating'), mutated: true };
}
