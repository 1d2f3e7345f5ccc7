// A service's settings that the create body carries (SPEC section 1): name, addons, region, size,
// environment and HA; service.ts holds the rest and the kind's field set.
import { isTimeSeriesType, REGION_CODE_REGEX } from '../api-values.js';
import type { FieldChange } from '../plan.js';
import type { Addon, DesiredService, HaConfig, LiveService, ServiceSize } from '../resources.js';
import { isAllowedServiceSize } from '../sizes.js';
import { regionCodeSchema, sizeSchema } from './common.js';
import { environmentField, nameField } from './shared-fields.js';
import type { ServiceFieldsDto } from './service.js';
import { fieldChange, type FieldDescriptor, type FieldStep } from './types.js';
import { isShared, serviceTypeOf, sizeEquals, sizeWire, typeMatches, typeSatisfies } from './values.js';
import { num, str, type ResourceSpecDto } from './wire.js';

type Field = FieldDescriptor<DesiredService, LiveService, ServiceFieldsDto>;
type Raw = Record<string, unknown>;

export const name: Field = { ...nameField<DesiredService, LiveService, ServiceFieldsDto>('service'), fork: true };

const ADDONS: readonly Addon[] = ['ai', 'time-series'];

/**
 * The addons as the config spells them: those the API reports (the type says whether time-series
 * is among them), else what the type alone tells. VECTOR, the legacy spelling of a plain service
 * with AI, exports as `[ai]`, not as nothing.
 */
function addonsOf(l: LiveService): Addon[] | undefined {
  const fromType: Addon[] | undefined = isTimeSeriesType(l.serviceType)
    ? ['time-series']
    : l.serviceType === 'POSTGRES'
      ? []
      : l.serviceType === 'VECTOR'
        ? ['ai']
        : undefined;
  if (fromType === undefined) return undefined;
  const reported = (l.addons ?? []).filter((a) => a !== 'time-series');
  return [...new Set([...fromType, ...reported])].sort();
}

// The type says whether time-series is asked for; `ai` is seen only in the addons.
export const addons: Field = {
  id: 'addons',
  schema: {
    addons: {
      type: 'array',
      description: 'Extensions: time-series (service type TIMESERIESDB; without it POSTGRES) and ai. Changing them replaces the service.',
      items: { enum: ['time-series', 'ai'], description: 'time-series or ai.' },
    },
  },
  desired: (raw, into) => {
    if (Array.isArray(raw.addons)) into.addons = [...new Set(raw.addons as Addon[])].sort();
  },
  wire: (w, into) => {
    into.serviceType = str(w.service_type) ?? 'UNKNOWN';
    // Addons dbform knows, sorted and once each; anything newer is not dbform's to manage.
    if (Array.isArray(w.addons)) into.addons = ADDONS.filter((a) => (w.addons as unknown[]).includes(a));
  },
  live: (l) => l.serviceType,
  record: (d) => (d.addons ? serviceTypeOf(d.addons) : undefined),
  same: (recorded, live) => typeSatisfies(recorded as ReturnType<typeof serviceTypeOf>, live as string),
  fingerprint: 'service_type',
  replace: (d, l) => (d.addons === undefined || typeMatches(d.addons, l.serviceType) ? undefined : [fieldChange('service_type', l.serviceType, serviceTypeOf(d.addons), true)]),
  create: (d, body) => {
    if (!d.addons) return;
    body.request.addons = [...d.addons];
    if (d.addons.includes('ai')) body.changes.push(fieldChange('addons', null, [...d.addons]));
    body.changes.push(fieldChange('service_type', null, serviceTypeOf(d.addons)));
  },
  export: (l, ctx) => {
    const list = addonsOf(l);
    return list ? { values: { addons: list } } : { unmanaged: `service_type ${ctx.quote(l.serviceType)} has no addons spelling: addons left unmanaged` };
  },
};

