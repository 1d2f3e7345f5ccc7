// Wire DTOs -> the live types of src/model/resources.ts, following docs/api-behaviour.md. Tolerant:
// unknown fields are ignored, unknown statuses and types pass through as strings, absent optional
// fields get the API's documented defaults.
import type { Addon, Endpoint, HaConfig, LivePeering, LiveReplicaSet, LiveService, LiveVpc, ServiceSize } from '../model/resources.js';
import type { ConnectionPoolerDto, EndpointDto, PeeringDto, ReadReplicaSetDto, ResourceSpecDto, ServiceDto, VpcDto, VpcEndpointDto } from './dto.js';

export function mapService(dto: ServiceDto): LiveService {
  const status = str(dto.status) ?? 'UNKNOWN';
  const live: LiveService = {
    id: dto.service_id,
    name: str(dto.name) ?? '',
    projectId: str(dto.project_id) ?? '',
    regionCode: str(dto.region_code) ?? '',
    serviceType: str(dto.service_type) ?? 'UNKNOWN',
    status,
    created: str(dto.created) ?? '',
    environment: str(dto.metadata?.environment) ?? 'DEV',
    ha: mapHa(dto.ha_replicas),
    pooler: isPoolerEnabled(dto.connection_pooler),
    vpcId: vpcIdOf(dto),
    // Absent when the API does not embed them (SPEC section 12): the reader fills them in.
    replicaSets: (embedsReplicaSets(dto) ? dto.read_replica_sets! : []).map((rs) => mapReplicaSet(rs, dto.service_id)),
  };
  const size = sizeOfSpec(Array.isArray(dto.resources) ? dto.resources[0]?.spec : undefined);
  if (size) live.size = size;
  if (Array.isArray(dto.addons)) live.addons = knownAddons(dto.addons);
  const endpoint = mapEndpoint(dto.endpoint);
  if (endpoint) live.endpoint = endpoint;
  const poolerEndpoint = mapEndpoint(dto.connection_pooler?.endpoint);
  if (poolerEndpoint) live.poolerEndpoint = poolerEndpoint;
  const vpcEndpoint = mapEndpoint(vpcEndpointOf(dto));
  if (vpcEndpoint) live.vpcEndpoint = vpcEndpoint;
  const parent = str(dto.forked_from?.service_id);
  if (parent !== undefined) {
    live.forkedFrom = { serviceId: parent };
    const project = str(dto.forked_from?.project_id);
    if (project !== undefined) live.forkedFrom.projectId = project;
    if (typeof dto.forked_from?.is_standby === 'boolean') live.forkedFrom.isStandby = dto.forked_from.is_standby;
  }
  return live;
}

const ADDONS: readonly Addon[] = ['ai', 'time-series'];

/** Addons dbform knows, sorted and once each; anything newer is not dbform's to manage. */
function knownAddons(list: readonly unknown[]): Addon[] {
  return ADDONS.filter((a) => list.includes(a));
}

export function mapReplicaSet(dto: ReadReplicaSetDto, serviceId: string): LiveReplicaSet {
  const live: LiveReplicaSet = {
    id: dto.id,
    serviceId,
    name: str(dto.name) ?? '',
    cpuMillis: num(dto.cpu_millis) ?? 0,
    memoryGbs: num(dto.memory_gbs) ?? 0,
    nodes: num(dto.nodes) ?? 0,
    status: str(dto.status) ?? 'unknown',
    pooler: isPoolerEnabled(dto.connection_pooler),
    environment: str(dto.metadata?.environment) ?? 'DEV',
  };
  const endpoint = mapEndpoint(dto.endpoint);
  if (endpoint) live.endpoint = endpoint;
  const poolerEndpoint = mapEndpoint(dto.connection_pooler?.endpoint);
  if (poolerEndpoint) live.poolerEndpoint = poolerEndpoint;
  return live;
}

