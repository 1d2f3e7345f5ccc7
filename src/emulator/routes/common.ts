// Lookups shared by the route files: each settles what it returns, so handlers see the present.
import { requireProject } from '../auth.js';
import { conflict, notFound } from '../errors.js';
import type { RequestContext, RouteResult } from '../router.js';
import type { ProjectRecord, ReplicaSetRecord, ServiceRecord, VpcRecord } from '../store.js';
import { hasBackupAt, isVpcCreatingAt, replicaSetStatusAt, serviceStatusAt, settlePeerings, settleService } from '../timelines.js';

export function projectOf(ctx: RequestContext): ProjectRecord {
  return requireProject(ctx.world, ctx.principal, ctx.params.project_id!);
}

/** The service of the path, settled at the request's instant; 404 when unknown or gone. */
export function serviceOf(ctx: RequestContext, project: ProjectRecord): ServiceRecord {
  const id = ctx.params.service_id!;
  const svc = project.services.get(id);
  if (!svc || !settleService(project, svc, ctx.now)) throw notFound(`service "${id}" not found`);
  return svc;
}

/** The service of the path, refusing one that is being deleted (every mutation but reads). */
export function liveServiceOf(ctx: RequestContext, project: ProjectRecord): ServiceRecord {
  const svc = serviceOf(ctx, project);
  if (serviceStatusAt(svc, ctx.now) === 'DELETING') throw conflict(`service "${svc.id}" is being deleted`);
  return svc;
}

/**
 * The service of the path, refusing one being deleted or FAILED: every mutation but deletes. Like
 * DELETING, FAILED is refused before the body is read: nothing but a delete is possible.
 */
export function operableServiceOf(ctx: RequestContext, project: ProjectRecord): ServiceRecord {
  const svc = liveServiceOf(ctx, project);
  if (serviceStatusAt(svc, ctx.now) === 'FAILED') throw conflict(`service "${svc.id}" has FAILED; it can only be deleted`);
  return svc;
}

/**
 * Forks and replica sets are made from a backup: a service that became READY lately has none yet
 * (the real service's words, which Terraform's provider retries on).
 */
export function requireBackup(svc: ServiceRecord, now: number): void {
  if (hasBackupAt(svc, now)) return;
  const seconds = Math.max(1, Math.ceil((svc.backupAt! - now) / 1000));
  throw conflict(`service "${svc.id}" doesn't yet have any backups or snapshots available; its first backup completes in about ${seconds} s`);
}

/** Refuses the operation unless the service is READY. */
export function requireReady(svc: ServiceRecord, now: number, operation: string): void {
  const status = serviceStatusAt(svc, now);
  if (status !== 'READY') throw conflict(`cannot ${operation} service "${svc.id}" while it is ${status} (it must be READY)`);
}

/** The VPC of the path (or `id`), its torn-down peerings removed; 404 when unknown. */
export function vpcOf(ctx: RequestContext, project: ProjectRecord, id = ctx.params.vpc_id!): VpcRecord {
  const vpc = project.vpcs.get(id);
  if (!vpc) throw notFound(`vpc "${id}" not found`);
  settlePeerings(vpc, ctx.now);
  return vpc;
}

/** Where VPCs show a status, nothing is attached to or peered with one still being created. */
export function requireVpcCreated(vpc: VpcRecord, now: number, operation: 'attach to' | 'peer'): void {
  if (isVpcCreatingAt(vpc, now)) throw conflict(`cannot ${operation} vpc "${vpc.id}" while it is being created; wait until its status is no longer CREATING`);
}

export function replicaSetOf(ctx: RequestContext, svc: ServiceRecord): ReplicaSetRecord {
  const id = ctx.params.replica_set_id!;
  const rs = svc.replicaSets.get(id);
  if (!rs) throw notFound(`replica set "${id}" not found in service "${svc.id}"`);
  return rs;
}

export function requireNotDeleting(rs: ReplicaSetRecord, now: number): void {
  if (replicaSetStatusAt(rs, now) === 'deleting') throw conflict(`replica set "${rs.id}" is being deleted`);
}

export const ok = (body: unknown): RouteResult => ({ status: 200, body, mutated: false });
export const message = (status: number, text: string): RouteResult => ({ status, body: { message: text }, mutated: true });
export const noContent = (): RouteResult => ({ status: 204, mutated: true });
