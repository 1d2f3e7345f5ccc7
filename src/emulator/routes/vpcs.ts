import { conflict, invalidField } from '../errors.js';
import type { Route } from '../router.js';
import type { VpcRecord } from '../store.js';
import { attachmentPhaseAt, settleService } from '../timelines.js';
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
      const attached = attachedServices(project, vpc, ctx.now);
      if (attached.length > 0) {
        throw conflict(`vpc "${vpc.id}" still has ${attached.length} attached service(s): ${attached.slice(0, 5).join(', ')}; detach them first`);
      }
      if (vpc.peerings.size > 0) {
        throw conflict(`vpc "${vpc.id}" still has ${vpc.peerings.size} peering(s); delete them first`);
      }
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

/** IDs of the services attached, attaching or detaching, after settling the finished ones. */
function attachedServices(project: ReturnType<typeof projectOf>, vpc: VpcRecord, now: number): string[] {
  for (const id of [...vpc.attached]) {
    const svc = project.services.get(id);
    if (!svc) vpc.attached.delete(id);
    else settleService(project, svc, now);
  }
  return [...vpc.attached].filter((id) => {
    const svc = project.services.get(id);
    return svc !== undefined && attachmentPhaseAt(svc, now) !== 'none';
  });
}
