import { DURATIONS } from '../clock.js';
import { conflict, invalidField } from '../errors.js';
import type { RequestContext, Route, RouteResult } from '../router.js';
import type { HaRecord, ProjectRecord, ServiceRecord, ServiceTimeline } from '../store.js';
import { attachmentPhaseAt, buildTimeline, initialStatus, serviceStatusAt } from '../timelines.js';
import { bodyObject, ENVIRONMENTS, optionalInt, requireEnum, requireName, requireString, sizePair, type Body } from '../validate.js';
import { toServiceDto } from '../views.js';
import { message, noContent, operableServiceOf, projectOf, requireReady, requireVpcCreated, vpcOf } from './common.js';

const BASE = '/projects/{project_id}/services/{service_id}';

type Action = (ctx: RequestContext, project: ProjectRecord, svc: ServiceRecord) => RouteResult;

function route(name: string, action: Action): Route {
  return {
    method: 'POST',
    template: `${BASE}/${name}`,
    handle(ctx) {
      const project = projectOf(ctx);
      return action(ctx, project, operableServiceOf(ctx, project));
    },
  };
}

/** Starts a transition and answers 202 with its first status. */
function transition(ctx: RequestContext, project: ProjectRecord, svc: ServiceRecord, timeline: ServiceTimeline): RouteResult {
  svc.timeline = timeline;
  return { status: 202, body: toServiceDto(project, svc, ctx.now, ctx.dialect, { status: initialStatus(timeline) }), mutated: true };
}

export const serviceActionRoutes: Route[] = [
  route('start', (ctx, project, svc) => {
    const status = serviceStatusAt(svc, ctx.now);
    if (status !== 'PAUSED') throw conflict(`cannot start service "${svc.id}" while it is ${status} (it must be PAUSED)`);
    return transition(ctx, project, svc, buildTimeline(ctx.clock, ctx.now, [['RESUMING', DURATIONS.resuming]], 'READY'));
  }),
  route('stop', (ctx, project, svc) => {
    requireReady(svc, ctx.now, 'stop');
    return transition(ctx, project, svc, buildTimeline(ctx.clock, ctx.now, [['PAUSING', DURATIONS.pausing]], 'PAUSED'));
  }),
  route('resize', (ctx, project, svc) => {
    const size = sizePair(bodyObject(ctx.body), { optional: false, allowShared: false, sizes: ctx.dialect.sizes })!;
    requireReady(svc, ctx.now, 'resize');
    const timeline = buildTimeline(ctx.clock, ctx.now, [['UPGRADING', DURATIONS.upgrading]], 'READY');
    timeline.size = size;
    return transition(ctx, project, svc, timeline);
  }),
  route('setHA', (ctx, project, svc) => {
    const ha = haOf(bodyObject(ctx.body));
    requireReady(svc, ctx.now, 'change HA of');
    const timeline = buildTimeline(ctx.clock, ctx.now, [['UPGRADING', DURATIONS.upgrading]], 'READY');
    timeline.ha = ha;
    return transition(ctx, project, svc, timeline);
  }),
  route('attachToVPC', attachToVpc),
  route('detachFromVPC', detachFromVpc),
  route('enablePooler', (_ctx, _project, svc) => {
    svc.pooler = true;
    return message(200, `connection pooler enabled for service "${svc.id}"`);
  }),
  route('disablePooler', (_ctx, _project, svc) => {
    svc.pooler = false;
    return message(200, `connection pooler disabled for service "${svc.id}"`);
  }),
  route('setEnvironment', (ctx, _project, svc) => {
    svc.environment = requireEnum(bodyObject(ctx.body), 'environment', ENVIRONMENTS);
    return message(200, `environment of service "${svc.id}" set to ${svc.environment}`);
  }),
  route('updatePassword', (ctx) => {
    // Checked, then dropped: the emulator never keeps a secret (not even in its state file).
    requireString(bodyObject(ctx.body), 'password', { max: 1024 });
    return noContent();
  }),
];