export const regionCode: Field = {
  id: 'region_code',
  schema: { region_code: regionCodeSchema('Cloud region of the service, such as us-east-1 or az-eastus2. Left out, the service chooses. Changing it replaces the service.') },
  desired: (raw, into) => {
    if (raw.region_code !== undefined) into.regionCode = raw.region_code as string;
  },
  wire: (w, into) => void (into.regionCode = str(w.region_code) ?? ''),
  live: (l) => l.regionCode,
  record: (d) => d.regionCode,
  fingerprint: 'region_code',
  replace: (d, l) => (d.regionCode === undefined || d.regionCode === l.regionCode ? undefined : [fieldChange('region_code', l.regionCode, d.regionCode, true)]),
  create: (d, body) => {
    if (!d.regionCode) return;
    body.request.region_code = d.regionCode;
    body.changes.push(fieldChange('region_code', null, d.regionCode));
  },
  export: (l, ctx) =>
    REGION_CODE_REGEX.test(l.regionCode) ? { values: { region_code: l.regionCode } } : { unmanaged: `region ${ctx.quote(l.regionCode)} is not a region code: region_code left unmanaged` },
};

/**
 * Size from `resources[0].spec`: positive numbers are a dedicated size; `volume_type: shared` or
 * absent/zero numbers mean shared; no spec at all means unknown (undefined).
 */
export function sizeOfSpec(spec: ResourceSpecDto | undefined): ServiceSize | undefined {
  if (spec === undefined || spec === null || typeof spec !== 'object') return undefined;
  const cpu = num(spec.cpu_millis);
  const memory = num(spec.memory_gbs);
  if (spec.volume_type !== 'shared' && cpu !== undefined && memory !== undefined && cpu > 0 && memory > 0) return { cpuMillis: cpu, memoryGbs: memory };
  return { cpuMillis: 'shared', memoryGbs: 'shared' };
}

function sizeChanges(before: ServiceSize, after: ServiceSize): FieldChange[] {
  const changes: FieldChange[] = [];
  if (before.cpuMillis !== after.cpuMillis) changes.push(fieldChange('cpu_millis', before.cpuMillis, after.cpuMillis));
  if (before.memoryGbs !== after.memoryGbs) changes.push(fieldChange('memory_gbs', before.memoryGbs, after.memoryGbs));
  return changes;
}

// cpu_millis and memory_gbs are one pair (SPEC section 9): one field, one resize.
export const size: Field = {
  id: 'size',
  schema: { cpu_millis: sizeSchema('cpu_millis', true), memory_gbs: sizeSchema('memory_gbs', true) },
  desired: (raw, into) => {
    if (raw.cpu_millis !== undefined) into.size = { cpuMillis: raw.cpu_millis as number | 'shared', memoryGbs: raw.memory_gbs as number | 'shared' };
  },
  wire: (w, into) => {
    const found = sizeOfSpec(Array.isArray(w.resources) ? w.resources[0]?.spec : undefined);
    if (found) into.size = found;
  },
  live: (l) => l.size ?? null,
  record: (d) => d.size,
  fingerprint: 'size',
  // A service can leave the shared tier by resize but never return to it (docs/api-behaviour.md).
  replace: (d, l) => (d.size && l.size && isShared(d.size) && !isShared(l.size) ? [fieldChange('cpu_millis', l.size.cpuMillis, d.size.cpuMillis, true), fieldChange('memory_gbs', l.size.memoryGbs, d.size.memoryGbs, true)] : undefined),
  update: (d, l) => {
    if (!d.size || !l.size || isShared(d.size) || sizeEquals(d.size, l.size)) return undefined;
    return { op: 'resizeService', changes: sizeChanges(l.size, d.size), request: { cpu_millis: sizeWire(d.size.cpuMillis), memory_gbs: sizeWire(d.size.memoryGbs) } };
  },
  create: (d, body) => {
    if (!d.size) return;
    body.request.cpu_millis = sizeWire(d.size.cpuMillis);
    body.request.memory_gbs = sizeWire(d.size.memoryGbs);
    body.changes.push(fieldChange('cpu_millis', null, d.size.cpuMillis), fieldChange('memory_gbs', null, d.size.memoryGbs));
  },
  fork: true,
  export: (l) => {
    if (l.size && isAllowedServiceSize(l.size.cpuMillis, l.size.memoryGbs)) return { values: { cpu_millis: l.size.cpuMillis, memory_gbs: l.size.memoryGbs } };
    return { unmanaged: l.size ? `size ${l.size.cpuMillis}/${l.size.memoryGbs} is not an allowed size: left unmanaged` : 'the API reports no size: cpu_millis and memory_gbs left unmanaged' };
  },
};

