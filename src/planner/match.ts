// Matching live to desired (SPEC section 2): lockfile ID, else a unique live resource with the
// desired name (adopt, or a move when a removed address held that ID), else create.
import { childKinds, desiredIn, eachDesired, KINDS, kindDef, liveIn, TOP_KINDS, type AnyKind } from '../kinds/index.js';
import {
  KIND_NOUNS,
  nounOf,
  type Address,
  type Binding,
  type DesiredState,
  type Diagnostic,
  type Kind,
  type LockEntry,
  type Lockfile,
  type SourceRef,
} from '../model/index.js';
import { effectiveProtect, type LiveIndex, type LiveResource, type Match, type Matching, type RemovedEntry } from './context.js';
import { listEntries, type ListedEntry } from './lock-entries.js';
import { applyExplicitMoves, buildLockView, moveEntry, type HeldEntry, type LockView } from './moves.js';

/** What the lockfile's entries hold, by `kind:id`, as matching by name asks it. */
interface Claims {
  /** `kind:id` held by lockfile entries of desired addresses (or retired ones): not up for adoption. */
  claimed: Set<string>;
  /** `kind:id` -> the removed address (no longer in the config) whose lockfile entry holds it. */
  holders: Map<string, Address>;
}

interface MatchState {
  view: LockView;
  /**
   * The claims, made when matching by name first asks (see claimsOf): a plan whose every resource
   * is bound by its lockfile ID (the usual one) never makes a key for each of its entries.
   */
  claims: () => Claims;
  /** IDs another workspace of the same state binds (SPEC section 10): never adopted by name. */
  claimedElsewhere: ReadonlyMap<string, unknown>;
  /** Addresses a restore binds (planner/restore.ts): never to a live resource found by name. */
  noAdopt: ReadonlySet<Address>;
  diagnostics: Diagnostic[];
  skipped: Set<Address>;
  index: LiveIndex;
}

/**
 * A kind's live resources in one container (the live state, or one parent's), found by ID and by
 * what names them. Each index is built on first use: most resources match by their lockfile ID,
 * so the by-name index is rarely asked for; and a parent's few children are searched in order
 * rather than indexed (10,000 services would make 10,000 maps).
 */
class Scope {
  private kept: readonly LiveResource[] | undefined;
  private byId: ReadonlyMap<string, LiveResource> | undefined;
  private byName: Map<string, LiveResource[]> | undefined;

  /** `live`: the container's resources of `def`'s kind, those on their way out included. */
  constructor(
    private readonly def: AnyKind,
    private readonly live: readonly LiveResource[],
  ) {}

  /** The scope of a top kind, from the index of the live state (which leaves out those on their way out). */
  static ofIndex(def: AnyKind, index: ReadonlyMap<string, LiveResource>): Scope {
    const scope = new Scope(def, [...index.values()]);
    scope.kept = scope.live;
    scope.byId = index;
    return scope;
  }

  /** The resources up for matching: not those on their way out. */
  private items(): readonly LiveResource[] {
    return (this.kept ??= this.live.filter((l) => !this.def.live.gone(l)));
  }

  withId(id: string): LiveResource | undefined {
    if (this.byId === undefined && this.live.length <= SEARCHED) {
      // From the end: of two with one ID, the one an index by ID would keep.
      for (let i = this.live.length - 1; i >= 0; i--) {
        const l = this.live[i]!;
        if (l.id === id && !this.def.live.gone(l)) return l;
      }
      return undefined;
    }
    this.byId ??= new Map(this.items().map((l) => [l.id, l]));
    return this.byId.get(id);
  }

  named(name: string): readonly LiveResource[] {
    if (!this.byName) {
      this.byName = new Map();
      for (const l of this.items()) {
        const key = this.def.naming.live(l);
        const list = this.byName.get(key);
        if (list) list.push(l);
        else this.byName.set(key, [l]);
      }
    }
    return this.byName.get(name) ?? [];
  }
}

/** Up to this many resources in a scope are searched in order; more are indexed by ID. */
const SEARCHED = 8;

interface Wanted<D> {
  kind: Kind;
  address: Address;
  desired: D;
  /** What identifies it among its siblings (kind's `naming`): its name, or another field. */
  name: string;
  source?: SourceRef;
}

