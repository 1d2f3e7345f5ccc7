import { randomBytes } from 'node:crypto';
import { DURATIONS } from '../clock.js';
import { conflict, notFound } from '../errors.js';
import type { Route } from '../router.js';
import type { PeeringRecord } from '../store.js';
import { bodyObject, requireString } from '../validate.js';
import { toPeeringDto } from '../views.js';
import { noContent, ok, projectOf, requireVpcCreated, vpcOf } from './common.js';

const BASE = '/projects/{project_id}/vpcs/{vpc_id}/peerings';

export const peeringRoutes: Route[] = [
  {
    method: 'GET',
    template: BASE,
    handle(ctx) {
      const vpc = vpcOf(ctx, projectOf(ctx));
      return ok([...vpc.peerings.values()].map((p) => toPeeringDto(p, ctx.now, ctx.dialect)));
    },
  },
  {
    method: 'POST',
    template: BASE,
    handle(ctx) {
      const vpc = vpcOf(ctx, projectOf(ctx));
      const b = bodyObject(ctx.body);
      const peerAccountId = requireString(b, 'peer_account_id', { max: 64 });
      const peerRegionCode = requireString(b, 'peer_region_code', { max: 64, pattern: ctx.dialect.regionPattern, hint: ctx.dialect.regionHint });
      const peerVpcId = requireString(b, 'peer_vpc_id');
      requireVpcCreated(vpc, ctx.now, 'peer');
      for (const p of vpc.peerings.values()) {
        if (p.peerVpcId !== peerVpcId) continue;
        const still = p.deletingUntil === undefined ? '' : ' (still being deleted; try again shortly)';
        throw conflict(`vpc "${vpc.id}" already has peering "${p.id}" to peer vpc "${peerVpcId}"${still}`);
      }
      const settlesAt = ctx.now + ctx.clock.scale(DURATIONS.peeringPending);
      const peering: PeeringRecord = {
        id: ctx.world.newId('digits'),
        peerAccountId,
        peerRegionCode,
        peerVpcId,
        settlesAt,
        fails: !/^[0-9]{12}$/.test(peerAccountId),
        provisionedId: `pcx-${randomBytes(9).toString('hex').slice(0, 17)}`,
      };
      // Under manual acceptance the peer has not accepted yet: the acceptance step starts at the
      // control endpoint's accept (control.ts), not here.
      if (ctx.dialect.switches.peeringAcceptance === 'manual') peering.awaitsAcceptance = true;
      else if (ctx.dialect.peeringStatus.approved !== undefined) peering.approvedUntil = settlesAt + ctx.clock.scale(DURATIONS.peeringApproved);
      vpc.peerings.set(peering.id, peering);
      // The create answer always shows the pending status, even when time scale 0 settles it at once.
      return { status: 201, body: toPeeringDto(peering, -Infinity, ctx.dialect), mutated: true };
    },
  },
  {
    method: 'GET',
    template: `${BASE}/{peering_id}`,
    handle(ctx) {
      const vpc = vpcOf(ctx, projectOf(ctx));
      return ok(toPeeringDto(peeringOf(vpc.peerings, ctx.params.peering_id!), ctx.now, ctx.dialect));
    },
  },
  {
    method: 'DELETE',
    template: `${BASE}/{peering_id}`,
    handle(ctx) {
      const vpc = vpcOf(ctx, projectOf(ctx));
      const peering = peeringOf(vpc.peerings, ctx.params.peering_id!);
      if (ctx.dialect.switches.teardown === 'eventual') tearDown(peering, ctx.now, ctx.now + ctx.clock.scale(DURATIONS.peeringDeleting));
      else vpc.peerings.delete(peering.id);
      return noContent();
    },
  },
];

/**
 * Eventual teardown: the peering is listed as deleting until `until`, then gone (timelines.ts
 * settlePeerings). A second delete meanwhile is a 409, as for a service being deleted.
 */
function tearDown(p: PeeringRecord, now: number, until: number): void {
  if (p.deletingUntil !== undefined) throw conflict(`peering "${p.id}" is already being deleted`);
  // One not provisioned yet never will be: it shows no provisioned_id while torn down.
  if (now < p.settlesAt) p.settlesAt = until;
  delete p.awaitsAcceptance;
  p.deletingUntil = until;
}

function peeringOf(peerings: Map<string, PeeringRecord>, id: string): PeeringRecord {
  const p = peerings.get(id);
  if (!p) throw notFound(`peering "${id}" not found`);
  return p;
}