/**
 * Rename in place (the real service's OpenAPI; SPEC section 15): 200 with the Service, in any status
 * but DELETING and FAILED. Only dialects that have it serve it (dialect.ts `renamesServices`).
 */
export const renameServiceRoute: Route = route('rename', (ctx, project, svc) => {
  svc.name = requireName(bodyObject(ctx.body));
  return { status: 200, body: toServiceDto(project, svc, ctx.now, ctx.dialect), mutated: true };
});

/** An omitted count means 0 (HA replicas are asynchronous unless asked otherwise). */
function haOf(b: Body): HaRecord {
  const replicaCount = optionalInt(b, 'replica_count', 0, 2);
  const syncReplicaCount = optionalInt(b, 'sync_replica_count', 0, 1);
  if (replicaCount === undefined && syncReplicaCount === undefined) {
    throw invalidField('replica_count', 'at least one of replica_count and sync_replica_count is required');
  }
  const ha = { replicaCount: replicaCount ?? 0, syncReplicaCount: syncReplicaCount ?? 0 };
  if (ha.syncReplicaCount === 1 && ha.replicaCount !== 2) {
    throw invalidField('sync_replica_count', `1 needs replica_count 2 (got replica_count ${ha.replicaCount})`);
  }
  return ha;
}

/** VPC IDs are digit strings (SPEC section 9, the OpenAPI's ServiceVPCInput): anything else is a 400, not a 404. */
function requireVpcId(ctx: RequestContext): string {
  return requireString(bodyObject(ctx.body), 'vpc_id', { max: 64, pattern: /^[0-9]+$/, hint: 'must be a VPC ID (a string of digits)' });
}

function attachToVpc(ctx: RequestContext, project: ProjectRecord, svc: ServiceRecord): RouteResult {
  const vpcId = requireVpcId(ctx);
  const vpc = vpcOf(ctx, project, vpcId);
  requireReady(svc, ctx.now, 'attach');
  requireVpcCreated(vpc, ctx.now, 'attach to');
  const phase = attachmentPhaseAt(svc, ctx.now);
  if (phase === 'attaching' || phase === 'detaching') {
    throw conflict(`service "${svc.id}" has a VPC ${phase === 'attaching' ? 'attach' : 'detach'} in progress`);
  }
  if (phase === 'attached') throw conflict(`service "${svc.id}" is already attached to vpc "${svc.vpc!.vpcId}"; detach it first`);
  if (vpc.regionCode !== svc.regionCode) {
    throw conflict(`vpc "${vpc.id}" is in ${vpc.regionCode} but service "${svc.id}" is in ${svc.regionCode}`);
  }
  svc.vpc = { vpcId, pending: 'attach', until: ctx.now + ctx.clock.scale(DURATIONS.vpcAttachment) };
  vpc.attached.add(svc.id);
  return message(202, `service "${svc.id}" is attaching to vpc "${vpcId}"`);
}

function detachFromVpc(ctx: RequestContext, _project: ProjectRecord, svc: ServiceRecord): RouteResult {
  const vpcId = requireVpcId(ctx);
  requireReady(svc, ctx.now, 'detach');
  const phase = attachmentPhaseAt(svc, ctx.now);
  if (phase === 'attaching' || phase === 'detaching') {
    throw conflict(`service "${svc.id}" has a VPC ${phase === 'attaching' ? 'attach' : 'detach'} in progress`);
  }
  if (phase !== 'attached' || svc.vpc!.vpcId !== vpcId) throw conflict(`service "${svc.id}" is not attached to vpc "${vpcId}"`);
  svc.vpc = { vpcId, pending: 'detach', until: ctx.now + ctx.clock.scale(DURATIONS.vpcAttachment) };
  return message(202, `service "${svc.id}" is detaching from vpc "${vpcId}"`);
}
