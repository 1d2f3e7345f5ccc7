import { randomBytes } from 'node:crypto';
import type { AddonDto, ForkStrategyDto, ServiceDto } from '../../api/dto.js';
import { DURATIONS } from '../clock.js';
import { invalidField } from '../errors.js';
import type { RequestContext, Route, RouteResult } from '../router.js';
import type { HaRecord, ProjectRecord, ServiceRecord, ServiceSize } from '../store.js';
import { buildTimeline, initialStatus, settleService } from '../timelines.js';
import {
  bodyObject,
  charCount,
  ENVIRONMENTS,
  optionalEnum,
  optionalInt,
  optionalString,
  parseRfc3339,
  REGION_PATTERN,
  requireEnum,
  sizePair,
  type Body,
} from '../validate.js';
import { toServiceDto } from '../views.js';
import { liveServiceOf, ok, projectOf, requireReady, serviceOf } from './common.js';
import { REGION_HINT } from './vpcs.js';

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
        if (settleService(project, svc, ctx.now)) out.push(toServiceDto(project, svc, ctx.now));
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
      return ok(toServiceDto(project, serviceOf(ctx, project), ctx.now));
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
  const size = sizePair(b, { optional: true, allowShared: true }) ?? 'shared';
  const environment = optionalEnum(b, 'environment_tag', ENVIRONMENTS) ?? 'DEV';
  const regionCode = optionalString(b, 'region_code', { max: 64, pattern: REGION_PATTERN, hint: REGION_HINT }) ?? 'us-east-1';
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
  return bornAnswer(project, svc, ctx.now);
}

function forkService(ctx: RequestContext): RouteResult {
  const project = projectOf(ctx);
  const parent = liveServiceOf(ctx, project);
  const b = bodyObject(ctx.body);
  const strategy = requireEnum(b, 'fork_strategy', FORK_STRATEGIES);
  const size = sizePair(b, { optional: true, allowShared: true });
  const environment = optionalEnum(b, 'environment_tag', ENVIRONMENTS) ?? 'DEV';
  const name = b.name === undefined ? `${[...parent.name].slice(0, 123).join('')}-fork` : requireName(b);
  checkTargetTime(b, strategy, parent, ctx.now);
  requireReady(parent, ctx.now, 'fork');
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
  return bornAnswer(project, svc, ctx.now);
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
  // The attachment goes at once, so the VPC can be deleted right after; replica sets go with it.
  if (svc.vpc) {
    project.vpcs.get(svc.vpc.vpcId)?.attached.delete(svc.id);
    delete svc.vpc;
  }
  const until = timeline.steps[0]!.until;
  for (const rs of svc.replicaSets.values()) rs.timeline = { status: 'deleting', until, then: 'GONE' };
  return { status: 202, body: toServiceDto(project, svc, ctx.now, { status: 'DELETING' }), mutated: true };
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
  project.services.set(svc.id, svc);
  return svc;
}

/** The 202 of a create or fork: transitional status and the only appearance of the password. */
function bornAnswer(project: ProjectRecord, svc: ServiceRecord, now: number): RouteResult {
  const initialPassword = randomBytes(18).toString('base64url');
  const body = toServiceDto(project, svc, now, { status: initialStatus(svc.timeline!), initialPassword });
  return { status: 202, body, mutated: true };
}

function requireName(b: Body): string {
  const v = b.name;
  if (v === undefined) throw invalidField('name', 'is required');
  if (typeof v !== 'string') throw invalidField('name', 'must be a string');
  const length = charCount(v);
  if (length < 1 || length > 128) throw invalidField('name', `must be 1-128 characters long (got ${length})`);
  return v;
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
