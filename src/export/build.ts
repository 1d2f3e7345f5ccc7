// Live state -> ExportDocument, over the kind registry: every field written exactly as the planner
// reads it back, so that `plan` right after the export shows no changes. A value dbform cannot
// write faithfully is left out (unmanaged) with a comment, never guessed; a resource the config
// cannot hold (its kind's `export.unwritable`, a name clash, what its kind cannot keep together)
// is left unmanaged with a note.
import { childKinds, kindDef, liveIn, TOP_KINDS, type AnyKind } from '../kinds/index.js';
import { exportFields, nounOf, parseAddress, type ExportContext, type Kind, type LiveState, type Lockfile } from '../model/index.js';
import type { ExportDocument, ExportedCollection, ExportedEntry } from './document.js';
import { deriveKeys, passwordEnvName } from './keys.js';
import { commentText, quotedName } from './yaml-text.js';

// ---- which of a clash is written ---------------------------------------------------------------
// The config loader refuses some things the API allows (two services with one name, overlapping
// VPC blocks, names it cannot hold), so of each clash one resource is exported and the others stay
// unmanaged, each with a note saying why.

const describeResource = (kind: string, name: string, id: string): string => `${kind} ${quotedName(name)} (${id})`;

const compareText = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

interface Ranked {
  id: string;
  name: string;
}

/**
 * Ranks candidates for a clash: resources the existing lockfile binds first (a re-export keeps
 * what the team already manages), then by `tieBreak` (e.g. creation time), then by ID.
 */
function rankBy<T extends Ranked>(bound: ReadonlySet<string>, tieBreak: (t: T) => string = () => ''): (a: T, b: T) => number {
  return (a, b) => Number(!bound.has(a.id)) - Number(!bound.has(b.id)) || compareText(tieBreak(a), tieBreak(b)) || compareText(a.id, b.id);
}

interface UniqueNames<T> {
  kept: T[];
  /** Each dropped item with the kept item that holds its name. */
  dropped: Array<{ item: T; holder: T }>;
}

/** Keeps one item per name (the first in `rank` order). */
function keepUniqueNames<T extends Ranked>(items: readonly T[], rank: (a: T, b: T) => number): UniqueNames<T> {
  const holders = new Map<string, T>();
  const out: UniqueNames<T> = { kept: [], dropped: [] };
  for (const item of [...items].sort(rank)) {
    const holder = holders.get(item.name);
    if (holder) out.dropped.push({ item, holder });
    else {
      holders.set(item.name, item);
      out.kept.push(item);
    }
  }
  return out;
}

/** A live resource as export handles it; its kind's hooks know the rest. */
type Live = { id: string; name: string };

interface BuildContext {
  projectId: string;
  /** Existing lockfile bindings of the kinds written by key: ID -> address. */
  bound: Map<Kind, Map<string, string>>;
  /** Bindings a restore retired (SPEC section 17), by `kind:id`: the state keeps them, the config never held them. */
  retired: Map<string, string>;
  /** Those of them whose resource is live: carried over into the export's state as they are. */
  retained: string[];
  /** The key each exported resource got, by `kind:id`. */
  keys: Map<string, string>;
  skipped: string[];
}

const KIT = { quote: quotedName, comment: commentText, describe: (kind: Kind, name: string, id: string) => describeResource(nounOf(kind), name, id) };

function retiredIds(previous: Lockfile | undefined): Map<string, string> {
  const out = new Map<string, string>();
  for (const [address, e] of Object.entries(previous?.resources ?? {})) {
    const kind = parseAddress(address)?.kind;
    if (e.retired !== undefined && kind !== undefined) out.set(`${kind}:${e.id}`, address);
  }
  return out;
}

/**
 * A live resource a restore retired, and its own resources, stay out of the YAML: written there it
 * would become the config's again (in the seed dialect under the name of the service restored in
 * its place). Their bindings go into the export's state unchanged; one made on it since (a replica
 * set added by hand to the original) has none, and is named as left out.
 */
function retainRetired(def: AnyKind, l: Live, ctx: BuildContext, parent?: Parent): boolean {
  const address = ctx.retired.get(`${def.kind}:${l.id}`);
  if (address === undefined) return false;
  ctx.retained.push(address);
  const self: Parent = { key: '', address, note: noteOf(def, l, parent) };
  for (const child of childKinds(def.kind)) {
    for (const c of (liveIn(child, l) ?? []) as Live[]) {
      if (!retainRetired(child, c, ctx, self)) ctx.skipped.push(`${noteOf(child, c, self)}: its ${nounOf(def.kind)} was retired by a restore, so it stays out of the config too`);
    }
  }
  return true;
}

function boundIds(previous: Lockfile | undefined): BuildContext['bound'] {
  const bound = new Map<Kind, Map<string, string>>();
  if (!previous) return bound;
  for (const address of Object.keys(previous.resources).sort()) {
    const kind = parseAddress(address)?.kind;
    const id = previous.resources[address]!.id;
    if (kind === undefined || kindDef(kind).config.shape !== 'map') continue;
    const ids = bound.get(kind) ?? new Map<string, string>();
    bound.set(kind, ids);
    if (!ids.has(id)) ids.set(id, address);
  }
  return bound;
}

/** Keys an existing lockfile already gives to these IDs (`vpc.main` -> `main`), under the address prefix of this scope. */
function reservedKeys(bound: Map<string, string> | undefined, prefix: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const [id, address] of bound ?? []) if (address.startsWith(prefix)) out.set(id, address.slice(prefix.length));
  return out;
}

const byKey = (a: ExportedEntry, b: ExportedEntry): number => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0);

/** Where a collection sits: its parent's key, address and how notes name the parent. */
interface Parent {
  key: string;
  address: string;
  note: string;
}

