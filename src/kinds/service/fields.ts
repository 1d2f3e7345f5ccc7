// A service's managed fields (SPEC section 1), one descriptor each (src/model/fields/types.ts),
// its wire body, and the operations that change it: the settings a create carries (name, addons,
// region, size, environment, HA), then the switches and write-only ones. Adding a field:
// docs/adding-a-field.md.
import {
  del,
  post,
  PROJECT_ROUTE,
  readLiveFields,
  endpointOf,
  ENV_NAME_REGEX,
  environmentField,
  fieldChange,
  flagOf,
  isAllowedServiceSize,
  isLivePaused,
  isPresent,
  isShared,
  isTimeSeriesType,
  keySchema,
  nameField,
  num,
  REGION_CODE_REGEX,
  regionCodeSchema,
  sensitiveChange,
  serviceTypeOf,
  sizeEquals,
  sizePairProblem,
  sizeSchema,
  sizeWire,
  str,
  typeMatches,
  typeSatisfies,
  type Addon,
  type AddonDto,
  type DesiredService,
  type Endpoint,
  type EndpointDto,
  type EnvironmentTagDto,
  type FieldChange,
  type FieldDescriptor,
  type FieldEndpoint,
  type FieldSet,
  type FieldStep,
  type HaConfig,
  type LiveService,
  type MetadataDto,
  type OperationId,
  type OperationSpec,
  type ResourceSpecDto,
  type Risk,
  type ServiceSize,
  type ServiceTypeDto,
  type VpcEndpointDto,
} from '../../model/index.js';

// ---- wire -----------------------------------------------------------------------------------

export type ServiceStatusDto =
  | 'QUEUED'
  | 'CONFIGURING'
  | 'READY'
  | 'UNSTABLE'
  | 'PAUSING'
  | 'PAUSED'
  | 'RESUMING'
  | 'UPGRADING'
  | 'DELETING'
  | 'DELETED'
  | 'OPTIMIZING';
export type ForkStrategyDto = 'LAST_SNAPSHOT' | 'NOW' | 'PITR';

/** A service as the API sends it, without what other kinds embed in it (src/api/dto.ts adds that). */
export interface ServiceOwnDto {
  name: string;
  region_code: string;
  service_type: ServiceTypeDto | (string & {});
  /**
   * The addons the service was created with. Not in cloud-api.md or the real OpenAPI, which
   * report no addons at all; the emulator does, and dbform reads it when present (see
   * docs/api-behaviour.md).
   */
  addons?: Array<AddonDto | (string & {})>;
  resources: Array<{ id?: string; spec?: ResourceSpecDto }>;
  metadata?: MetadataDto;
  ha_replicas?: { replica_count?: number; sync_replica_count?: number };
  /** The real service sends `{}` for a disabled pooler, cloud-api.md leaves it out (SPEC section 12). */
  connection_pooler?: ConnectionPoolerDto;
  vpc_endpoint?: VpcEndpointDto;
  /** A camelCase duplicate some answers carry instead. */
  vpcEndpoint?: VpcEndpointDto;
  created: string;
  project_id: string;
  service_id: string;
  status: ServiceStatusDto | (string & {});
  data_tiering?: { enabled?: boolean };
  endpoint?: EndpointDto;
  forked_from?: { is_standby?: boolean; project_id?: string; service_id?: string };
  /** A secret: only in create and fork responses. */
  initial_password?: string;
  metrics?: { memory_mb?: number; milli_cpu?: number; storage_mb?: number };
}
type ServiceDto = ServiceOwnDto;

export interface CreateServiceRequestDto {
  name: string;
  addons?: AddonDto[];
  /** Digits or `shared`. */
  cpu_millis?: string;
  /** Digits or `shared`. */
  memory_gbs?: string;
  environment_tag?: EnvironmentTagDto;
  region_code?: string;
  replica_count?: number;
}

export interface ForkServiceRequestDto {
  fork_strategy: ForkStrategyDto;
  cpu_millis?: string;
  memory_gbs?: string;
  environment_tag?: EnvironmentTagDto;
  name?: string;
  /** RFC 3339; required with PITR. */
  target_time?: string;
}

