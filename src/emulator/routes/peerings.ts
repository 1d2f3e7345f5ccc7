import { randomBytes } from 'node:crypto';
import { DURATIONS } from '../clock.js';
import { conflict, notFound } from '../errors.js';
import type { Route } from '../router.js';
import type { PeeringRecord } from '../store.js';
import { bodyObject, REGION_PATTERN, requireString } from '../validate.js';
import { toPeeringDto } from '../views.js';
import { noContent, ok, projectOf, vpcOf } from './common.js';
import { REGION_HINT } from './vpcs.js';

const BASE = '/projects/{project_id}/vpcs/{vpc_id}/peerings';

export const peeringRoutes: Route[] = [
  {
    method: 'GET',
    template: BASE,
    handle(ctx) {
      const vpc = vpcOf(ctx, projectOf(ctx));
      return ok([...vpc.peerings.values()].map((p) => toPeeringDto(p, ctx.now)));
    },
  },
  {
    method: 'POST',
    template: BASE,
    handle(ctx) {
      const vpc = vpcOf(ctx, projectOf(ctx));
      const b = bodyObject(ctx.body);
      const peerAccountId = requireString(b, 'peer_account_id', { max: 64 });
      const peerRegionCode = requireString(b, 'peer_region_code', { max: 64, pattern: REGION_PATTERN, hint: REGION_HINT });
      const peerVpcId = requireString(b, 'peer_vpc_id');
      for (const p of vpc.peerings.values()) {
        if (p.peerVpcId === peerVpcId) throw conflict(`vpc "${vpc.id}" already has peering "${p.id}" to peer vpc "${peerVpcId}"`);
      }
      const peering: PeeringRecord = {
        id: ctx.world.newId('digits'),
        peerAccountId,
        peerRegionCode,
        peerVpcId,
        settlesAt: ctx.now + ctx.clock.scale(DURATIONS.peeringPending),
        fails: !/^[0-9]{12}$/.test(peerAccountId),
        provisionedId: `pcx-${randomBytes(9).toString('hex').slice(0, 17)}`,
      };
      vpc.peerings.set(peering.id, peering);
      // The create answer always shows `pending`, even when time scale 0 settles it at once.
      return { status: 201, body: toPeeringDto(peering, -Infinity), mutated: true };
    },
  },
  {
    method: 'GET',
    template: `${BASE}/{peering_id}`,
    handle(ctx) {
      const vpc = vpcOf(ctx, projectOf(ctx));
      return ok(toPeeringDto(peeringOf(vpc.peerings, ctx.params.peering_id!), ctx.now));
    },
  },
  {
    method: 'DELETE',
    template: `${BASE}/{peering_id}`,
    handle(ctx) {
      const vpc = vpcOf(ctx, projectOf(ctx));
      const peering = peeringOf(vpc.peerings, ctx.params.peering_id!);
      vpc.peerings.delete(peering.id);
      return noContent();
    },
  },
];

function peeringOf(peerings: Map<string, PeeringRecord>, id: string): PeeringRecord {
  const p = peerings.get(id);
  if (!p) throw notFound(`peering "${id}" not found`);
  return p;
}