/** `name "db"`, or the field that identifies the kind: `peer_vpc_id "vpc-0a"`. */
const identity = (w: Wanted<unknown>): string => `${kindDef(w.kind).naming.key} "${w.name}"`;

/** A desired resource as matching holds it (its kind's own type is its kind's business). */
type Desired = { address: Address; source?: SourceRef };

function matchOne(st: MatchState, def: AnyKind, d: Desired, scope: Scope | undefined): Match<Desired, LiveResource> | undefined {
  const bound = st.view.entries.get(d.address);
  const live = bound && scope?.withId(bound.entry.id);
  // The usual case, bound by its lockfile ID to a live resource: what identifies it is not asked.
  if (bound && live) return { address: d.address, desired: d, how: 'lock', live, entry: bound.entry };
  return matchOther(st, { kind: def.kind, address: d.address, desired: d, name: def.naming.desired(d), source: d.source }, scope, bound);
}

/** Matching by name: not bound (`bound` undefined), or bound to an ID that is not live under its parent. */
function matchOther<D>(st: MatchState, w: Wanted<D>, scope: Scope | undefined, bound: HeldEntry | undefined): Match<D, LiveResource> | undefined {
  if (bound) {
    const elsewhere = otherParent(st.index, w.kind, bound.entry.id);
    if (elsewhere === undefined) return matchStale(st, w, scope, bound.entry);
    st.skipped.add(w.address);
    st.diagnostics.push(wrongParent(w, bound.entry.id, bound.origin, elsewhere));
    return undefined;
  }
  if (st.noAdopt.has(w.address)) return { address: w.address, desired: w.desired, how: 'new' };
  const { claimed, holders } = st.claims();
  const candidates = preferHeld(holders, w.kind, (scope?.named(w.name) ?? []).filter((l) => !claimed.has(`${w.kind}:${l.id}`) && !st.claimedElsewhere.has(l.id)));
  if (candidates.length > 1) {
    st.skipped.add(w.address);
    st.diagnostics.push(ambiguity(w, candidates.map((c) => c.id)));
    return undefined;
  }
  const live = candidates[0];
  if (!live) return { address: w.address, desired: w.desired, how: 'new' };
  claimed.add(`${w.kind}:${live.id}`);
  const holder = holders.get(`${w.kind}:${live.id}`);
  if (holder !== undefined) {
    holders.delete(`${w.kind}:${live.id}`);
    moveEntry(st.view, holder, w.address);
    return { address: w.address, desired: w.desired, how: 'move', live, entry: st.view.entries.get(w.address)!.entry };
  }
  return { address: w.address, desired: w.desired, how: 'adopt', live };
}

/**
 * Of several live resources with the desired name, the one a removed address of the lockfile
 * holds is this state's own (a renamed key): the others are look-alikes it never managed.
 */
function preferHeld<L extends { id: string }>(holders: Claims['holders'], kind: Kind, candidates: L[]): L[] {
  if (candidates.length < 2) return candidates;
  const held = candidates.filter((l) => holders.has(`${kind}:${l.id}`));
  return held.length === 1 ? held : candidates;
}

/**
 * A lockfile ID whose resource is gone (SPEC section 2). Creating again would make a second
 * resource of the name when one is live, so exactly one live resource of the desired name that
 * no address of this state (and no other workspace) binds is adopted instead, with a warning;
 * two are the ambiguity that `dbform import` settles; none is drift: created again.
 */
function matchStale<D>(st: MatchState, w: Wanted<D>, scope: Scope | undefined, entry: LockEntry): Match<D, LiveResource> | undefined {
  const { claimed, holders } = st.claims();
  const candidates = (scope?.named(w.name) ?? []).filter((l) => {
    const key = `${w.kind}:${l.id}`;
    return !claimed.has(key) && !holders.has(key) && !st.claimedElsewhere.has(l.id);
  });
  if (candidates.length > 1) {
    st.skipped.add(w.address);
    st.diagnostics.push(ambiguity(w, candidates.map((c) => c.id), entry.id));
    return undefined;
  }
  const live = candidates[0];
  if (!live) return { address: w.address, desired: w.desired, how: 'drift', entry };
  claimed.add(`${w.kind}:${live.id}`);
  st.diagnostics.push(staleAdoption(w, entry.id, live.id));
  // The address keeps its protect flag; the password version was the gone resource's.
  const kept: LockEntry = { id: live.id, ...(entry.protect !== undefined ? { protect: entry.protect } : {}) };
  return { address: w.address, desired: w.desired, how: 'adopt', live, entry: kept };
}

