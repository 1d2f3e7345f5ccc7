// Records -> wire DTOs (cloud-api.md field names, spelled as the dialect says). Callers settle
// records first; views only compute what time decides (statuses, attachment phases).
import type { PeeringDto, ReadReplicaSetDto, ServiceDto, VpcDto, VpcEndpointDto } from '../api/dto.js';
import type { Dialect } from './dialect.js';
import { hashString, mix32 } from './prng.js';
import type { PeeringRecord, ProjectRecord, ReplicaSetRecord, ServiceRecord, ServiceStatus, VpcRecord } from './store.js';
import { attachmentPhaseAt, isVpcCreatingAt, peeringPhaseAt, replicaSetStatusAt, serviceStatusAt, type PeeringPhase } from './timelines.js';

const DOMAIN = 'tsdb.cloud.example';
export const DB_PORT = 5432;
export const POOLER_PORT = 6432;

export function serviceHost(projectId: string, serviceId: string): string {
  return `${serviceId}.${projectId}.${DOMAIN}`;
}

/**
 * Where endpoints move (`endpoints: moving`), an attached service answers on a host private to its
 * VPC, pooler included, until its detach completes; otherwise on its public host.
 */
function endpointHost(project: ProjectRecord, svc: ServiceRecord, now: number, dialect: Dialect): string {
  const phase = attachmentPhaseAt(svc, now);
  const attached = phase === 'attached' || phase === 'detaching';
  if (dialect.switches.endpoints === 'moving' && attached) return `${svc.id}.${svc.vpc!.vpcId}.private.${project.id}.${DOMAIN}`;
  return serviceHost(project.id, svc.id);
}

export function toVpcDto(vpc: VpcRecord, now: number, dialect: Dialect): VpcDto {
  const dto: VpcDto = { id: vpc.id, cidr: vpc.cidr, name: vpc.name, region_code: vpc.regionCode };
  if (dialect.vpcStatus) dto.status = isVpcCreatingAt(vpc, now) ? dialect.vpcStatus.creating : dialect.vpcStatus.created;
  return dto;
}

export function toPeeringDto(p: PeeringRecord, now: number, dialect: Dialect): PeeringDto {
  const phase = peeringPhaseAt(p, now, dialect.peeringStatus.approved !== undefined);
  const dto: PeeringDto = {
    id: p.id,
    peer_account_id: p.peerAccountId,
    peer_region_code: p.peerRegionCode,
    peer_vpc_id: p.peerVpcId,
    status: peeringStatusOf(phase, dialect),
  };
  // The provider-side peering exists once provisioned: at the acceptance step, or while awaiting
  // the peer (manual acceptance); a peering torn down keeps the ID it had.
  const provisioned = phase === 'active' || phase === 'approved' || phase === 'awaiting' || (phase === 'deleting' && now >= p.settlesAt && !p.fails);
  if (provisioned) dto.provisioned_id = p.provisionedId;
  if (phase === 'failed') {
    dto.error_message = `peering rejected: peer account "${p.peerAccountId}" is not a 12-digit cloud account ID`;
  }
  return dto;
}

function peeringStatusOf(phase: PeeringPhase, dialect: Dialect): string {
  const s = dialect.peeringStatus;
  if (phase === 'awaiting') return s.pending;
  if (phase === 'approved') return s.approved ?? s.active;
  return s[phase];
}

/** `connection_pooler`: with its endpoint while enabled; while disabled as the dialect says. */
function poolerOf(enabled: boolean, host: string, dialect: Dialect): ServiceDto['connection_pooler'] {
  if (enabled) return { endpoint: { host, port: POOLER_PORT } };
  return dialect.disabledPooler === 'without-endpoint' ? {} : undefined;
}

export function toReplicaSetDto(
  projectId: string,
  svc: ServiceRecord,
  rs: ReplicaSetRecord,
  now: number,
  dialect: Dialect,
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
  const pooler = poolerOf(rs.pooler, host, dialect);
  if (pooler) dto.connection_pooler = pooler;
  return dto;
}

export interface ServiceViewOptions {
  status?: ServiceStatus;
  initialPassword?: string;
}

export function toServiceDto(project: ProjectRecord, svc: ServiceRecord, now: number, dialect: Dialect, opts: ServiceViewOptions = {}): ServiceDto {
  const status = opts.status ?? serviceStatusAt(svc, now);
  const host = endpointHost(project, svc, now, dialect);
  const spec =
    svc.size === 'shared'
      ? { volume_type: 'shared' }
      : { cpu_millis: svc.size.cpuMillis, memory_gbs: svc.size.memoryGbs, volume_type: 'dedicated' };
  const dto: ServiceDto = {
    service_id: svc.id,
    project_id: project.id,
    name: svc.name,
    region_code: svc.regionCode,
    service_type: svc.serviceType === 'TIMESERIESDB' ? dialect.timeSeriesType : svc.serviceType,
    ...(svc.addons && dialect.reportsAddons ? { addons: [...svc.addons] } : {}),
    status,
    created: new Date(svc.createdAt).toISOString(),
    resources: [{ id: svc.resourceId, spec }],
    endpoint: { host, port: DB_PORT },
    ha_replicas: { replica_count: svc.ha.replicaCount, sync_replica_count: svc.ha.syncReplicaCount },
    metadata: { environment: svc.environment },
    ...(dialect.sendsDataTiering ? { data_tiering: { enabled: false } } : {}),
    ...(dialect.embedsReplicaSets ? { read_replica_sets: [] } : {}),
  };
  const paused = status === 'PAUSED' || status === 'PAUSING';
  const pooler = poolerOf(svc.pooler, host, dialect);
  if (pooler) dto.connection_pooler = pooler;
  if (!paused) dto.metrics = metricsOf(svc);
  if (svc.forkedFrom) {
    dto.forked_from = { is_standby: false, project_id: svc.forkedFrom.projectId, service_id: svc.forkedFrom.serviceId };
  }
  const vpcEndpoint = vpcEndpointOf(project, svc, now);
  if (vpcEndpoint) {
    dto.vpc_endpoint = vpcEndpoint;
    dto.vpcEndpoint = { ...vpcEndpoint };
  }
  if (dto.read_replica_sets) for (const rs of svc.replicaSets.values()) dto.read_replica_sets.push(toReplicaSetDto(project.id, svc, rs, now, dialect));
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
