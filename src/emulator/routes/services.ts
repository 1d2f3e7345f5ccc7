import { randomBytes } from 'node:crypto';
import type { AddonDto, ForkStrategyDto, ServiceDto } from '../../api/dto.js';
import { DURATIONS } from '../clock.js';
import { invalidField } from '../errors.js';
import type { RequestContext, Route, RouteResult } from '../router.js';
import type { HaRecord, ProjectRecord, ServiceRecord, ServiceSize } from '../store.js';
import { buildTimeline, initialStatus, settleService } from '../timelines.js';
import {
  bodyObject,
  ENVIRONMENTS,
  optionalEnum,
  optionalInt,
  optionalString,
  parseRfc3339,
  requireEnum,
  requireName,
  sizePair,
  type Body,
} from '../validate.js';
import { toServiceDto } from '../views.js';
import { liveServiceOf, ok, operableServiceOf, projectOf, requireBackup, requireReady, serviceOf } from './common.js';

const BASE = '/projects/{project_id}/services';
const ADDONS: readonly AddonDto[] = ['time-series', 'ai'];
const FORK_STRATEGIES: readonly ForkStrategyDto[] = ['LAST_SNAPSHOT', 'NOW', 'PITR'];

export const serviceRoutes: Route[] = [
  {
    method: 'GET',
    template: BASE,
    handle(ctx) {
      const project = projectOf(ctx);
      const out: ServiceDto[] = [];
      for (const svc of project.services.values()) {
        if (settleService(project, svc, ctx.now)) out.push(toServiceDto(project, svc, ctx.now, ctx.dialect));
      }
      return ok(out);
    },
  },
  { method: 'POST', template: BASE, handle: createService },
  {
    method: 'GET',
    template: `${BASE}/{service_id}`,
    handle(ctx) {
      const project = projectOf(ctx);
      return ok(toServiceDto(project, serviceOf(ctx, project), ctx.now, ctx.dialect));
    },
  },
  { method: 'DELETE', template: `${BASE}/{service_id}`, handle: deleteService },
  { method: 'POST', template: `${BASE}/{service_id}/forkService`, handle: forkService },
];

function createService(ctx: RequestContext): RouteResult {
  const project = projectOf(ctx);
  const b = bodyObject(ctx.body);
  const name = requireName(b);
  const addons = optionalAddons(b);
  const size = sizePair(b, { optional: true, allowShared: true, sizes: ctx.dialect.sizes }) ?? 'shared';
  const environment = optionalEnum(b, 'environment_tag', ENVIRONMENTS) ?? 'DEV';
  const regionCode = optionalString(b, 'region_code', { max: 64, pattern: ctx.dialect.regionPattern, hint: ctx.dialect.regionHint }) ?? 'us-east-1';
  const replicaCount = optionalInt(b, 'replica_count', 0, 2) ?? 0;
  const svc = addService(ctx, project, {
    name,
    regionCode,
    serviceType: addons.includes('time-series') ? 'TIMESERIESDB' : 'POSTGRES',
    addons,
    size,
    ha: { replicaCount, syncReplicaCount: 0 },
    environment,
  });
  return bornAnswer(ctx, project, svc);
}

function forkService(ctx: RequestContext): RouteResult {
  const project = projectOf(ctx);
  const parent = operableServiceOf(ctx, project);
  const b = bodyObject(ctx.body);
  const strategy = requireEnum(b, 'fork_strategy', FORK_STRATEGIES);
  const size = sizePair(b, { optional: true, allowShared: true, sizes: ctx.dialect.sizes });
  const environment = optionalEnum(b, 'environment_tag', ENVIRONMENTS) ?? 'DEV';
  const name = b.name === undefined ? `${[...parent.name].slice(0, 123).join('')}-fork` : requireName(b);
  checkTargetTime(b, strategy, parent, ctx.now);
  requireReady(parent, ctx.now, 'fork');
  requireBackup(parent, ctx.now);
  const svc = addService(ctx, project, {
    name,
    regionCode: parent.regionCode,
    serviceType: parent.serviceType,
    ...(parent.addons ? { addons: [...parent.addons] } : {}),
    size: size ?? copySize(parent.size),
    ha: { replicaCount: 0, syncReplicaCount: 0 },
    environment,
    forkedFrom: { projectId: project.id, serviceId: parent.id },
    storageOf: parent.storageOf ?? parent.id,
  });
  return bornAnswer(ctx, project, svc);
}

