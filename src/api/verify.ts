// Checks for "checked" operations (retry.ts): after an attempt with an unknown outcome, a repeat
// that the API refuses (409, or 404 for a delete) may just mean the first attempt worked. These
// predicates say whether the resource, read back, shows that the operation took effect.
import { mapHa, sizeOfSpec, vpcIdOf } from '../kinds/service/fields.js';
import type { ReadReplicaSetDto, ResizeRequestDto, ServiceDto, SetHaRequestDto } from './dto.js';

export function showsStart(svc: ServiceDto): boolean {
  return svc.status === 'RESUMING' || svc.status === 'READY';
}

export function showsStop(svc: ServiceDto): boolean {
  return svc.status === 'PAUSING' || svc.status === 'PAUSED';
}

export function showsDeletion(svc: ServiceDto | undefined): boolean {
  return svc === undefined || svc.status === 'DELETING' || svc.status === 'DELETED';
}

/**
 * The sizes it set. UPGRADING proves nothing: a resize that landed shows it (and the API may show
 * the new values only once READY), but so does a service busy with another change, which refused
 * this one; whose answer may be the one that was lost. Unconfirmed, the refusal goes to the
 * caller, which waits for the service to settle and looks again before it sends again
 * (kinds/service/handlers.ts).
 */
export function showsServiceResize(svc: ServiceDto, body: ResizeRequestDto): boolean {
  const size = sizeOfSpec(svc.resources?.[0]?.spec);
  return size !== undefined && String(size.cpuMillis) === body.cpu_millis && String(size.memoryGbs) === body.memory_gbs;
}

/**
 * The counts it set, as for a resize (UPGRADING proves nothing). An omitted count in setHA means 0
 * (docs/api-behaviour.md), not "unchanged".
 */
export function showsHa(svc: ServiceDto, body: SetHaRequestDto): boolean {
  const ha = mapHa(svc.ha_replicas);
  return ha.replicas === (body.replica_count ?? 0) && ha.syncReplicas === (body.sync_replica_count ?? 0);
}

/**
 * Attached to `vpcId`. Not attached yet proves nothing: an attach in progress is invisible until
 * it completes, but so is one the API refused (the service not READY yet, the VPC still being
 * created), whose answer may be the one that was lost. Taking that for success waited for an
 * attachment that never came; unconfirmed, the refusal goes to the caller, which waits for the
 * service and sends again until the attachment shows (kinds/service/handlers.ts).
 */
export function showsAttach(svc: ServiceDto, vpcId: string): boolean {
  return vpcIdOf(svc) === vpcId;
}

/**
 * Detached. Still attached to `vpcId` proves nothing: a pending detach still shows the endpoint,
 * and so does a refused one (the caller sends again, as for an attach).
 */
export function showsDetach(svc: ServiceDto, _vpcId: string): boolean {
  return vpcIdOf(svc) === null;
}

/** The sizes it set, as for a service: `resizing` may be another resize, which refused this one. */
export function showsReplicaSetResize(rs: ReadReplicaSetDto | undefined, body: ResizeRequestDto): boolean {
  if (rs === undefined) return false;
  return String(rs.cpu_millis) === body.cpu_millis && String(rs.memory_gbs) === body.memory_gbs;
}

export function showsReplicaSetDeletion(rs: ReadReplicaSetDto | undefined): boolean {
  return rs === undefined || rs.status === 'deleting';
}
