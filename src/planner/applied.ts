// What the state records after an apply (SPEC section 11): for each resource the config manages
// and the apply left as configured, each managed field's `record` (its field descriptor, in the
// vocabulary of its `live`; a kind may record more, its `applied`). Drift (drift.ts) compares the
// live resources with this record later.
import { eachDesired, type AnyKind } from '../kinds/index.js';
import { recordFields, sameValue, type Address, type DesiredState, type Lockfile } from '../model/index.js';

/**
 * The record of every desired address that `lock` (the state as the apply ended) binds, except
 * those `settled` rejects: an address whose actions did not all finish, or that --target left out.
 */
export function appliedRecords(desired: DesiredState, lock: Lockfile, settled: (address: Address) => boolean): Map<Address, Record<string, unknown>> {
  const out = new Map<Address, Record<string, unknown>>();
  eachDesired(desired, (def, d) => {
    const address = d.address!;
    if (lock.resources[address] && settled(address)) out.set(address, def.applied ? def.applied(d, lock) : recordFields(def.fields, d));
  });
  return out;
}

/**
 * The record of one desired address with `lock` as it is when asked (a VPC named by key is the ID
 * it binds by then): what an operation seen to finish records of the fields it set (SPEC section
 * 14). Undefined for an address the config does not have. The addresses are indexed once.
 */
export function appliedRecorder(desired: DesiredState): (address: Address, lock: Readonly<Lockfile>) => Record<string, unknown> | undefined {
  const byAddress = new Map<Address, { def: AnyKind; d: unknown }>();
  eachDesired(desired, (def, d) => void byAddress.set(d.address!, { def, d }));
  return (address, lock) => {
    const found = byAddress.get(address);
    if (found === undefined) return undefined;
    return found.def.applied ? found.def.applied(found.d, lock as Lockfile) : recordFields(found.def.fields, found.d);
  };
}

/** Whether two records hold the same fields and values. */
export function sameApplied(a: Record<string, unknown> | undefined, b: Record<string, unknown>): boolean {
  return a !== undefined && sameValue(a, b);
}
