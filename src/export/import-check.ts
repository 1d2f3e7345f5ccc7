// The pure checks of `dbform import ADDR ID`: the address, the config, the lockfile, and what
// the ID turns out to be in the live lists. Each failure is a DbformError that says how to fix it.
import { childKinds, TOP_KINDS, type AnyKind } from '../kinds/index.js';
import {
  addressForm,
  addressForms,
  closestMatch,
  DbformError,
  kindOf,
  nounOf,
  parseAddress,
  type Address,
  type DesiredState,
  type Kind,
  type LiveState,
  type LockEntry,
  type Lockfile,
  type ParsedAddress,
} from '../model/index.js';
import { desiredAddresses } from '../planner/index.js';

export const ADDRESS_FORMS = addressForms('snake');

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
          `rename it with \`moved: [{ from: ${other}, to: ${address} }]\` in the config, or forget ${other} first with \`dbform state rm ${other}\``,
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

type Named = { id: string; name: string };

/**
 * What a live ID is, for "wrong kind" messages: `a VPC ("main")`, a child's `a <noun> ("r") of
 * service "db" (kd9w2xp4mz)`, or undefined when unknown. Only kinds named by `name` are looked at.
 */
export function describeLiveId(id: string, live: Pick<LiveState, 'vpcs' | 'services'>): { kind: Kind; text: string } | undefined {
  const look = (def: AnyKind, items: readonly Named[], parent?: Named): { kind: Kind; text: string } | undefined => {
    for (const x of items) {
      if (def.naming.key === 'name' && x.id === id) {
        const of = parent && def.parent ? ` of ${nounOf(def.parent)} "${parent.name}" (${parent.id})` : '';
        return { kind: def.kind, text: `a ${nounOf(def.kind)} ("${x.name}")${of}` };
      }
      for (const child of childKinds(def.kind)) {
        const found = look(child, ((x as Record<string, unknown>)[child.listKey] ?? []) as Named[], x);
        if (found) return found;
      }
    }
    return undefined;
  };
  for (const top of TOP_KINDS) {
    const found = look(top, ((live as Record<string, unknown>)[top.listKey] ?? []) as Named[]);
    if (found) return found;
  }
  return undefined;
}

/** The error for an ID not found where the address says: of another kind, or not there at all. */
export function notFoundError(wanted: Kind, id: string, where: string, found: { kind: Kind; text: string } | undefined): DbformError {
  if (found && found.kind !== wanted) {
    return new DbformError(`${id} is ${found.text}, not a ${nounOf(wanted)}; ${nounOf(found.kind)}s are bound to ${addressForm(found.kind, 'snake')} addresses`);
  }
  if (found) return new DbformError(`${id} is ${found.text}, not in ${where}`);
  return new DbformError(`no ${nounOf(wanted)} with ID ${id} in ${where}`);
}