function staleAdoption<D>(w: Wanted<D>, goneId: string, liveId: string): Diagnostic {
  const what = identity(w);
  return {
    severity: 'warning',
    code: 'stale-id',
    address: w.address,
    ...(w.source ? { source: w.source } : {}),
    message:
      `drift: its ID in the state, ${goneId}, no longer exists; the live ${nounOf(w.kind)} ${liveId} has the ${what} and no address binds it, ` +
      'so it is adopted instead of creating another',
  };
}

/**
 * The parent ID of a live resource of a child kind, when the ID is alive but not under the parent
 * the address names: a lockfile entry or `moved:` that crosses parents.
 */
function otherParent(index: LiveIndex, kind: Kind, id: string): string | undefined {
  const def = kindDef(kind);
  const live = index[kind].get(id);
  return live === undefined ? undefined : def.live.parentId?.(live);
}

function wrongParent<D>(w: Wanted<D>, id: string, origin: Address, parentId: string): Diagnostic {
  const [what, parent] = [nounOf(w.kind), nounOf(kindDef(w.kind).parent!)];
  const via = origin === w.address ? 'the state binds it to' : `moved from ${origin}, it would take`;
  return {
    severity: 'error',
    code: 'moved',
    address: w.address,
    ...(w.source ? { source: w.source } : {}),
    message:
      `${via} ${what} ${id}, which belongs to ${parent} ${parentId}, not to this address's ${parent}: a ${what} cannot change ${parent}. ` +
      `Drop the \`moved\` entry (or the state edit) to delete the old ${what} and create a new one`,
  };
}

function ambiguity<D>(w: Wanted<D>, ids: string[], goneId?: string): Diagnostic {
  const what = identity(w);
  const gone = goneId === undefined ? '' : `its ID in the state, ${goneId}, no longer exists, and `;
  return {
    severity: 'error',
    code: 'ambiguous-match',
    address: w.address,
    ...(w.source ? { source: w.source } : {}),
    message: `${gone}${ids.length} live ${KIND_NOUNS[w.kind].many} have the ${what} (${ids.sort().join(', ')}); choose one with \`dbform import ${w.address} <ID>\``,
  };
}

export function desiredAddresses(desired: DesiredState): Set<Address> {
  const out = new Set<Address>();
  eachDesired(desired, (_def, r) => out.add(r.address!));
  return out;
}

/** What matching is told beyond the config, the state and the live resources. */
export interface MatchOptions {
  claimedElsewhere?: ReadonlyMap<string, unknown>;
  noAdopt?: ReadonlySet<Address>;
  /** A destroy: retired bindings are removed like the others. */
  deleteRetired?: boolean;
  /** The lockfile's entries as listEntries gives them, when the caller has listed them already. */
  entries?: readonly ListedEntry[];
}

export function matchResources(desired: DesiredState, lock: Lockfile, index: LiveIndex, diagnostics: Diagnostic[], o: MatchOptions = {}): Matching {
  const wanted = desiredAddresses(desired);
  const view = buildLockView(o.entries ?? listEntries(lock), diagnostics);
  applyExplicitMoves(view, desired.moved, wanted, diagnostics);
  const kept = (e: LockEntry) => e.retired !== undefined && !o.deleteRetired;
  let claims: Claims | undefined;
  const st: MatchState = {
    view,
    claims: () => (claims ??= claimsOf(view, wanted, kept)),
    claimedElsewhere: o.claimedElsewhere ?? new Map(),
    noAdopt: o.noAdopt ?? new Set(),
    diagnostics,
    skipped: new Set(),
    index,
  };
  const matching = matchAll(st, desired, index, wanted);
  const unlisted = removedEntries(view, wanted, index);
  matching.removed = unlisted.filter((r) => !kept(r.entry));
  matching.retired = unlisted.filter((r) => kept(r.entry));
  matching.bindings = [...view.bindings, ...matching.bindings];
  matching.unmanaged = countUnmanaged(index, matching, view);
  return matching;
}

