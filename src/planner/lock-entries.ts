// A lockfile's entries as a list, each with its address's kind. Listing an object of 30,000 keys
// (the lockfile of 10,000 services) costs milliseconds each time, and a plan asked for it four
// times: planChanges lists the state once and hands the list on.
import { kindOf, type Address, type Kind, type LockEntry, type Lockfile } from '../model/index.js';

export interface ListedEntry {
  address: Address;
  /** Undefined when the address is not one (the lock view warns of it). */
  kind: Kind | undefined;
  entry: LockEntry;
}

export function listEntries(lock: Lockfile): ListedEntry[] {
  const out: ListedEntry[] = [];
  for (const address of Object.keys(lock.resources)) out.push({ address, kind: kindOf(address), entry: lock.resources[address]! });
  return out;
}
