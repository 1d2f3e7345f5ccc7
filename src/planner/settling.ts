// Managed resources still in transition (SPEC section 5): desired, matched to a live resource
// this plan keeps (not created or replaced by it), and in a transitional status. The plan lists
// them so that apply can wait for them before it says the project is settled.
import {
  compareAddresses,
  isPeeringSettling,
  isReplicaSetSettling,
  isServiceSettling,
  type Address,
  type SettlingResource,
} from '../model/index.js';
import type { PlanContext } from './context.js';

export function findSettling(ctx: PlanContext, keep: (address: Address) => boolean): SettlingResource[] {
  const out: SettlingResource[] = [];
  const kept = (address: Address) => keep(address) && !ctx.fresh.has(address) && !ctx.matching.skipped.has(address);
  for (const m of ctx.matching.services) {
    if (m.live && kept(m.address) && isServiceSettling(m.live.status)) out.push({ address: m.address, kind: 'service', id: m.live.id, status: m.live.status });
  }
  for (const m of ctx.matching.replicaSets) {
    const l = m.live;
    if (l && kept(m.address) && isReplicaSetSettling(l.status)) out.push({ address: m.address, kind: 'replica_set', id: l.id, parentId: l.serviceId, status: l.status });
  }
  for (const m of ctx.matching.peerings) {
    const l = m.live;
    if (l && kept(m.address) && isPeeringSettling(l.status)) out.push({ address: m.address, kind: 'peering', id: l.id, parentId: l.vpcId, status: l.status! });
  }
  return out.sort((a, b) => compareAddresses(a.address, b.address));
}
