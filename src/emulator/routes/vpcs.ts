import { conflict, invalidField } from '../errors.js';
import type { Route } from '../router.js';
import type { ProjectRecord, VpcRecord } from '../store.js';
import { attachmentPhaseAt, settleService, type AttachmentPhase } from '../timelines.js';
import { DURATIONS } from '../clock.js';
import { bodyObject, cidrProblem, requireString } from '../validate.js';
import { toVpcDto } from '../views.js';
import { message, noContent, ok, projectOf, vpcOf } from './common.js';

const BASE = '/projects/{project_id}/vpcs';

export const vpcRoutes: Route[] = [
  {
    method: 'GET',
    template: BASE,
    handle: (ctx) => ok([...projectOf(ctx).vpcs.values()].map((v) => toVpcDto(v, ctx.now, ctx.dialect))),
  },
  {
    method: 'POST',
    template: BASE,
    handle(ctx) {
      const project = projectOf(ctx);
      const b = bodyObject(ctx.body);
      const cidr = requireString(b, 'cidr', { max: 18 });
      const name = requireString(b, 'name');
      const regionCode = requireString(b, 'region_code', { max: 64, pattern: ctx.dialect.regionPattern, hint: ctx.dialect.regionHint });
      const problem = cidrProblem(cidr);
      if (problem) throw invalidField('cidr', `${problem} (got "${cidr}")`);
      const vpc: VpcRecord = { id: ctx.world.newId('digits'), name, cidr, regionCode, peerings: new Map(), attached: new Set() };
      // Only where VPCs show a status is there a creation to wait for.
      if (ctx.dialect.vpcStatus) vpc.readyAt = ctx.now + ctx.clock.scale(DURATIONS.vpcCreating);
      project.vpcs.set(vpc.id, vpc);
      // The create answer always shows the first status, even when time scale 0 ends it at once.
      return { status: 201, body: toVpcDto(vpc, -Infinity, ctx.dialect), mutated: true };
    },
  },
  {
    method: 'GET',
    template: `${BASE}/{vpc_id}`,
    handle: (ctx) => ok(toVpcDto(vpcOf(ctx, projectOf(ctx)), ctx.now, ctx.dialect)),
  },
  {
    method: 'DELETE',
    template: `${BASE}/{vpc_id}`,
    handle(ctx) {
      const project = projectOf(ctx);
      const vpc = vpcOf(ctx, project);
      refuseVpcDelete(project, vpc, ctx.now, ctx.dialect.switches.teardown === 'eventual');
      project.vpcs.delete(vpc.id);
      return noContent();
    },
  },
  {
    method: 'POST',
    template: `${BASE}/{vpc_id}/rename`,
    handle(ctx) {
      const project = projectOf(ctx);
      const vpc = vpcOf(ctx, project);
      const name = requireString(bodyObject(ctx.body), 'name');
      vpc.name = name;
      return message(200, `vpc "${vpc.id}" renamed to "${name}"`);
    },
  },
];

/**
 * A VPC is deleted only once nothing uses it: services attached and live peerings must be removed
 * first. Under eventual teardown, what is still going away (a detach, a deleted service's
 * attachment, a deleted peering) is the real service's "already being updated": a wait, said so.
 */
function refuseVpcDelete(project: ProjectRecord, vpc: VpcRecord, now: number, eventual: boolean): void {
  const phases = attachmentPhases(project, vpc, now);
  const leaving = phases.filter(([, phase]) => eventual && phase === 'detaching').map(([id]) => id);
  const attached = phases.map(([id]) => id).filter((id) => !leaving.includes(id));
  if (attached.length > 0) {
    throw conflict(`vpc "${vpc.id}" still has ${attached.length} attached service(s): ${attached.slice(0, 5).join(', ')}; detach them first`);
  }
  const peerings = [...vpc.peerings.values()];
  const live = peerings.filter((p) => p.deletingUntil === undefined).length;
  if (live > 0) throw conflict(`vpc "${vpc.id}" still has ${live} peering(s); delete them first`);
  const going = [
    ...leaving.map((id) => `the attachment of service ${id}`),
    ...peerings.map((p) => `peering ${p.id}`),
  ];
  if (going.length > 0) {
    throw conflict(`vpc "${vpc.id}" is already being updated: waiting for ${going.slice(0, 5).join(', ')} to be removed; try again shortly`);
  }
}

/** The services attached, attaching or detaching, with their phase, after settling the finished ones. */
function attachmentPhases(project: ProjectRecord, vpc: VpcRecord, now: number): Array<[string, AttachmentPhase]> {
  const out: Array<[string, AttachmentPhase]> = [];
  for (const id of [...vpc.attached]) {
    const svc = project.services.get(id);
    if (!svc || !settleService(project, svc, now)) {
      vpc.attached.delete(id);
      continue;
    }
    const phase = attachmentPhaseAt(svc, now);
    if (phase !== 'none') out.push([id, phase]);
  }
  return out;
}
