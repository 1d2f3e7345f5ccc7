// The pure checks of `dbform import ADDR ID`: the address, the config, the lockfile, and what
// the ID turns out to be in the live lists. Each failure is a DbformError that says how to fix it.
import { closestMatch, DbformError, kindOf, parseAddress, type Address, type DesiredState, type Kind, type LiveService, type LiveVpc, type LockEntry, type Lockfile, type ParsedAddress } from '../model/index.js';
import { desiredAddresses } from '../planner/index.js';

export const ADDRESS_FORMS = 'vpc.<key>, peering.<vpc_key>.<peer_vpc_id>, service.<key> or replica_set.<service_key>.<key>';

const KIND_NOUN: Record<Kind, string> = { vpc: 'VPC', peering: 'peering', service: 'service', replica_set: 'replica set' };
const KIND_FORM: Record<Kind, string> = { vpc: 'vpc.<key>', peering: 'peering.<vpc_key>.<peer_vpc_id>', service: 'service.<key>', replica_set: 'replica_set.<service_key>.<key>' };

export function parseImportAddress(address: string): ParsedAddress {
  const parsed = parseAddress(address);
  if (!parsed) throw new DbformError(`"${address}" is not an address; use ${ADDRESS_FORMS}`);
  return parsed;
}

/** The address must be in the config, so that a typo cannot bind an ID to nonsense. */
export function checkInConfig(address: Address, desired: DesiredState): void {
  const known = [...desiredAddresses(desired)];
  if (known.includes(address)) return;
  const files = desired.files.join(', ');
  const near = closestMatch(address, known.filter((a) => kindOf(a) === kindOf(address)));
  const hint = near === undefined ? '' : `; did you mean ${near}?`;
  throw new DbformError(`${address} is not in the config (${files}); add it there first, then import it${hint}`);
}

export type BindingCheck = { kind: 'new' } | { kind: 'same' } | { kind: 'rebind'; previous: LockEntry };

/**
 * An ID bound to another address is refused (one resource, one address); an address bound to
 * another ID needs --force (its old resource then becomes unmanaged, not deleted).
 */
export function checkBinding(address: Address, id: string, lock: Lockfile, lockPath: string, force: boolean): BindingCheck {
  const kind = kindOf(address);
  for (const [other, entry] of Object.entries(lock.resources)) {
    if (other !== address && kindOf(other) === kind && entry.id === id) {
      throw new DbformError(
        `${id} is already bound to ${other} in ${lockPath}; a resource has one address. To give it the address ${address} instead, ` +
          `rename it with \`moved: [{ from: ${other}, to: ${address} }]\` in the config, or remove ${other} from the lockfile first`,
      );
    }
  }
  const previous = lock.resources[address];
  if (previous === undefined) return { kind: 'new' };
  if (previous.id === id) return { kind: 'same' };
  if (!force) {
    throw new DbformError(
      `${address} is already bound to ${previous.id} in ${lockPath}; to bind it to ${id} instead, pass --force ` +
        `(${previous.id} then stays live but unmanaged; nothing is deleted)`,
    );
  }
  return { kind: 'rebind', previous };
}

/** What a live ID is, for "wrong kind" messages: `a VPC ("main")`, or undefined when unknown. */
export function describeLiveId(id: string, services: readonly LiveService[], vpcs: readonly LiveVpc[]): { kind: Kind; text: string } | undefined {
  const vpc = vpcs.find((v) => v.id === id);
  if (vpc) return { kind: 'vpc', text: `a VPC ("${vpc.name}")` };
  for (const s of services) {
    if (s.id === id) return { kind: 'service', text: `a service ("${s.name}")` };
    const rs = s.replicaSets.find((r) => r.id === id);
    if (rs) return { kind: 'replica_set', text: `a replica set ("${rs.name}") of service "${s.name}" (${s.id})` };
  }
  return undefined;
}

/** The error for an ID not found where the address says: of another kind, or not there at all. */
export function notFoundError(wanted: Kind, id: string, where: string, found: { kind: Kind; text: string } | undefined): DbformError {
  if (found && found.kind !== wanted) {
    return new DbformError(`${id} is ${found.text}, not a ${KIND_NOUN[wanted]}; ${KIND_NOUN[found.kind]}s are bound to ${KIND_FORM[found.kind]} addresses`);
  }
  if (found) return new DbformError(`${id} is ${found.text}, not in ${where}`);
  return new DbformError(`no ${KIND_NOUN[wanted]} with ID ${id} in ${where}`);
}
