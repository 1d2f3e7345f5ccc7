// In-place changes of a live service (SPEC section 3): size, HA, environment, pooler, VPC and
// password each map to their own operation. Start and stop are added by paused.ts, which needs
// to see every other change first.
import type { DesiredService, FieldChange, LiveService, LockEntry } from '../../model/index.js';
import { refTo, type PlanContext } from '../context.js';
import { change, draft, type Draft } from '../drafts.js';
import { isShared, liveEnvironment, serviceTypeOf, sizeEquals, sizeWire, typeMatches } from '../normalize.js';
import { passwordDraft } from './service-create.js';
import { planServiceVpc } from './service-vpc.js';

/** Changes that cannot be made in place: the service would have to be replaced. */
export function serviceReplaceChanges(d: DesiredService, l: LiveService): FieldChange[] {
  const out: FieldChange[] = [];
  if (d.name !== l.name) out.push(change('name', l.name, d.name, true));
  if (d.regionCode !== undefined && d.regionCode !== l.regionCode) out.push(change('region_code', l.regionCode, d.regionCode, true));
  if (d.addons !== undefined && !typeMatches(d.addons, l.serviceType)) {
    out.push(change('service_type', l.serviceType, serviceTypeOf(d.addons), true));
  }
  // A service can leave the shared tier by resize but never return to it (docs/api-behaviour.md).
  if (d.size && l.size && isShared(d.size) && !isShared(l.size)) {
    out.push(change('cpu_millis', l.size.cpuMillis, d.size.cpuMillis, true), change('memory_gbs', l.size.memoryGbs, d.size.memoryGbs, true));
  }
  return out;
}

type Op = (d: DesiredService, l: LiveService) => Omit<Parameters<typeof draft>[0], 'address' | 'kind' | 'reason'> | undefined;

const resize: Op = (d, l) => {
  if (!d.size || !l.size || isShared(d.size) || sizeEquals(d.size, l.size)) return undefined;
  const changes: FieldChange[] = [];
  if (d.size.cpuMillis !== l.size.cpuMillis) changes.push(change('cpu_millis', l.size.cpuMillis, d.size.cpuMillis));
  if (d.size.memoryGbs !== l.size.memoryGbs) changes.push(change('memory_gbs', l.size.memoryGbs, d.size.memoryGbs));
  return { op: 'resizeService', changes, request: { cpu_millis: sizeWire(d.size.cpuMillis), memory_gbs: sizeWire(d.size.memoryGbs) } };
};

const setHa: Op = (d, l) => {
  if (!d.ha || (d.ha.replicas === l.ha.replicas && d.ha.syncReplicas === l.ha.syncReplicas)) return undefined;
  const changes: FieldChange[] = [];
  if (d.ha.replicas !== l.ha.replicas) changes.push(change('ha.replicas', l.ha.replicas, d.ha.replicas));
  if (d.ha.syncReplicas !== l.ha.syncReplicas) changes.push(change('ha.sync_replicas', l.ha.syncReplicas, d.ha.syncReplicas));
  return { op: 'setHAReplica', changes, request: { replica_count: d.ha.replicas, sync_replica_count: d.ha.syncReplicas } };
};

const setEnvironment: Op = (d, l) => {
  const live = liveEnvironment(l.environment);
  if (d.environment === undefined || d.environment === live) return undefined;
  return { op: 'setEnvironment', changes: [change('environment', live, d.environment)], request: { environment: d.environment } };
};

const pooler: Op = (d, l) => {
  if (d.pooler === undefined || d.pooler === l.pooler) return undefined;
  return { op: d.pooler ? 'enablePooler' : 'disablePooler', changes: [change('pooler', l.pooler, d.pooler)] };
};

const IN_PLACE: Op[] = [resize, setHa, setEnvironment, pooler];

/** Passwords diff only by version: the value is write-only and never read back. */
export function passwordNeedsUpdate(d: DesiredService, entry: LockEntry | undefined): boolean {
  return d.password !== undefined && entry?.passwordVersion !== d.password.version;
}

export function planServiceUpdate(d: DesiredService, l: LiveService, entry: LockEntry | undefined, ctx: PlanContext): Draft[] {
  const out: Draft[] = [];
  for (const op of IN_PLACE) {
    const init = op(d, l);
    if (init) out.push(draft({ address: d.address, kind: 'service', reason: 'changed', refs: { target: refTo(ctx, d.address) }, ...init }));
  }
  out.push(...planServiceVpc(d, l, ctx));
  if (passwordNeedsUpdate(d, entry)) out.push(passwordDraft(d, 'changed', ctx, entry?.passwordVersion));
  return out;
}
