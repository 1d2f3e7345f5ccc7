// The managed fields of a service (SPEC section 1), one descriptor each (types.ts): the settings
// a create carries are in service-settings.ts, the switches and write-only ones here. Adding a
// field: docs/adding-a-field.md.
import type { Addon, DesiredPassword, DesiredService, Endpoint, EnvironmentTag, HaConfig, LiveService, ServiceSize, VpcRef } from '../resources.js';
import type { OperationId } from '../operations.js';
import { ENV_NAME_REGEX, flagOf, keySchema } from './common.js';
import { addons, environment, ha, name, regionCode, size } from './service-settings.js';
import { fieldChange, sensitiveChange, type FieldDescriptor, type FieldEndpoint, type FieldSet, type FieldStep } from './types.js';
import { isLivePaused } from './values.js';
import { endpointOf, isPresent, str, type AddonDto, type EndpointDto, type MetadataDto, type ResourceSpecDto, type ServiceTypeDto, type VpcEndpointDto } from './wire.js';

/** The properties of a desired service that its fields set (undefined: unmanaged). */
export interface DesiredServiceFields {
  name: string;
  /** Sorted, de-duplicated. `time-series` -> TIMESERIESDB, otherwise POSTGRES. */
  addons?: Addon[];
  regionCode?: string;
  size?: ServiceSize;
  environment?: EnvironmentTag;
  ha?: HaConfig;
  pooler?: boolean;
  /** null: manage detachment. */
  vpc?: VpcRef | null;
  paused?: boolean;
  password?: DesiredPassword;
}

/** The properties of a live service that its fields read from the wire. */
export interface LiveServiceFields {
  name: string;
  regionCode: string;
  /** TIMESERIESDB | POSTGRES | VECTOR (legacy) or anything newer. */
  serviceType: string;
  /**
   * The addons it was created with, sorted, when the API reports them (the emulator does;
   * cloud-api.md does not promise it). Undefined when not reported.
   */
  addons?: Addon[];
  /** Undefined when the API did not report a size. */
  size?: ServiceSize;
  /** Undefined when not reported. */
  environment?: string;
  ha: HaConfig;
  /** Whether the connection pooler is enabled: `connection_pooler.endpoint.host` is set exactly then. */
  pooler: boolean;
  poolerEndpoint?: Endpoint;
  /** The VPC the service is attached to (from vpc_endpoint, then vpcEndpoint), or null. */
  vpcId: string | null;
  vpcEndpoint?: Endpoint;
}

export interface ConnectionPoolerDto {
  endpoint?: EndpointDto;
}

/** The keys of a service's wire body that its fields read (src/api/dto.ts: ServiceDto extends it). */
export interface ServiceFieldsDto {
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
}

type Field = FieldDescriptor<DesiredService, LiveService, ServiceFieldsDto>;
type Raw = Record<string, unknown>;

/** The pooler is enabled only when it has an endpoint host (SPEC section 12). */
export const poolerEnabled = (p: ConnectionPoolerDto | undefined): boolean => str(p?.endpoint?.host) !== undefined;

/** A connection pooler switch, the same for services and replica sets. */
export const poolerSchema = (what: string) => ({
  type: ['boolean', 'null'],
  description: `Connection pooler of the ${what} (port 6432): true enables it, false or null disables it; leave it out to leave it unmanaged.`,
});

export function readPooler(w: { connection_pooler?: ConnectionPoolerDto }, into: { pooler: boolean; poolerEndpoint?: Endpoint }): void {
  into.pooler = poolerEnabled(w.connection_pooler);
  const endpoint = endpointOf(w.connection_pooler?.endpoint);
  if (endpoint) into.poolerEndpoint = endpoint;
}

/** The pooler's endpoint, the same for services and replica sets: there exactly while the pooler is enabled. */
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
export function vpcEndpointOf(dto: Pick<ServiceFieldsDto, 'vpc_endpoint' | 'vpcEndpoint'>): VpcEndpointDto | undefined {
  return isPresent(dto.vpc_endpoint) ? dto.vpc_endpoint : isPresent(dto.vpcEndpoint) ? dto.vpcEndpoint : undefined;
}

export function vpcIdOf(dto: Pick<ServiceFieldsDto, 'vpc_endpoint' | 'vpcEndpoint'>): string | null {
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
        version: { type: 'integer', minimum: 1, description: 'Bump to rotate the password (default 1); the applied version is kept in the lockfile.' },
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

export const SERVICE_FIELDS: FieldSet<DesiredService, LiveService, ServiceFieldsDto> = {
  fields: [name, addons, regionCode, size, environment, ha, pooler, vpc, paused, password],
  create: [name, addons, size, environment, regionCode, ha],
  sortedRequest: false,
  replace: [name, regionCode, addons, size],
};