export const environment: Field = {
  ...environmentField<DesiredService, LiveService, ServiceFieldsDto>('service', 'setEnvironment'),
  create: (d, body) => {
    if (!d.environment) return;
    body.request.environment_tag = d.environment;
    body.changes.push(fieldChange('environment', null, d.environment));
  },
  fork: true,
};

export function mapHa(ha: ServiceFieldsDto['ha_replicas']): HaConfig {
  return { replicas: num(ha?.replica_count) ?? 0, syncReplicas: num(ha?.sync_replica_count) ?? 0 };
}

const haStep = (before: HaConfig, after: HaConfig): FieldStep => {
  const changes: FieldChange[] = [];
  if (before.replicas !== after.replicas) changes.push(fieldChange('ha.replicas', before.replicas, after.replicas));
  if (before.syncReplicas !== after.syncReplicas) changes.push(fieldChange('ha.sync_replicas', before.syncReplicas, after.syncReplicas));
  return { op: 'setHAReplica', changes, request: { replica_count: after.replicas, sync_replica_count: after.syncReplicas } };
};

export const ha: Field = {
  id: 'ha',
  schema: {
    ha: {
      type: ['object', 'null'],
      description: 'High-availability replicas. null means none (replicas 0, sync_replicas 0).',
      additionalProperties: false,
      properties: {
        replicas: { type: 'integer', minimum: 0, maximum: 2, description: 'Number of HA replicas, 0-2 (default 0).' },
        sync_replicas: { type: 'integer', minimum: 0, maximum: 1, description: 'How many of the HA replicas are synchronous, 0-1 (default 0); 1 needs replicas: 2.' },
      },
    },
  },
  desired: (raw, into) => {
    if (raw.ha === undefined) return;
    const v = (raw.ha ?? {}) as Raw;
    into.ha = { replicas: (v.replicas as number | undefined) ?? 0, syncReplicas: (v.sync_replicas as number | undefined) ?? 0 };
  },
  wire: (w, into) => void (into.ha = mapHa(w.ha_replicas)),
  live: (l) => l.ha,
  record: (d) => d.ha,
  fingerprint: 'ha',
  update: (d, l) => (!d.ha || (d.ha.replicas === l.ha.replicas && d.ha.syncReplicas === l.ha.syncReplicas) ? undefined : haStep(l.ha, d.ha)),
  // The create body sets the replica count only.
  create: (d, body) => {
    if (!d.ha) return;
    body.request.replica_count = d.ha.replicas;
    body.changes.push(fieldChange('ha.replicas', null, d.ha.replicas));
  },
  // What the create body could not express: sync replicas, or any HA on a fork (forks start with none).
  afterCreate: (d, forked) => {
    if (!d.ha || (!forked && d.ha.syncReplicas === 0) || (forked && d.ha.replicas === 0 && d.ha.syncReplicas === 0)) return undefined;
    const changes = forked ? [fieldChange('ha.replicas', 0, d.ha.replicas)] : [];
    if (d.ha.syncReplicas !== 0) changes.push(fieldChange('ha.sync_replicas', 0, d.ha.syncReplicas));
    return { op: 'setHAReplica', changes, request: { replica_count: d.ha.replicas, sync_replica_count: d.ha.syncReplicas } };
  },
  export: (l) => {
    const { replicas, syncReplicas } = l.ha;
    if ([0, 1, 2].includes(replicas) && [0, 1].includes(syncReplicas) && (syncReplicas === 0 || replicas === 2)) return { values: { ha: { map: { replicas, sync_replicas: syncReplicas } } } };
    return { unmanaged: `HA ${replicas}/${syncReplicas} (replicas/sync) cannot be written in a config: ha left unmanaged` };
  },
};

