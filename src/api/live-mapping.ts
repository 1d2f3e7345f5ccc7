// Wire DTOs -> the live types of src/model/resources.ts, following docs/api-behaviour.md. Tolerant:
// unknown fields are ignored, unknown statuses and types pass through as strings, absent optional
// fields get the API's documented defaults.
import { endpointOf, readLiveFields, str } from '../model/index.js';
import type { LivePeering, LiveReplicaSet, LiveService, LiveVpc } from '../model/resources.js';
import type { PeeringDto, ReadReplicaSetDto, ServiceDto, VpcDto } from './dto.js';
import { mapHa, SERVICE_FIELDS, sizeOfSpec, vpcEndpointOf, vpcIdOf } from '../kinds/service/fields.js';
import { PEERING_FIELDS } from '../kinds/peering/kind.js';
import { REPLICA_SET_FIELDS } from '../kinds/replica-set/kind.js';
import { VPC_FIELDS } from '../kinds/vpc/kind.js';

export { mapHa, sizeOfSpec, vpcEndpointOf, vpcIdOf };

export function mapService(dto: ServiceDto): LiveService {
  // The managed fields are read by their descriptors (src/model/fields).
  const live = {
    id: dto.service_id,
    projectId: str(dto.project_id) ?? '',
    status: str(dto.status) ?? 'UNKNOWN',
    created: str(dto.created) ?? '',
    // Absent when the API does not embed them (SPEC section 12): the reader fills them in.
    replicaSets: (embedsReplicaSets(dto) ? dto.read_replica_sets! : []).map((rs) => mapReplicaSet(rs, dto.service_id)),
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

export function mapReplicaSet(dto: ReadReplicaSetDto, serviceId: string): LiveReplicaSet {
  const live = { id: dto.id, serviceId, status: str(dto.status) ?? 'unknown' } as LiveReplicaSet;
  readLiveFields(REPLICA_SET_FIELDS, dto, live);
  const endpoint = endpointOf(dto.endpoint);
  if (endpoint) live.endpoint = endpoint;
  return live;
}

export function mapVpc(dto: VpcDto): LiveVpc {
  const live = { id: String(dto.id) } as LiveVpc;
  readLiveFields(VPC_FIELDS, dto, live);
  const status = str(dto.status);
  if (status !== undefined) live.status = status;
  return live;
}

/** Whether a services-list item carries its replica sets (cloud-api.md does; the real API may not). */
export function embedsReplicaSets(dto: Pick<ServiceDto, 'read_replica_sets'>): boolean {
  return Array.isArray(dto.read_replica_sets);
}

export function mapPeering(dto: PeeringDto, vpcId: string): LivePeering {
  const live = { id: String(dto.id), vpcId } as LivePeering;
  readLiveFields(PEERING_FIELDS, dto, live);
  const status = str(dto.status);
  if (status !== undefined) live.status = status;
  const errorMessage = str(dto.error_message);
  if (errorMessage !== undefined) live.errorMessage = errorMessage;
  const provisionedId = str(dto.provisioned_id);
  if (provisionedId !== undefined) live.provisionedId = provisionedId;
  return live;
}