export function mapVpc(dto: VpcDto): LiveVpc {
  const live: LiveVpc = { id: String(dto.id), name: str(dto.name) ?? '', cidr: str(dto.cidr) ?? '', regionCode: str(dto.region_code) ?? '' };
  const status = str(dto.status);
  if (status !== undefined) live.status = status;
  return live;
}

/** Whether a services-list item carries its replica sets (cloud-api.md does; the real API may not). */
export function embedsReplicaSets(dto: Pick<ServiceDto, 'read_replica_sets'>): boolean {
  return Array.isArray(dto.read_replica_sets);
}

/**
 * The pooler is enabled only when it has an endpoint host: the real service sends
 * `connection_pooler: {}` for a disabled one, cloud-api.md leaves it out (SPEC section 12).
 */
export function isPoolerEnabled(pooler: ConnectionPoolerDto | undefined): boolean {
  return str(pooler?.endpoint?.host) !== undefined;
}

export function mapPeering(dto: PeeringDto, vpcId: string): LivePeering {
  const live: LivePeering = {
    id: String(dto.id),
    vpcId,
    peerAccountId: str(dto.peer_account_id) ?? '',
    peerRegionCode: str(dto.peer_region_code) ?? '',
    peerVpcId: str(dto.peer_vpc_id) ?? '',
  };
  const status = str(dto.status);
  if (status !== undefined) live.status = status;
  const errorMessage = str(dto.error_message);
  if (errorMessage !== undefined) live.errorMessage = errorMessage;
  const provisionedId = str(dto.provisioned_id);
  if (provisionedId !== undefined) live.provisionedId = provisionedId;
  return live;
}

/**
 * Size from `resources[0].spec`: positive numbers are a dedicated size; `volume_type: shared` or
 * absent/zero numbers mean shared; no spec at all means unknown (undefined).
 */
export function sizeOfSpec(spec: ResourceSpecDto | undefined): ServiceSize | undefined {
  if (spec === undefined || spec === null || typeof spec !== 'object') return undefined;
  const cpu = num(spec.cpu_millis);
  const memory = num(spec.memory_gbs);
  if (spec.volume_type !== 'shared' && cpu !== undefined && memory !== undefined && cpu > 0 && memory > 0) {
    return { cpuMillis: cpu, memoryGbs: memory };
  }
  return { cpuMillis: 'shared', memoryGbs: 'shared' };
}

export function mapHa(ha: ServiceDto['ha_replicas']): HaConfig {
  return { replicas: num(ha?.replica_count) ?? 0, syncReplicas: num(ha?.sync_replica_count) ?? 0 };
}

/** `vpc_endpoint`, else the camelCase duplicate `vpcEndpoint`. */
export function vpcEndpointOf(dto: Pick<ServiceDto, 'vpc_endpoint' | 'vpcEndpoint'>): VpcEndpointDto | undefined {
  return isPresent(dto.vpc_endpoint) ? dto.vpc_endpoint : isPresent(dto.vpcEndpoint) ? dto.vpcEndpoint : undefined;
}

export function vpcIdOf(dto: Pick<ServiceDto, 'vpc_endpoint' | 'vpcEndpoint'>): string | null {
  const id = str(dto.vpc_endpoint?.vpc_id) ?? str(dto.vpcEndpoint?.vpc_id);
  return id ?? null;
}

function mapEndpoint(dto: EndpointDto | undefined): Endpoint | undefined {
  const host = str(dto?.host);
  const port = num(dto?.port);
  return host !== undefined && port !== undefined ? { host, port } : undefined;
}

function isPresent(value: unknown): boolean {
  return typeof value === 'object' && value !== null;
}

function str(value: unknown): string | undefined {
  if (typeof value === 'string' && value !== '') return value;
  if (typeof value === 'number') return String(value);
  return undefined;
}

/** Numbers, also when a tolerant API sends digit strings. */
function num(value: unknown): number | undefined {
  if (typeof value === 'number' && Number.isFinite(value)) return value;
  if (typeof value === 'string' && /^\d+(\.\d+)?$/.test(value)) return Number(value);
  return undefined;
}
