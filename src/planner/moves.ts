// The lockfile as the plan sees it: entries keyed by address after `moved:` entries are applied.
import { kindOf, type Address, type Binding, type Diagnostic, type Kind, type LockEntry, type MovedEntry } from '../model/index.js';
import type { ListedEntry } from './lock-entries.js';

/** A lockfile entry as matching holds it: the address it was read under, and its kind (parsed once: a move keeps the kind). */
export interface HeldEntry {
  entry: LockEntry;
  origin: Address;
  kind: Kind;
}

export interface LockView {
  entries: Map<Address, HeldEntry>;
  bindings: Binding[];
}

export function buildLockView(listed: readonly ListedEntry[], diagnostics: Diagnostic[]): LockView {
  const entries = new Map<Address, HeldEntry>();
  for (const { address, kind, entry } of listed) {
    if (kind === undefined) {
      diagnostics.push({
        severity: 'warning',
        code: 'lockfile-address',
        message: `the state binds "${address}", which is not a valid address; it is ignored`,
      });
      continue;
    }
    entries.set(address, { entry, origin: address, kind });
  }
  return { entries, bindings: [] };
}

/**
 * Applies explicit `moved:` entries in order. An entry whose `from` is not in the lockfile is a
 * no-op rather than an error (as in Terraform): either it was applied before and the config keeps
 * it as a record, or this lockfile (a fresh environment using the same config) never held `from`.
 */
export function applyExplicitMoves(view: LockView, moved: MovedEntry[], desired: Set<Address>, diagnostics: Diagnostic[]): void {
  for (const m of moved) {
    const problem = movedProblem(view, m, desired);
    if (problem === 'done') continue;
    if (problem) {
      diagnostics.push({ severity: 'error', code: 'moved', message: problem, address: m.to, ...(m.source ? { source: m.source } : {}) });
      continue;
    }
    moveEntry(view, m.from, m.to);
  }
}

function movedProblem(view: LockView, m: MovedEntry, desired: Set<Address>): string | 'done' | undefined {
  const where = `moved: ${m.from} -> ${m.to}`;
  const fromKind = kindOf(m.from);
  const toKind = kindOf(m.to);
  if (!fromKind || !toKind) return `${where}: both sides must be addresses such as service.<key>`;
  if (fromKind !== toKind) return `${where}: a ${fromKind} cannot move to a ${toKind}`;
  if (!desired.has(m.to)) return `${where}: ${m.to} is not in the config`;
  const hasFrom = view.entries.has(m.from);
  if (hasFrom && view.entries.has(m.to)) return `${where}: the state already binds both addresses; remove one binding with care (\`dbform state rm\`) or drop this moved entry`;
  if (!hasFrom) return 'done';
  return undefined;
}

/** Moves a lockfile entry to a new address, collapsing a chain of moves into one binding. */
export function moveEntry(view: LockView, from: Address, to: Address): void {
  const held = view.entries.get(from)!;
  view.entries.delete(from);
  view.entries.set(to, held);
  const previous = view.bindings.findIndex((b) => b.kind === 'move' && b.address === from);
  if (previous >= 0) view.bindings.splice(previous, 1);
  view.bindings.push({ kind: 'move', address: to, from: held.origin, id: held.entry.id });
}