export interface VpcAttachmentRequestDto {
  vpc_id: string;
}

/** `POST .../services/{id}/rename` (the real service's ServiceRename; SPEC section 15). */
export interface RenameServiceRequestDto {
  name: string;
}

export interface UpdatePasswordRequestDto {
  password: string;
}

export interface SetHaRequestDto {
  replica_count?: number;
  sync_replica_count?: number;
}

// ---- fields ---------------------------------------------------------------------------------

type Field = FieldDescriptor<DesiredService, LiveService, ServiceDto>;
type Raw = Record<string, unknown>;

/**
 * Where the API renames services in place (the real service's renameService, SPEC section 15), a
 * name change is a renameService; elsewhere (cloud-api.md has no such route) it replaces the
 * service, as every name change of a kind does.
 */
const name: Field = {
  ...nameField<DesiredService, LiveService, ServiceDto>('service'),
  fork: true,
  capability: 'renamesServices',
  replace: (d, l, api) => (d.name === l.name || api.renamesServices === true ? undefined : [fieldChange('name', l.name, d.name, true)]),
  update: (d, l, _entry, api) =>
    d.name === l.name || api.renamesServices !== true ? undefined : { op: 'renameService', changes: [fieldChange('name', l.name, d.name)], request: { name: d.name } },
};

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
const addons: Field = {
  id: 'addons',
  schema: {
    addons: {
      type: 'array',
      description: 'Extensions: time-series (service type TIMESERIESDB; without it POSTGRES) and ai. Changing them replaces the service.',
      items: { enum: ['time-series', 'ai'], description: 'time-series or ai.' },
    },
  },
  desired: (raw, into) => {
    // Sorted, each once; a list of one (the usual) is both already.
    if (Array.isArray(raw.addons)) into.addons = raw.addons.length < 2 ? [...(raw.addons as Addon[])] : [...new Set(raw.addons as Addon[])].sort();
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

const regionCode: Field = {
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
const size: Field = {
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
  check: (raw) => sizePairProblem(raw, true),
  export: (l) => {
    if (l.size && isAllowedServiceSize(l.size.cpuMillis, l.size.memoryGbs)) return { values: { cpu_millis: l.size.cpuMillis, memory_gbs: l.size.memoryGbs } };
    return { unmanaged: l.size ? `size ${l.size.cpuMillis}/${l.size.memoryGbs} is not an allowed size: left unmanaged` : 'the API reports no size: cpu_millis and memory_gbs left unmanaged' };
  },
};

const environment: Field = {
  ...environmentField<DesiredService, LiveService, ServiceDto>('service', 'setEnvironment'),
  create: (d, body) => {
    if (!d.environment) return;
    body.request.environment_tag = d.environment;
    body.changes.push(fieldChange('environment', null, d.environment));
  },
  fork: true,
};

export function mapHa(ha: ServiceDto['ha_replicas']): HaConfig {
  return { replicas: num(ha?.replica_count) ?? 0, syncReplicas: num(ha?.sync_replica_count) ?? 0 };
}

const haStep = (before: HaConfig, after: HaConfig): FieldStep => {
  const changes: FieldChange[] = [];
  if (before.replicas !== after.replicas) changes.push(fieldChange('ha.replicas', before.replicas, after.replicas));
  if (before.syncReplicas !== after.syncReplicas) changes.push(fieldChange('ha.sync_replicas', before.syncReplicas, after.syncReplicas));
  return { op: 'setHAReplica', changes, request: { replica_count: after.replicas, sync_replica_count: after.syncReplicas } };
};

const ha: Field = {
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


export interface ConnectionPoolerDto {
  endpoint?: EndpointDto;
}

/** The pooler is enabled only when it has an endpoint host (SPEC section 12). */
export const poolerEnabled = (p: ConnectionPoolerDto | undefined): boolean => str(p?.endpoint?.host) !== undefined;

/** A connection pooler switch; `what` names the kind in its description. */
export const poolerSchema = (what: string) => ({
  type: ['boolean', 'null'],
  description: `Connection pooler of the ${what} (port 6432): true enables it, false or null disables it; leave it out to leave it unmanaged.`,
});

export function readPooler(w: { connection_pooler?: ConnectionPoolerDto }, into: { pooler: boolean; poolerEndpoint?: Endpoint }): void {
  into.pooler = poolerEnabled(w.connection_pooler);
  const endpoint = endpointOf(w.connection_pooler?.endpoint);
  if (endpoint) into.poolerEndpoint = endpoint;
}

/** The pooler's endpoint: there exactly while the pooler is enabled. */
export const poolerEndpoint: FieldEndpoint<{ pooler: boolean; poolerEndpoint?: Endpoint }> = {
  prefix: 'pooler',
  when: 'while the pooler is enabled',
  of: (l) => (l.pooler ? l.poolerEndpoint : undefined),
};

/** The pooler switch of a kind, with its two ops; `what` names the kind in the schema. */
export function poolerField<D extends { pooler?: boolean }, L extends { pooler: boolean; poolerEndpoint?: Endpoint }, W extends { connection_pooler?: ConnectionPoolerDto }>(
  what: string,
  ops: { on: OperationId; off: OperationId },
): FieldDescriptor<D, L, W> {
  return {
    id: 'pooler',
    schema: { pooler: poolerSchema(what) },
    desired: (raw, into) => {
      const on = flagOf(raw.pooler);
      if (on !== undefined) into.pooler = on;
    },
    wire: readPooler,
    live: (l) => l.pooler,
    record: (d) => d.pooler,
    fingerprint: 'pooler',
    update: (d, l) => (d.pooler === undefined || d.pooler === l.pooler ? undefined : { op: d.pooler ? ops.on : ops.off, changes: [fieldChange('pooler', l.pooler, d.pooler)] }),
    afterCreate: (d) => (d.pooler ? { op: ops.on, changes: [fieldChange('pooler', false, true)] } : undefined),
    export: (l) => ({ values: { pooler: l.pooler } }),
    endpoint: poolerEndpoint,
  };
}

const pooler: Field = poolerField('service', { on: 'enablePooler', off: 'disablePooler' });

/** `vpc_endpoint`, else the camelCase duplicate `vpcEndpoint`. */
export function vpcEndpointOf(dto: Pick<ServiceDto, 'vpc_endpoint' | 'vpcEndpoint'>): VpcEndpointDto | undefined {
  return isPresent(dto.vpc_endpoint) ? dto.vpc_endpoint : isPresent(dto.vpcEndpoint) ? dto.vpcEndpoint : undefined;
}

export function vpcIdOf(dto: Pick<ServiceDto, 'vpc_endpoint' | 'vpcEndpoint'>): string | null {
  return str(dto.vpc_endpoint?.vpc_id) ?? str(dto.vpcEndpoint?.vpc_id) ?? null;
}

const vpc: Field = {
  id: 'vpc',
  schema: {
    vpc: {
      description:
        'VPC the service is attached to: a key under vpcs:, { id: "<vpc id>" } for a VPC dbform does not manage, or null to keep it detached. Leave it out to leave attachment unmanaged.',
      anyOf: [
        keySchema('a VPC under vpcs:'),
        {
          type: 'object',
          description: 'A VPC that dbform does not manage, by its ID.',
          additionalProperties: false,
          required: ['id'],
          properties: { id: { type: 'string', minLength: 1, description: 'ID of the VPC (a digit string such as 1234567890).' } },
        },
        { type: 'null', description: 'Detached from any VPC.' },
      ],
    },
  },
  desired: (raw, into) => {
    if (raw.vpc === undefined) return;
    const ref = raw.vpc as string | { id: string } | null;
    into.vpc = ref === null ? null : typeof ref === 'string' ? { key: ref } : { id: ref.id };
  },
  wire: (w, into) => {
    into.vpcId = vpcIdOf(w);
    const endpoint = endpointOf(vpcEndpointOf(w));
    if (endpoint) into.vpcEndpoint = endpoint;
  },
  live: (l) => l.vpcId,
  // A key is resolved to a live ID by the plan; an ID or null the config says itself.
  record: (d) => (d.vpc === undefined || d.vpc === null ? d.vpc : 'id' in d.vpc ? d.vpc.id : undefined),
  fingerprint: 'vpc_id',
  plannedBy: 'vpc-attachment',
  export: (l, ctx) => {
    if (l.vpcId === null) return { values: { vpc: null } };
    const key = ctx.vpcKey(l.vpcId);
    return { values: { vpc: key === undefined ? { map: { id: { quoted: l.vpcId } } } : key } };
  },
  endpoint: { prefix: 'vpc', when: 'while attached to a VPC', of: (l) => (l.vpcId !== null ? l.vpcEndpoint : undefined) },
};

const paused: Field = {
  id: 'paused',
  schema: { paused: { type: ['boolean', 'null'], description: 'true stops the service, false or null keeps it running; leave it out to leave it unmanaged.' } },
  desired: (raw, into) => {
    const on = flagOf(raw.paused);
    if (on !== undefined) into.paused = on;
  },
  // Coarse on purpose: QUEUED -> CONFIGURING -> READY must not make a saved plan stale.
  live: (l) => isLivePaused(l),
  record: (d) => d.paused,
  fingerprint: 'paused',
  plannedBy: 'start-stop',
  export: (l) => ({ values: { paused: isLivePaused(l) } }),
};

/**
 * The password is write-only: it diffs by version against the lockfile, never by value. The
 * version is not secret and tells a reviewer that this is a rotation, or a new service's first.
 */
function passwordStep(d: DesiredService, appliedVersion: number | undefined): FieldStep {
  const { fromEnv, version } = d.password!;
  return { op: 'updatePassword', changes: [sensitiveChange('password'), fieldChange('password.version', appliedVersion, version)], password: { fromEnv, version } };
}

const password: Field = {
  id: 'password',
  schema: {
    password: {
      type: 'object',
      description: 'Password of tsdbadmin, write-only: read from an environment variable at apply, never stored.',
      additionalProperties: false,
      required: ['from_env'],
      properties: {
        from_env: { type: 'string', pattern: ENV_NAME_REGEX, description: 'Name of the environment variable that holds the password at apply time.' },
        version: { type: 'integer', minimum: 1, description: 'Bump to rotate the password (default 1); the applied version is kept in the state.' },
      },
    },
  },
  desired: (raw, into) => {
    if (raw.password === undefined) return;
    const v = raw.password as Raw;
    into.password = { fromEnv: v.from_env as string, version: (v.version as number | undefined) ?? 1 };
  },
  record: (d) => d.password?.version,
  update: (d, _l, entry) => (d.password !== undefined && entry?.passwordVersion !== d.password.version ? passwordStep(d, entry?.passwordVersion) : undefined),
  afterCreate: (d) => (d.password ? passwordStep(d, undefined) : undefined),
  // Passwords are never exported: the entry shows, commented out, where one would go.
  export: (_l, ctx) => ({ commented: { password: { map: { from_env: ctx.passwordEnv, version: 1 } } } }),
};

export const SERVICE_FIELDS: FieldSet<DesiredService, LiveService, ServiceDto> = {
  fields: [name, addons, regionCode, size, environment, ha, pooler, vpc, paused, password],
  create: [name, addons, size, environment, regionCode, ha],
  sortedRequest: false,
  replace: [name, regionCode, addons, size],
};

// ---- operations -----------------------------------------------------------------------------

const SERVICE = `${PROJECT_ROUTE}/services/{service_id}`;

/** An HA change is an availability risk only when it lowers a replica count. */
function haRisk(changes: readonly FieldChange[]): Risk {
  const lowers = changes.some((c) => c.path.startsWith('ha.') && typeof c.before === 'number' && typeof c.after === 'number' && c.after < c.before);
  return lowers ? 'availability' : 'none';
}

// Ranks leave gaps so that a new op slots in between without renumbering; only their order matters.
export const SERVICE_OPS = {
  createService: { kind: 'service', api: post(`${PROJECT_ROUTE}/services`), rank: 60, risk: 'none', safety: 'create', effect: 'create', readyPoint: true, needsReady: false, wait: 'ready' },
  forkService: { kind: 'service', api: post(`${SERVICE}/forkService`), rank: 70, risk: 'none', safety: 'create', effect: 'create', readyPoint: true, needsReady: true, wait: 'ready' },
  renameService: { kind: 'service', api: post(`${SERVICE}/rename`), rank: 130, risk: 'none', safety: 'repeatable', effect: 'update', readyPoint: false, needsReady: false, wait: 'none' },
  deleteService: { kind: 'service', api: del(SERVICE), rank: 20, risk: 'data-loss', safety: 'checked', effect: 'delete', readyPoint: false, needsReady: false, wait: 'gone' },
  resizeService: { kind: 'service', api: post(`${SERVICE}/resize`), rank: 110, risk: 'none', safety: 'checked', effect: 'update', readyPoint: true, needsReady: true, wait: 'ready' },
  setHAReplica: { kind: 'service', api: post(`${SERVICE}/setHA`), rank: 120, risk: haRisk, safety: 'checked', effect: 'update', readyPoint: true, needsReady: true, wait: 'ready' },
  startService: { kind: 'service', api: post(`${SERVICE}/start`), rank: 90, risk: 'none', safety: 'checked', effect: 'update', readyPoint: true, needsReady: false, wait: 'ready' },
  stopService: { kind: 'service', api: post(`${SERVICE}/stop`), rank: 230, risk: 'availability', safety: 'checked', effect: 'update', readyPoint: false, needsReady: false, wait: 'paused' },
  enablePooler: { kind: 'service', api: post(`${SERVICE}/enablePooler`), rank: 160, risk: 'none', safety: 'repeatable', effect: 'update', readyPoint: false, needsReady: false, wait: 'none' },
  disablePooler: { kind: 'service', api: post(`${SERVICE}/disablePooler`), rank: 170, risk: 'connectivity', safety: 'repeatable', effect: 'update', readyPoint: false, needsReady: false, wait: 'none' },
  setEnvironment: { kind: 'service', api: post(`${SERVICE}/setEnvironment`), rank: 140, risk: 'none', safety: 'repeatable', effect: 'update', readyPoint: false, needsReady: false, wait: 'none' },
  attachServiceToVPC: { kind: 'service', api: post(`${SERVICE}/attachToVPC`), rank: 210, risk: 'none', safety: 'checked', effect: 'update', readyPoint: false, needsReady: true, wait: 'attachment' },
  detachServiceFromVPC: { kind: 'service', api: post(`${SERVICE}/detachFromVPC`), rank: 200, risk: 'connectivity', safety: 'checked', effect: 'update', readyPoint: false, needsReady: true, wait: 'attachment' },
  updatePassword: { kind: 'service', api: post(`${SERVICE}/updatePassword`), rank: 220, risk: 'none', safety: 'repeatable', effect: 'update', readyPoint: false, needsReady: false, wait: 'none' },
} satisfies Record<string, OperationSpec>;

// ---- live -----------------------------------------------------------------------------------

/** Wire -> live: tolerant, its managed fields read by their descriptors (the kinds it carries: the registry's mapLive). */
export function mapService(dto: ServiceOwnDto): LiveService {
  const live = {
    id: dto.service_id,
    projectId: str(dto.project_id) ?? '',
    status: str(dto.status) ?? 'UNKNOWN',
    created: str(dto.created) ?? '',
  } as LiveService;
  readLiveFields(SERVICE_FIELDS, dto, live);
  const endpoint = endpointOf(dto.endpoint);
  if (endpoint) live.endpoint = endpoint;
  const parent = str(dto.forked_from?.service_id);
  if (parent !== undefined) {
    live.forkedFrom = { serviceId: parent };
    const project = str(dto.forked_from?.project_id);
    if (project !== undefined) live.forkedFrom.projectId = project;
    if (typeof dto.forked_from?.is_standby === 'boolean') live.forkedFrom.isStandby = dto.forked_from.is_standby;
  }
  return live;
}