function checkTargetTime(b: Body, strategy: ForkStrategyDto, parent: ServiceRecord, now: number): void {
  const raw = b.target_time;
  if (strategy !== 'PITR') {
    if (raw !== undefined) throw invalidField('target_time', 'is only allowed with fork_strategy PITR');
    return;
  }
  if (raw === undefined) throw invalidField('target_time', 'is required with fork_strategy PITR');
  if (typeof raw !== 'string') throw invalidField('target_time', 'must be an RFC 3339 timestamp string');
  const at = parseRfc3339(raw);
  if (at === undefined) throw invalidField('target_time', `must be an RFC 3339 timestamp such as 2026-01-02T03:04:05Z (got "${raw.slice(0, 40)}")`);
  if (at >= now) throw invalidField('target_time', `must be in the past (got ${raw})`);
  if (at < parent.createdAt) {
    throw invalidField('target_time', `must not be before the parent's creation at ${new Date(parent.createdAt).toISOString()} (got ${raw})`);
  }
}

function deleteService(ctx: RequestContext): RouteResult {
  const project = projectOf(ctx);
  const svc = liveServiceOf(ctx, project);
  const timeline = buildTimeline(ctx.clock, ctx.now, [['DELETING', DURATIONS.deleting]], 'GONE');
  svc.timeline = timeline;
  const until = timeline.steps[0]!.until;
  releaseAttachment(ctx, project, svc, until);
  for (const rs of svc.replicaSets.values()) rs.timeline = { status: 'deleting', until, then: 'GONE' };
  // No body, as both documents describe (SPEC section 12): the status is read from the list.
  return { status: 202, mutated: true };
}

/**
 * A deleted service's VPC attachment: released at once (the VPC can be deleted right after), or,
 * under eventual teardown, going away with the service (its VPC refuses deletion until then).
 */
function releaseAttachment(ctx: RequestContext, project: ProjectRecord, svc: ServiceRecord, until: number): void {
  if (!svc.vpc) return;
  if (ctx.dialect.switches.teardown === 'eventual') {
    svc.vpc = { vpcId: svc.vpc.vpcId, pending: 'detach', until };
    return;
  }
  project.vpcs.get(svc.vpc.vpcId)?.attached.delete(svc.id);
  delete svc.vpc;
}

interface NewService {
  name: string;
  regionCode: string;
  serviceType: ServiceRecord['serviceType'];
  addons?: AddonDto[];
  size: ServiceSize;
  ha: HaRecord;
  environment: ServiceRecord['environment'];
  forkedFrom?: ServiceRecord['forkedFrom'];
  storageOf?: string;
}

function addService(ctx: RequestContext, project: ProjectRecord, fields: NewService): ServiceRecord {
  const svc: ServiceRecord = {
    id: ctx.world.newId('alnum'),
    ...fields,
    createdAt: ctx.now,
    resourceId: ctx.world.newId('alnum'),
    pooler: false,
    status: 'READY',
    timeline: buildTimeline(ctx.clock, ctx.now, [['QUEUED', DURATIONS.queued], ['CONFIGURING', DURATIONS.configuring]], 'READY'),
    replicaSets: new Map(),
  };
  if (!fields.forkedFrom) delete svc.forkedFrom;
  if (!fields.storageOf) delete svc.storageOf;
  // Its first backup is taken a while after it becomes READY (SPEC section 15): none before.
  const readyAt = svc.timeline!.steps[svc.timeline!.steps.length - 1]!.until;
  const delay = ctx.clock.scale(ctx.dialect.switches.backupDelay * 1000);
  if (delay > 0) svc.backupAt = readyAt + delay;
  project.services.set(svc.id, svc);
  return svc;
}

/** The 202 of a create or fork: transitional status and the only appearance of the password. */
function bornAnswer(ctx: RequestContext, project: ProjectRecord, svc: ServiceRecord): RouteResult {
  const initialPassword = randomBytes(18).toString('base64url');
  const body = toServiceDto(project, svc, ctx.now, ctx.dialect, { status: initialStatus(svc.timeline!), initialPassword });
  return { status: 202, body, mutated: true };
}

function optionalAddons(b: Body): AddonDto[] {
  const v = b.addons;
  if (v === undefined) return [];
  if (!Array.isArray(v)) throw invalidField('addons', `must be an array of ${ADDONS.join(', ')}`);
  v.forEach((item, i) => {
    if (typeof item !== 'string' || !(ADDONS as readonly string[]).includes(item)) {
      throw invalidField(`addons[${i}]`, `must be one of ${ADDONS.join(', ')} (got ${JSON.stringify(item)})`);
    }
  });
  // Kept sorted and once each, as the service reports them back.
  return [...new Set(v as AddonDto[])].sort();
}

function copySize(size: ServiceSize): ServiceSize {
  return size === 'shared' ? 'shared' : { ...size };
}
