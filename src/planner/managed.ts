// Which live parents a plan can touch: the ones the lockfile binds and the ones the config names
// (candidates for adoption). Where a parent's list does not carry the resources of a kind that is
// read only for those (its `read.onlyManagedParents`), only theirs are read (SPEC section 12), so a
// plan costs 2 + V + M requests.
import { desiredIn, KINDS, kindDef } from '../kinds/index.js';
import { kindOf, parentAddressOf, type DesiredState, type Kind, type Lockfile } from '../model/index.js';

/** By kind, a predicate on the live parents whose lists to read; none (all) for a kind whose resources the lockfile binds without their parent. */
export type ParentsToRead = Partial<Record<Kind, (parent: never) => boolean>>;

/**
 * The parents of each such kind that `lock` binds or `desired` names (none named when undefined:
 * a destroy touches only what the state binds). A kind is left out, so read for every parent,
 * when the lockfile binds one of its resources without binding its parent: its parent could be
 * any, and a resource not read would look deleted.
 */
export function managedParents(desired: DesiredState | undefined, lock: Lockfile): ParentsToRead {
  const out: ParentsToRead = {};
  for (const child of KINDS.filter((k) => k.read.onlyManagedParents)) {
    const parent = kindDef(child.parent!);
    const ids = new Set<string>();
    let everyParent = false;
    for (const [address, entry] of Object.entries(lock.resources)) {
      const kind = kindOf(address);
      if (kind === parent.kind) ids.add(entry.id);
      if (kind === child.kind && lock.resources[parentAddressOf(address)!] === undefined) everyParent = true;
    }
    if (everyParent) continue;
    const names = new Set(desired ? desiredIn(parent, desired).map((d) => parent.naming.desired(d)) : []);
    out[child.kind] = (p: { id: string }) => ids.has(p.id) || names.has(parent.naming.live(p));
  }
  return out;
}