/**
 * The claims of the lockfile view as it stands. Made at the first match by name, they are what
 * they would have been before matching began: only a match by name moves an entry of the view.
 */
function claimsOf(view: LockView, wanted: ReadonlySet<Address>, kept: (e: LockEntry) => boolean): Claims {
  const claimed = new Set<string>();
  const holders = new Map<string, Address>();
  view.entries.forEach((held, address) => {
    const key = `${held.kind}:${held.entry.id}`;
    // A retired binding is this state's own as much as a configured one: never adopted or moved elsewhere.
    if (wanted.has(address) || kept(held.entry)) claimed.add(key);
    else holders.set(key, address);
  });
  return { claimed, holders };
}

function emptyMatches(): Matching['matches'] {
  return Object.fromEntries(KINDS.map((k) => [k.kind, []])) as unknown as Matching['matches'];
}

/** A kind's live resources up for matching by what identifies them: not those on their way out. */
function scopeOfKind(def: AnyKind, items: readonly LiveResource[] | undefined): Scope | undefined {
  return items && new Scope(def, items);
}

/**
 * Matches each desired resource of `def` in `container`, then its children within the live
 * resource it matched; a resource that matched nothing leaves its children skipped.
 */
function matchKind(st: MatchState, m: Matching, def: AnyKind, container: unknown, scope: Scope | undefined, parentMatched: boolean): void {
  const children = childKinds(def.kind);
  for (const d of desiredIn(def, container) as Desired[]) {
    if (!parentMatched) st.skipped.add(d.address);
    const match = parentMatched ? matchOne(st, def, d, scope) : undefined;
    if (match) m.matches[def.kind].push(match);
    for (const child of children) {
      const childScope = match?.live ? scopeOfKind(child, liveIn(child, match.live)) : undefined;
      matchKind(st, m, child, d, childScope, match !== undefined);
    }
  }
}

function matchAll(st: MatchState, desired: DesiredState, index: LiveIndex, wanted: ReadonlySet<Address>): Matching {
  const m: Matching = { wanted, matches: emptyMatches(), removed: [], retired: [], bindings: [], skipped: st.skipped, unmanaged: 0 };
  for (const top of TOP_KINDS) matchKind(st, m, top, desired, Scope.ofIndex(top, index[top.kind]), true);
  for (const kind of KINDS) {
    for (const x of m.matches[kind.kind]) if (x.how === 'adopt') m.bindings.push(adoptBinding(x));
  }
  return m;
}

function adoptBinding(x: Match<unknown, unknown>): Binding {
  // x.entry: a stale lockfile entry's protect flag, which stays with the address.
  const protect = effectiveProtect(x.desired as { protect?: boolean }, x.entry);
  return { kind: 'adopt', address: x.address, id: (x.live as { id: string }).id, ...(protect ? { protect: true } : {}) };
}

function removedEntries(view: LockView, wanted: Set<Address>, index: LiveIndex): RemovedEntry[] {
  const out: RemovedEntry[] = [];
  view.entries.forEach((held, address) => {
    if (wanted.has(address)) return;
    const live = index[held.kind].get(held.entry.id);
    out.push({ address, kind: held.kind, entry: held.entry, ...(live ? { live } : {}) });
  });
  return out;
}

/** Live resources that neither the config nor the lockfile names (SPEC section 2). */
function countUnmanaged(index: LiveIndex, m: Matching, view: LockView): number {
  // IDs by kind (no `kind:id` string per resource: a plan of 10,000 services made 60,000 of them).
  const known = Object.fromEntries(KINDS.map((k) => [k.kind, new Set<string>()])) as Record<Kind, Set<string>>;
  for (const kind of KINDS) for (const x of m.matches[kind.kind]) if (x.live) known[kind.kind].add((x.live as LiveResource).id);
  // Every entry of the lockfile with a valid address is in the view, moved or not (an invalid one names no kind).
  view.entries.forEach((held) => known[held.kind].add(held.entry.id));
  let count = 0;
  for (const kind of KINDS) for (const id of index[kind.kind].keys()) if (!known[kind.kind].has(id)) count++;
  return count;
}
