// Fingerprints make a saved plan go stale only when a resource it touches changed (SPEC
// section 3, USERS.md item 5). They are derived from the plan itself, so `apply` recomputes them
// from a fresh live state with the same function and compares.
import { createHash } from 'node:crypto';
import { indexLive, kindDef, liveIn, type LiveById } from '../kinds/index.js';
import { kindOf, type Action, type Address, type Binding, type Kind, type LiveState, type Plan, type ResourceRef } from '../model/index.js';

/** What a plan says about one touched resource: its live ID, or for a create its name and parent. */
export interface FingerprintSubject {
  address: Address;
  kind: Kind;
  id?: string;
  name?: string;
  /** For a kind with a parent, the parent's ID. Absent when the parent is created by the plan. */
  parentId?: string;
}

export function sha256(text: string): string {
  return `sha256:${createHash('sha256').update(text).digest('hex')}`;
}

/** JSON with object keys sorted at every level, so equal values hash equally. */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) => {
    if (v === null || typeof v !== 'object' || Array.isArray(v)) return v;
    const obj = v as Record<string, unknown>;
    return Object.fromEntries(Object.keys(obj).sort().map((k) => [k, obj[k]]));
  });
}

function subjectOfCreate(a: Action): FingerprintSubject {
  const kind = a.kind;
  const def = kindDef(kind);
  const name = a.request?.[def.naming.key];
  // A child's create names its parent among its refs, under the parent's kind.
  const parent = def.parent === undefined ? undefined : (a.refs as Record<string, ResourceRef | undefined>)[def.parent];
  return {
    address: a.address,
    kind,
    ...(typeof name === 'string' ? { name } : {}),
    ...(parent?.id !== undefined ? { parentId: parent.id } : {}),
  };
}

export function fingerprintSubjects(plan: { actions: readonly Action[]; bindings: readonly Binding[] }): FingerprintSubject[] {
  const out = new Map<Address, FingerprintSubject>();
  for (const a of plan.actions) {
    const known = out.get(a.address);
    if (known?.id !== undefined) continue;
    const id = a.refs.target?.id;
    if (id !== undefined) out.set(a.address, { address: a.address, kind: a.kind, id });
    else if (!known) out.set(a.address, subjectOfCreate(a));
  }
  for (const b of plan.bindings) {
    const kind = kindOf(b.address);
    if (kind && b.id !== undefined && out.get(b.address)?.id === undefined) out.set(b.address, { address: b.address, kind, id: b.id });
  }
  return [...out.values()];
}

/** IDs of live resources a create would collide with by name: a new one makes the plan stale. */
function sameNamed(index: LiveById, s: FingerprintSubject, cache: Map<string, Map<string, string[]>>): string[] {
  if (s.name === undefined) return [];
  const scope = `${s.kind}:${s.parentId ?? ''}`;
  let byName = cache.get(scope);
  if (!byName) {
    byName = new Map();
    const def = kindDef(s.kind);
    for (const x of scopeItems(index, s)) {
      const name = def.naming.live(x);
      byName.set(name, [...(byName.get(name) ?? []), x.id]);
    }
    cache.set(scope, byName);
  }
  return [...(byName.get(s.name) ?? [])].sort();
}

/** The live siblings of the resource a create makes: of its kind, under the same parent. */
function scopeItems(index: LiveById, s: FingerprintSubject): Array<{ id: string }> {
  const def = kindDef(s.kind);
  if (def.parent === undefined) return [...index[s.kind].values()];
  if (s.parentId === undefined) return [];
  const parent = index[def.parent].get(s.parentId);
  return ((parent && liveIn(def, parent)) ?? []).filter((x) => !def.live.gone(x));
}

/** `index`: the live state without what is on its way out, when the caller has it (planChanges does). */
export function fingerprintLive(live: LiveState, subjects: readonly FingerprintSubject[], index?: LiveById): Record<Address, string> {
  // A plan without actions or bindings (the usual one) has nothing to fingerprint: no index.
  if (subjects.length === 0) return {};
  index ??= indexLive(live, false);
  const out: Record<Address, string> = {};
  const cache = new Map<string, Map<string, string[]>>();
  for (const s of [...subjects].sort((a, b) => (a.address < b.address ? -1 : a.address > b.address ? 1 : 0))) {
    const found = s.id === undefined ? undefined : index[s.kind].get(s.id);
    const fields = found ? kindDef(s.kind).plan.fingerprint(found) : { absent: true, same_name: sameNamed(index, s, cache) };
    out[s.address] = sha256(canonicalJson({ kind: s.kind, ...fields }));
  }
  return out;
}

export function stateFingerprint(fingerprints: Record<Address, string>): string {
  return sha256(canonicalJson(fingerprints));
}

/**
 * Addresses whose live fingerprint differs from the one recorded in a saved plan: resources that
 * changed since. An address on one side only (an action with no recorded fingerprint, or the
 * reverse) is not a live change but an edited file, which verifying the plan names instead.
 */
export function findStaleAddresses(plan: Plan, live: LiveState): Address[] {
  const now = fingerprintLive(live, fingerprintSubjects(plan));
  return Object.keys(plan.fingerprints)
    .filter((a) => now[a] !== undefined && now[a] !== plan.fingerprints[a])
    .sort();
}
