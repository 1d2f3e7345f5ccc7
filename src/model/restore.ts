// The vocabulary of a restore (SPEC section 17): the stamp that names what a restore retires, the
// retired addresses and names, and what binding the restored address to its fork does to the state.
import { KEY_PATTERN, parentAddressOf, parseAddress, type Address } from './address.js';
import type { LockEntry, Lockfile } from './lockfile.js';

/**
 * When a restore was planned, as its retired names carry it: `20260301-120000` (UTC, to the
 * second). The caller's clock decides it; a saved plan and the state record it, so planning the
 * same restore again names the same retired address.
 */
export function restoreStamp(ms: number): string {
  const iso = new Date(ms).toISOString();
  return `${iso.slice(0, 10).replace(/-/g, '')}-${iso.slice(11, 19).replace(/:/g, '')}`;
}

export const RESTORE_STAMP_PATTERN = /^[0-9]{8}-[0-9]{6}$/;

const BEFORE = '-before-';
/** How much of a key fits before `-before-<stamp>` in a key of at most 63 characters. */
const KEY_ROOM = 63 - BEFORE.length - 15;
/** And of a name, in a name of at most 128. */
const NAME_ROOM = 128 - BEFORE.length - 15;

/** `db-before-20260301-120000`: the key a restore retires `key` under. */
export const retiredKey = (key: string, stamp: string): string => `${key.slice(0, KEY_ROOM)}${BEFORE}${stamp}`;

/** The name a restore gives the original where the API renames in place; a name that has it already stays. */
export function retiredName(name: string, stamp: string): string {
  return name.endsWith(`${BEFORE}${stamp}`) ? name : `${[...name].slice(0, NAME_ROOM).join('')}${BEFORE}${stamp}`;
}

/** The stamp of a retired address (`service.db-before-20260301-120000`), if it is one. */
export function stampOf(address: Address): string | undefined {
  const m = /-before-([0-9]{8}-[0-9]{6})$/.exec(address.split('.')[1] ?? '');
  return m?.[1];
}

/**
 * The address `address` retires to when the service `restored` is restored: the service's own
 * key with `-before-<stamp>`, or, for a resource of the service (its parent key first), the same
 * with the retired service's key. Undefined for an address that does not belong to `restored`.
 */
export function retiredAddressOf(address: Address, restored: Address, stamp: string): Address | undefined {
  const [kind, key] = restored.split('.') as [string, string];
  const retired = retiredKey(key, stamp);
  if (address === restored) return `${kind}.${retired}`;
  if (parentAddressOf(address) !== restored) return undefined;
  const [childKind, , ...rest] = address.split('.');
  return [childKind, retired, ...rest].join('.');
}

/** Whether `address` is a well-formed retired address of a service restored at `stamp`. */
export const isRetiredForm = (address: Address): boolean => {
  const parsed = parseAddress(address);
  return parsed !== undefined && stampOf(address) !== undefined && KEY_PATTERN.test(address.split('.')[1]!);
};

/**
 * Binds `address` to `id` in `resources` (changed in place). When the entry there is `restoring`
 * and binds another ID, the restore's fork has arrived: that entry, and every `restoring` entry
 * of a resource belonging to it, first moves to its `retireAs`, retired (the restored service's
 * own entry protected), all in the same change, so no state written in between leaves the
 * address bound to nothing or loses the original's binding.
 */
export function bindRetiring(resources: Record<Address, LockEntry>, address: Address, id: string, extra: Omit<LockEntry, 'id'>): void {
  const previous = resources[address];
  if (previous?.restoring && previous.id !== id) {
    retireEntry(resources, address, true);
    for (const a of Object.keys(resources)) if (parentAddressOf(a) === address && resources[a]!.restoring) retireEntry(resources, a, false);
  }
  const kept = resources[address];
  const base = kept && kept.id === id ? kept : {};
  resources[address] = { ...base, ...extra, id };
}

function retireEntry(resources: Record<Address, LockEntry>, address: Address, own: boolean): void {
  const entry = resources[address]!;
  const { retireAs, targetTime } = entry.restoring!;
  delete resources[address];
  // Drift and passwords were the address's; what stays is the binding, retired and guarded.
  const protect = own || entry.protect === true;
  resources[retireAs] = { id: entry.id, ...(protect ? { protect: true } : {}), retired: { from: address, targetTime } };
}

/**
 * Whether the state protects `address`: its entry says so, or it is retired with a service
 * whose retired entry does (a retired original's resources go only with it).
 */
export function isProtectedInState(lock: Pick<Lockfile, 'resources'>, address: Address): boolean {
  const entry = lock.resources[address];
  if (entry === undefined) return false;
  if (entry.protect === true) return true;
  const parent = entry.retired ? parentAddressOf(address) : undefined;
  return parent !== undefined && lock.resources[parent]?.retired !== undefined && lock.resources[parent]?.protect === true;
}
