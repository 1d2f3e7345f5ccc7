// Problems of the lockfile itself that make any plan from it wrong (SPEC section 2).
import { compareAddresses, kindOf, nounOf, type Address, type Diagnostic, type Kind, type Lockfile } from '../model/index.js';

/**
 * One ID bound to two addresses of one kind. Planning on would act on the resource twice (delete
 * it for one address while updating it for the other, or delete the wrong one), so nothing is
 * planned: one error per ID, naming every address that binds it.
 */
export function duplicateIdErrors(lock: Lockfile): Diagnostic[] {
  const holders = new Map<string, Address[]>();
  for (const [address, entry] of Object.entries(lock.resources)) {
    const kind = kindOf(address);
    if (kind === undefined) continue;
    const key = `${kind}:${entry.id}`;
    const list = holders.get(key);
    if (list) list.push(address);
    else holders.set(key, [address]);
  }
  const out: Diagnostic[] = [];
  const duplicated = [...holders].filter(([, addresses]) => addresses.length > 1);
  for (const [key, addresses] of duplicated.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
    const [kind, id] = [key.slice(0, key.indexOf(':')) as Kind, key.slice(key.indexOf(':') + 1)];
    const sorted = [...addresses].sort(compareAddresses);
    const list = `${sorted.length === 2 ? 'both ' : ''}${sorted.slice(0, -1).join(', ')} and ${sorted[sorted.length - 1]}`;
    out.push({
      severity: 'error',
      code: 'duplicate-id',
      message:
        `the lockfile binds ${nounOf(kind)} ID ${id} to ${list}; one resource can have one address only, so nothing is planned: ` +
        `remove the wrong entry from the lockfile (bind an address to another resource with \`dbform import ADDR ID\`)`,
    });
  }
  return out;
}
