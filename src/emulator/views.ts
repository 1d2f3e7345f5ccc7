// Records -> wire DTOs (cloud-api.md field names). Callers settle records first; views only
// compute what time decides (statuses, attachment phases).
import type { PeeringDto, ReadReplicaSetDto, ServiceDto, ServiceStatusDto, VpcDto, VpcEndpointDto } from '../api/dto.js';
import { hashString, mix32 } from './prng.js';
import type { PeeringRecord, ProjectRecord, ReplicaSetRecord, ServiceRecord, VpcRecord } from './store.js';
import { attachmentPhaseAt, peeringStatusAt, replicaSetStatusAt, serviceStatusAt } from './timelines.js';

const DOMAIN = 'tsdb.cloud.example';
export const DB_PORT = 5432;
export const POOLER_PORT = 6432;

export function serviceHost(projectId: string, serviceId: string): string {
  return `${serviceId}.${projectId}.${DOMAIN}`;
}

export function toVpcDto(vpc: VpcRecord): VpcDto {
  return { id: vpc.id, cidr: vpc.cidr, name: vpc.name, region_code: vpc.regionCode };
}

export function toPeeringDto(p: PeeringRecord, now: number): PeeringDto {
  const status = peeringStatusAt(p, now);
  const dto: PeeringDto = {
    id: p.id,
    peer_account_id: p.peerAccountId,
    peer_region_code: p.peerRegionCode,
    peer_vpc_id: p.peerVpcId,
    status,
  };
  if (status === 'active') dto.provisioned_id = p.provisionedId;
  if (status === 'failed') {
    dto.error_message = `peering rejected: peer account "${p.peerAccountId}" is not a 12-digit cloud account ID`;
  }
  return dto;
}

export function toReplicaSetDto(
  projectId: string,
  svc: ServiceRecord,
  rs: ReplicaSetRecord,
  now: number,
  statusOverride?: ReadReplicaSetDto['status'],
): ReadReplicaSetDto {
  const host = `${rs.id}.${svc.id}.${projectId}.${DOMAIN}`;
  const dto: ReadReplicaSetDto = {
    id: rs.id,
    cpu_millis: rs.cpuMillis,
    memory_gbs: rs.memoryGbs,
    name: rs.name,
    nodes: rs.nodes,
    status: statusOverride ?? replicaSetStatusAt(rs, now),
    endpoint: { host, port: DB_PORT },
    metadata: { environment: rs.environment },
  };
  if (rs.pooler) dto.connection_pooler = { endpoint: { host, port: POOLER_PORT } };
  return dto;
}

export interface ServiceViewOptions {
  status?: ServiceStatusDto;
  initialPassword?: string;
}

export function toServiceDto(project: ProjectRecord, svc: ServiceRecord, now: number, opts: ServiceViewOptions = {}): ServiceDto {
  const status = opts.status ?? serviceStatusAt(svc, now);
  const host = serviceHost(project.id, svc.id);
  const spec =
    svc.size === 'shared'
      ? { volume_type: 'shared' }
      : { cpu_millis: svc.size.cpuMillis, memory_gbs: svc.size.memoryGbs, volume_type: 'dedicated' };
  const dto: ServiceDto = {
    service_id: svc.id,
    project_id: project.id,
    name: svc.name,
    region_code: svc.regionCode,
    service_type: svc.serviceType,
    ...(svc.addons ? { addons: [...svc.addons] } : {}),
    status,
    created: new Date(svc.createdAt).toISOString(),
    resources: [{ id: svc.resourceId, spec }],
    endpoint: { host, port: DB_PORT },
    ha_replicas: { replica_count: svc.ha.replicaCount, sync_replica_count: svc.ha.syncReplicaCount },
    metadata: { environment: svc.environment },
    data_tiering: { enabled: false },
    read_replica_sets: [],
  };
  const paused = status === 'PAUSED' || status === 'PAUSING';
  if (svc.pooler) dto.connection_pooler = { endpoint: { host, port: POOLER_PORT } };
  if (!paused) dto.metrics = metricsOf(svc);
  if (svc.forkedFrom) {
    dto.forked_from = { is_standby: false, project_id: svc.forkedFrom.projectId, service_id: svc.forkedFrom.serviceId };
  }
  const vpcEndpoint = vpcEndpointOf(project, svc, now);
  if (vpcEndpoint) {
    dto.vpc_endpoint = vpcEndpoint;
    dto.vpcEndpoint = { ...vpcEndpoint };
  }
  for (const rs of svc.replicaSets.values()) dto.read_replica_sets!.push(toReplicaSetDto(project.id, svc, rs, now));
  if (opts.initialPassword !== undefined) dto.initial_password = opts.initialPassword;
  return dto;
}

function vpcEndpointOf(project: ProjectRecord, svc: ServiceRecord, now: number): VpcEndpointDto | undefined {
  const phase = attachmentPhaseAt(svc, now);
  if (phase !== 'attached' && phase !== 'detaching') return undefined;
  const vpcId = svc.vpc!.vpcId;
  return { host: `${svc.id}.${vpcId}.vpc.${project.id}.${DOMAIN}`, port: DB_PORT, vpc_id: vpcId };
}

/** Plausible, stable usage figures derived from the service ID and size. */
function metricsOf(svc: ServiceRecord): NonNullable<ServiceDto['metrics']> {
  const h = hashString(svc.id);
  const cpu = svc.size === 'shared' ? 250 : svc.size.cpuMillis;
  const mem = svc.size === 'shared' ? 1 : svc.size.memoryGbs;
  return {
    milli_cpu: 10 + (mix32(h, 1) % Math.max(1, Math.floor(cpu / 2))),
    memory_mb: 128 + (mix32(h, 2) % Math.max(1, mem * 512)),
    storage_mb: 64 + (mix32(svc.storageOf ? hashString(svc.storageOf) : h, 3) % 100_000),
  };
}