function noteOf(def: AnyKind, l: Live, parent: Parent | undefined): string {
  if (def.export.describe) return def.export.describe(l, KIT, parent?.note ?? '');
  return `${describeResource(nounOf(def.kind), l.name, l.id)}${parent ? ` of ${parent.address}` : ''}`;
}

/** The ones a config can hold: writable, one per name (the best ranked), and what the kind keeps together. */
function selectMapped(def: AnyKind, items: readonly Live[], ctx: BuildContext, parent: Parent | undefined): Live[] {
  const writable = items.filter((l) => {
    if (retainRetired(def, l, ctx, parent)) {
      ctx.skipped.push(`${noteOf(def, l, parent)}: retired by a restore; the state keeps it as ${ctx.retired.get(`${def.kind}:${l.id}`)}`);
      return false;
    }
    const why = def.export.unwritable?.(l, KIT, new Set());
    if (why !== undefined) ctx.skipped.push(`${noteOf(def, l, parent)}: ${why}`);
    return why === undefined;
  });
  const rank = rankBy<Live>(new Set(ctx.bound.get(def.kind)?.keys()), def.export.rank);
  const unique = keepUniqueNames(writable, rank);
  const scope = parent === undefined ? ', and names must be unique in a config' : '';
  for (const { item, holder } of unique.dropped) ctx.skipped.push(`${noteOf(def, item, parent)}: ${nounOf(def.kind)} ${holder.id} has the same name${scope}`);
  if (!def.export.together) return unique.kept;
  const together = def.export.together(unique.kept, KIT);
  for (const { item, why } of together.dropped) ctx.skipped.push(`${noteOf(def, item, parent)}: ${why}`);
  return together.kept;
}

/** A map kind's entries: keys derived from names (the lockfile's kept), sorted by key. */
function exportMapped(def: AnyKind, items: readonly Live[], ctx: BuildContext, parent: Parent | undefined): ExportedEntry[] {
  const kept = selectMapped(def, items, ctx, parent);
  const prefix = parent === undefined ? `${def.kind}.` : `${def.kind}.${parent.key}.`;
  const keys = deriveKeys(kept, def.export.keyPrefix!, reservedKeys(ctx.bound.get(def.kind), prefix));
  for (const l of kept) ctx.keys.set(`${def.kind}:${l.id}`, keys.get(l.id)!);
  return kept.map((l) => entryOf(def, l, keys.get(l.id)!, ctx, parent)).sort(byKey);
}

/** A list kind's entries: by what identifies them, then ID; of two with one identity the first is kept. */
function exportListed(def: AnyKind, items: readonly Live[], ctx: BuildContext, parent: Parent | undefined): ExportedEntry[] {
  const ident = (l: Live) => def.naming.live(l) as string;
  const sorted = [...items].sort((a, b) => (ident(a) < ident(b) ? -1 : ident(a) > ident(b) ? 1 : a.id < b.id ? -1 : 1));
  const kept = new Set<string>();
  const out: ExportedEntry[] = [];
  for (const l of sorted) {
    const why = def.export.unwritable?.(l, KIT, kept);
    if (why !== undefined) {
      ctx.skipped.push(`${noteOf(def, l, parent)}: ${why}`);
      continue;
    }
    kept.add(ident(l));
    out.push(entryOf(def, l, ident(l), ctx, parent));
  }
  return out;
}

/** What a field's export needs beyond the live value (its descriptor's `export`). */
function fieldContext(key: string, ctx: BuildContext): ExportContext {
  return { key, vpcKey: (id) => ctx.keys.get(`vpc:${id}`), quote: quotedName, passwordEnv: passwordEnvName(key) };
}

function entryOf(def: AnyKind, l: Live, key: string, ctx: BuildContext, parent: Parent | undefined): ExportedEntry {
  const scope = { projectId: ctx.projectId, keyOf: (kind: Kind, id: string) => ctx.keys.get(`${kind}:${id}`) };
  // Each field as its descriptor writes it; one it cannot write faithfully is left out, with a note.
  const { fields, unmanaged } = exportFields(def.fields, l, fieldContext(def.config.shape === 'map' ? key : '', ctx));
  const self: Parent = { key, address: parent === undefined ? `${def.kind}.${key}` : `${def.kind}.${parent.key}.${key}`, note: noteOf(def, l, parent) };
  return {
    key,
    id: l.id,
    fields,
    comments: [...(def.export.comments?.(l, scope, KIT) ?? []), ...unmanaged],
    children: childKinds(def.kind).map((child) => collectionOf(child, (liveIn(child, l) ?? []) as Live[], ctx, self)),
  };
}

function collectionOf(def: AnyKind, items: readonly Live[], ctx: BuildContext, parent?: Parent): ExportedCollection {
  return { kind: def.kind, entries: def.config.shape === 'map' ? exportMapped(def, items, ctx, parent) : exportListed(def, items, ctx, parent) };
}

/**
 * The export of one project. `previous` (an existing lockfile of the same project) keeps the
 * keys it already binds and wins name and CIDR clashes, so re-exports do not churn. The kinds go
 * in registry order, so a field that names another kind's resource (a service's VPC) finds its key.
 */
export function buildExportDocument(live: LiveState, previous?: Lockfile): ExportDocument {
  const ctx: BuildContext = { projectId: live.projectId, bound: boundIds(previous), retired: retiredIds(previous), retained: [], keys: new Map(), skipped: [] };
  const collections = TOP_KINDS.map((def) => collectionOf(def, (liveIn(def, live) ?? []) as Live[], ctx));
  return { projectId: live.projectId, collections, skipped: [...new Set(ctx.skipped)].sort(), retained: ctx.retained.sort() };
}
