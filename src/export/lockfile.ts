// The lockfile of an export, and what it would take away from a lockfile already on disk.
import { addressOf, serializeLockfile, type Address, type LockEntry, type Lockfile } from '../model/index.js';
import type { ExportDocument, ExportedCollection } from './document.js';

/**
 * Binds every exported address to its ID. From `previous` (same project) an entry for the same
 * address and ID keeps its `password_version` and `protect`: neither can be read from the API;
 * the bindings a restore retired are kept as they are (doc.retained); and the state keeps its lineage (its serial goes on from there when written).
 */
export function buildExportLockfile(doc: ExportDocument, previous?: Lockfile): Lockfile {
  const resources: Record<Address, LockEntry> = {};
  const bind = (address: Address, id: string) => {
    const old = previous?.resources[address];
    resources[address] = old?.id === id ? { ...old } : { id };
  };
  // An entry's key is its own (a map kind's) or what identifies it (a list kind's): its address either way.
  const walk = (c: ExportedCollection, parentKey?: string) => {
    for (const e of c.entries) {
      bind(addressOf(c.kind, parentKey, e.key), e.id);
      for (const child of e.children) walk(child, e.key);
    }
  };
  doc.collections.forEach((c) => walk(c));
  for (const address of doc.retained) if (previous?.resources[address]) resources[address] = { ...previous.resources[address] };
  const identity = previous?.lineage !== undefined ? { lineage: previous.lineage, ...(previous.serial !== undefined ? { serial: previous.serial } : {}) } : {};
  return { version: 1, projectId: doc.projectId, ...identity, resources };
}

export interface LostBinding {
  address: Address;
  id: string;
  /** The address the ID moves to in the new lockfile, when it stays bound. */
  movedTo?: Address;
}

/** Entries of `previous` that `next` does not hold as they are (dropped, or bound elsewhere). */
export function lostBindings(previous: Lockfile, next: Lockfile): LostBinding[] {
  const addressOfId = new Map<string, Address>();
  for (const [address, e] of Object.entries(next.resources)) addressOfId.set(`${address.split('.')[0]}:${e.id}`, address);
  const out: LostBinding[] = [];
  for (const address of Object.keys(previous.resources).sort()) {
    const id = previous.resources[address]!.id;
    if (next.resources[address]?.id === id) continue;
    const movedTo = addressOfId.get(`${address.split('.')[0]}:${id}`);
    out.push(movedTo === undefined ? { address, id } : { address, id, movedTo });
  }
  return out;
}

/** True when both bind the same addresses to the same entries (lineage and serial aside). */
export function sameBindings(a: Lockfile, b: Lockfile): boolean {
  const strip = (l: Lockfile) => serializeLockfile({ version: 1, projectId: l.projectId, resources: l.resources });
  return strip(a) === strip(b);
}

export function describeLostBinding(b: LostBinding): string {
  return b.movedTo === undefined ? `${b.address} (${b.id}): not in this export` : `${b.address} (${b.id}): now ${b.movedTo}`;
}
