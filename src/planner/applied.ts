// What the state records after an apply (SPEC section 11): for each resource the config manages
// and the apply left as configured, each managed field's `record` (its field descriptor, in the
// vocabulary of its `live`). Drift (drift.ts) compares the live resources with this record later.
import {
  recordFields,
  sameValue,
  vpcAddress,
  type Address,
  type DesiredService,
  type DesiredState,
  type Lockfile,
} from '../model/index.js';
import { PEERING_FIELDS } from '../kinds/peering/kind.js';
import { REPLICA_SET_FIELDS } from '../kinds/replica-set/kind.js';
import { SERVICE_FIELDS } from '../kinds/service/fields.js';
import { VPC_FIELDS } from '../kinds/vpc/kind.js';

/** A service's record: the VPC named by key is the ID the state binds it to when the apply ends. */
function serviceRecord(s: DesiredService, lock: Lockfile): Record<string, unknown> {
  const record = recordFields(SERVICE_FIELDS, s);
  if (s.vpc && 'key' in s.vpc) {
    const id = lock.resources[vpcAddress(s.vpc.key)]?.id;
    if (id !== undefined) record.vpc = id;
  }
  return record;
}

/**
 * The record of every desired address that `lock` (the state as the apply ended) binds, except
 * those `settled` rejects: an address whose actions did not all finish, or that --target left out.
 */
export function appliedRecords(desired: DesiredState, lock: Lockfile, settled: (address: Address) => boolean): Map<Address, Record<string, unknown>> {
  const out = new Map<Address, Record<string, unknown>>();
  const add = (address: Address, record: () => Record<string, unknown>) => {
    if (lock.resources[address] && settled(address)) out.set(address, record());
  };
  for (const v of desired.vpcs) {
    add(v.address, () => recordFields(VPC_FIELDS, v));
    for (const p of v.peerings) add(p.address, () => recordFields(PEERING_FIELDS, p));
  }
  for (const s of desired.services) {
    add(s.address, () => serviceRecord(s, lock));
    for (const r of s.replicaSets) add(r.address, () => recordFields(REPLICA_SET_FIELDS, r));
  }
  return out;
}

/** Whether two records hold the same fields and values. */
export function sameApplied(a: Record<string, unknown> | undefined, b: Record<string, unknown>): boolean {
  return a !== undefined && sameValue(a, b);
}
