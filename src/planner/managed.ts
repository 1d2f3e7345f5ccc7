// Which live services a plan can touch: the ones the lockfile binds (its service entries) and the
// ones the config names (candidates for adoption). Where the API does not embed replica sets in
// the services list, only these have theirs read (SPEC section 12), so a plan costs 2 + V + M.
import { parseAddress, serviceAddress, type DesiredState, type LiveService, type Lockfile } from '../model/index.js';

/**
 * A predicate on live services, or `'all'` when the lockfile binds a replica set without binding
 * its service: its owner could be any service, and a replica set not read would look deleted.
 */
export function managedServiceFilter(desired: Pick<DesiredState, 'services'>, lock: Lockfile): 'all' | ((svc: LiveService) => boolean) {
  const ids = new Set<string>();
  for (const [address, entry] of Object.entries(lock.resources)) {
    const parsed = parseAddress(address);
    if (parsed?.kind === 'service') ids.add(entry.id);
    if (parsed?.kind === 'replica_set' && lock.resources[serviceAddress(parsed.serviceKey)] === undefined) return 'all';
  }
  const names = new Set(desired.services.map((s) => s.name));
  return (svc) => ids.has(svc.id) || names.has(svc.name);
}
