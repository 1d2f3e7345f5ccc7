// Lazy timelines: a transition is stored as absolute deadlines, and the status is computed when
// read. Settling applies a finished transition's effects to the record; it depends only on the
// clock, so doing it on read needs no persistence (a reload settles to the same result).
import type { ServiceStatusDto } from '../api/dto.js';
import type { Clock } from './clock.js';
import type {
  PeeringRecord,
  ProjectRecord,
  ReplicaSetRecord,
  ReplicaSetTimeline,
  ServiceRecord,
  ServiceStatus,
  ServiceTimeline,
  VpcAttachment,
  VpcRecord,
} from './store.js';

/** The status a service shows at `now` (assumes nothing about settling). */
export function serviceStatusAt(svc: ServiceRecord, now: number): ServiceStatus {
  const t = svc.timeline;
  if (!t) return svc.status;
  for (const step of t.steps) if (now < step.until) return step.status;
  // Finished but not yet settled: what settling would show (GONE is never shown).
  return t.then === 'GONE' ? 'DELETING' : t.then;
}

/** The first status of a transition: what a 202 answer shows, even when time scale 0 ends it at once. */
export function initialStatus(t: ServiceTimeline): ServiceStatusDto {
  return t.steps[0]!.status;
}

/** Builds a timeline from nominal durations, scaled by the clock, starting now. */
export function buildTimeline(
  clock: Clock,
  now: number,
  steps: Array<[ServiceStatusDto, number]>,
  then: ServiceTimeline['then'],
): ServiceTimeline {
  let at = now;
  const out: ServiceTimeline = { steps: [], then };
  for (const [status, ms] of steps) {
    at += clock.scale(ms);
    out.steps.push({ status, until: at });
  }
  return out;
}

function timelineOver(t: ServiceTimeline, now: number): boolean {
  return now >= t.steps[t.steps.length - 1]!.until;
}

/**
 * Applies whatever has finished by `now` to the service and its replica sets. Returns false when
 * the service is gone; the caller removes it from its project.
 */
export function settleService(project: ProjectRecord, svc: ServiceRecord, now: number): boolean {
  const t = svc.timeline;
  if (t && timelineOver(t, now)) {
    if (t.then === 'GONE') {
      removeService(project, svc);
      return false;
    }
    if (t.size !== undefined) svc.size = t.size;
    if (t.ha !== undefined) svc.ha = t.ha;
    svc.status = t.then;
    delete svc.timeline;
  }
  if (svc.vpc?.pending !== undefined && now >= svc.vpc.until) settleAttachment(project, svc, svc.vpc);
  for (const rs of svc.replicaSets.values()) settleReplicaSet(svc, rs, now);
  return true;
}

function settleAttachment(project: ProjectRecord, svc: ServiceRecord, att: VpcAttachment): void {
  if (att.pending === 'detach') {
    project.vpcs.get(att.vpcId)?.attached.delete(svc.id);
    delete svc.vpc;
  } else {
    delete att.pending;
  }
}

function settleReplicaSet(svc: ServiceRecord, rs: ReplicaSetRecord, now: number): void {
  const t = rs.timeline;
  if (!t || now < t.until) return;
  if (t.then === 'GONE') {
    svc.replicaSets.delete(rs.id);
    return;
  }
  if (t.size) {
    rs.cpuMillis = t.size.cpuMillis;
    rs.memoryGbs = t.size.memoryGbs;
  }
  rs.status = t.then;
  delete rs.timeline;
}

export function replicaSetStatusAt(rs: ReplicaSetRecord, now: number): ReplicaSetRecord['status'] | ReplicaSetTimeline['status'] {
  const t = rs.timeline;
  if (!t) return rs.status;
  if (now < t.until) return t.status;
  return t.then === 'GONE' ? 'deleting' : t.then;
}

export type AttachmentPhase = 'attaching' | 'attached' | 'detaching' | 'none';

export function attachmentPhaseAt(svc: ServiceRecord, now: number): AttachmentPhase {
  const att = svc.vpc;
  if (!att) return 'none';
  if (att.pending === 'attach') return now < att.until ? 'attaching' : 'attached';
  if (att.pending === 'detach') return now < att.until ? 'detaching' : 'none';
  return 'attached';
}

/** Drops a service from its project and releases its VPC attachment. */
export function removeService(project: ProjectRecord, svc: ServiceRecord): void {
  if (svc.vpc) project.vpcs.get(svc.vpc.vpcId)?.attached.delete(svc.id);
  project.services.delete(svc.id);
}

/** `awaiting`: provisioned, pending until the peer accepts; `deleting`: deleted, being torn down. */
export type PeeringPhase = 'pending' | 'awaiting' | 'approved' | 'active' | 'failed' | 'deleting';

/**
 * The peering's phase at `now`: pending, then failed, or active (after the acceptance step where
 * the dialect has one: `withApproval`). Under manual acceptance, a peering not yet accepted is
 * `awaiting` once provisioned; a deleted one lingering under eventual teardown is `deleting`.
 */
export function peeringPhaseAt(p: Pick<PeeringRecord, 'settlesAt' | 'approvedUntil' | 'fails' | 'awaitsAcceptance' | 'deletingUntil'>, now: number, withApproval: boolean): PeeringPhase {
  if (p.deletingUntil !== undefined) return 'deleting';
  if (now < p.settlesAt) return 'pending';
  if (p.fails) return 'failed';
  if (p.awaitsAcceptance) return 'awaiting';
  return withApproval && p.approvedUntil !== undefined && now < p.approvedUntil ? 'approved' : 'active';
}

/** Removes the deleted peerings whose teardown is over by `now`. */
export function settlePeerings(vpc: VpcRecord, now: number): void {
  for (const p of vpc.peerings.values()) if (p.deletingUntil !== undefined && now >= p.deletingUntil) vpc.peerings.delete(p.id);
}

/** Whether the service has had its first backup by `now` (forks and replica sets need one). */
export function hasBackupAt(svc: ServiceRecord, now: number): boolean {
  return svc.backupAt === undefined || now >= svc.backupAt;
}

/** Whether a VPC is still being created at `now` (only dialects with a VPC status show it). */
export function isVpcCreatingAt(vpc: { readyAt?: number }, now: number): boolean {
  return vpc.readyAt !== undefined && now < vpc.readyAt;
}
