// What the state records after an apply (SPEC section 11): for each resource the config manages
// and the apply left as configured, the managed fields in live terms. Drift (drift.ts) compares
// the live resources with this record later.
import {
  appliedRecord,
  PEERING_FIELDS,
  REPLICA_SET_FIELDS,
  SERVICE_FIELDS,
  sortedApplied,
  VPC_FIELDS,
  vpcAddress,
  type Address,
  type AppliedValue,
  type DesiredState,
  type Lockfile,
} from '../model/index.js';

/**
 * The record of every desired address that `lock` (the state as the apply ended) binds, except
 * those `settled` rejects: an address whose actions did not all finish, or that --target left out.
 */
export function appliedRecords(desired: DesiredState, lock: Lockfile, settled: (address: Address) => boolean): Map<Address, Record<string, AppliedValue>> {
  const vpcIdOf = (key: string) => lock.resources[vpcAddress(key)]?.id;
  const out = new Map<Address, Record<string, AppliedValue>>();
  const add = (address: Address, record: Record<string, AppliedValue>) => {
    if (lock.resources[address] && settled(address)) out.set(address, sortedApplied(record));
  };
  for (const v of desired.vpcs) {
    add(v.address, appliedRecord(VPC_FIELDS, v, vpcIdOf));
    for (const p of v.peerings) add(p.address, appliedRecord(PEERING_FIELDS, p, vpcIdOf));
  }
  for (const s of desired.services) {
    add(s.address, appliedRecord(SERVICE_FIELDS, s, vpcIdOf));
    for (const r of s.replicaSets) add(r.address, appliedRecord(REPLICA_SET_FIELDS, r, vpcIdOf));
  }
  return out;
}

/** Whether two records hold the same fields and values. */
export function sameApplied(a: Record<string, AppliedValue> | undefined, b: Record<string, AppliedValue>): boolean {
  return a !== undefined && JSON.stringify(sortedApplied(a)) === JSON.stringify(sortedApplied(b));
}
