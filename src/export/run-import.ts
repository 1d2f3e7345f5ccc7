// `dbform import ADDR ID` without the terminal: check the address against the config, the ID
// against the lockfile and the live lists (at most four list requests), then bind it in the
// lockfile (atomically). Lines for people go to `report`. What a kind's resource is called, and
// what the next plan does with it, its folder says (`import`).
import { ApiError, listOf, type LiveReader } from '../api/index.js';
import { attachLive, childKinds, desiredIn, isFailed, isGone, kindDef, liveIn, mapLive, TOP_KINDS, type AnyKind } from '../kinds/index.js';
import { addressOf, DbformError, nextRevision, nounOf, parentAddressOf, type Address, type DesiredState, type Kind, type Lockfile, type ParsedAddress } from '../model/index.js';
import { newLineage, versionOf, type LockHolderInfo, type StateStore } from '../state/index.js';
import { checkBinding, checkInConfig, describeLiveId, notFoundError, parseImportAddress } from './import-check.js';

/** The client, or any object with the list methods the kinds name. */
export type ImportClient = LiveReader;

export interface ImportRequest {
  /** Opened only once the address, config and lockfile checks pass. */
  connect: () => Promise<ImportClient>;
  /** The config (src/app/context.ts), loaded once the address parses; its errors are thrown. */
  loadDesired: () => Promise<DesiredState>;
  /** The state of this config (SPEC section 10), opened once the config is loaded. */
  openState: (desired: DesiredState) => StateStore;
  /** --lock-timeout in milliseconds. */
  lockTimeoutMs: number;
  /** Who holds the state lock while the binding is written. */
  holder: LockHolderInfo;
  address: string;
  id: string;
  force: boolean;
  report: (line: string) => void;
  print: (line: string) => void;
}

/** What the import found live: a label for the message, and how the next plan will differ. */
interface Found {
  label: string;
  notes: string[];
}

type Live = { id: string; name: string; status?: string };

/** The live lists read so far: each top kind's, and which parents' lists left out a kind they usually carry (SPEC section 12). */
interface Lists {
  client: ImportClient;
  project: string;
  tops: Map<Kind, Live[]>;
  /** By child kind, the parents whose list item did not carry them. */
  unembedded: Map<Kind, Set<string>>;
}

export async function runImport(req: ImportRequest): Promise<void> {
  const parsed = parseImportAddress(req.address);
  const desired = await req.loadDesired();
  checkInConfig(req.address, desired);
  const store = req.openState(desired);
  try {
    // Under the state lock: an apply running meanwhile must not lose this binding, nor this one its.
    const held = await store.lock(req.holder, { timeoutMs: req.lockTimeoutMs });
    try {
      await importInto(req, parsed, desired, store);
    } finally {
      await held.release();
    }
  } finally {
    await store.close();
  }
}

async function importInto(req: ImportRequest, parsed: ParsedAddress, desired: DesiredState, store: StateStore): Promise<void> {
  const { lockfile: lock, claimedElsewhere } = await store.read();
  const binding = checkBinding(req.address, req.id, lock, store.location, req.force);
  if (binding.kind === 'same') {
    req.report(`${req.address} is already bound to ${req.id} in ${store.location}; nothing to do`);
    return;
  }
  const foreign = claimedElsewhere.get(req.id);
  if (foreign) {
    throw new DbformError(
      `${req.id} is already bound to ${foreign.address} in workspace "${foreign.workspace}" of this state; a resource belongs to one workspace only (nothing was changed)`,
    );
  }
  const found = await findLive(req, parsed, desired, lock);
  const entry = binding.kind === 'rebind' && binding.previous.protect !== undefined ? { id: req.id, protect: binding.previous.protect } : { id: req.id };
  const next = { ...lock, resources: { ...lock.resources, [req.address]: entry } };
  await store.write(nextRevision(next, newLineage()), versionOf(lock));
  if (binding.kind === 'rebind') req.report(`note: ${req.address} was bound to ${binding.previous.id}, which stays live but is no longer managed`);
  for (const n of found.notes) req.report(`note: ${n}`);
  req.print(`Bound ${req.address} to ${found.label} in ${store.location}; run \`dbform plan\` to compare it with the config.`);
}

async function topList(lists: Lists, def: AnyKind): Promise<Live[]> {
  let list = lists.tops.get(def.kind);
  if (!list) {
    const dtos = await listOf(lists.client, def, lists.project);
    const mapped = dtos.map((d) => mapLive(def.kind, d) as Live);
    for (const child of childKinds(def.kind).filter((c) => c.read.embedded)) {
      lists.unembedded.set(child.kind, new Set(mapped.filter((_x, i) => child.read.embedded!(dtos[i]) === undefined).map((x) => x.id)));
    }
    list = mapped;
    lists.tops.set(def.kind, list);
  }
  return list;
}

/** A parent's resources of a child kind its list carries, read on their own where its list item left them out. */
async function carried(lists: Lists, child: AnyKind, parent: Live): Promise<Live[]> {
  const unread = lists.unembedded.get(child.kind);
  if (unread?.has(parent.id)) {
    attachLive(child, parent, (await listOf(lists.client, child, lists.project, parent.id)).map((c) => mapLive(child.kind, c, parent.id) as Live));
    unread.delete(parent.id);
  }
  return (liveIn(child, parent) ?? []) as Live[];
}

async function notFound(req: ImportRequest, lists: Lists, kind: Kind, where: string): Promise<DbformError> {
  const tops = await Promise.all(TOP_KINDS.map((def) => topList(lists, def)));
  // To say what the ID is when it is a child carried by its parent's list, every parent's children
  // are needed: on this error path only, read those the list did not carry, a few at a time.
  for (const [i, def] of TOP_KINDS.entries()) {
    for (const child of childKinds(def.kind).filter((c) => c.read.embedded)) {
      const unread = tops[i]!.filter((p) => lists.unembedded.get(child.kind)?.has(p.id));
      for (let n = 0; n < unread.length; n += 8) await Promise.all(unread.slice(n, n + 8).map((p) => carried(lists, child, p).catch(ignoreGone)));
    }
  }
  const state = Object.fromEntries(TOP_KINDS.map((def, i) => [def.listKey, tops[i]]));
  return notFoundError(kind, req.id, where, describeLiveId(req.id, state as never));
}

/** A parent deleted since the list has no children to describe. */
function ignoreGone(err: unknown): Live[] {
  if (err instanceof ApiError && err.status === 404) return [];
  throw err;
}

function nameNote(address: Address, live: string, desired: string, effect: string): string[] {
  return live === desired ? [] : [`the live name "${live}" differs from the config's name "${desired}": ${effect}; write \`name: ${JSON.stringify(live)}\` under ${address} to keep it`];
}

/** The live ID bound to (or, like the planner, adopted by its unique name for) a parent address. */
function parentId(lock: Lockfile, address: Address, name: string, live: ReadonlyArray<{ id: string; name: string }>): string {
  const bound = lock.resources[address]?.id;
  if (bound !== undefined) return bound;
  const named = live.filter((x) => x.name === name);
  if (named.length === 1) return named[0]!.id;
  throw new DbformError(`${address} is not bound to a live resource yet (${named.length === 0 ? `none is named "${name}"` : `${named.length} are named "${name}"`}); import it first: dbform import ${address} <ID>`);
}

/** The desired resource of `def` whose address is `address` (under `container`: the state or its parent). */
const desiredAt = (def: AnyKind, container: unknown, address: Address) => desiredIn(def, container).find((d) => d.address === address) as { address: string; name: string };

/** What the next plan does with what was found: a name that differs, a failed status. */
function notesOf(def: AnyKind, address: Address, live: Live, desired: { name: string } | undefined): string[] {
  const notes = def.import.renamed !== undefined && desired ? nameNote(address, live.name, desired.name, def.import.renamed) : [];
  if (isFailed(def.kind, live)) notes.push(`the ${nounOf(def.kind)} is in status ${live.status}: the next plan replaces it`);
  return notes;
}

const labelOf = (def: AnyKind, l: Live, parent?: Live): string =>
  def.import.label?.(l, parent) ?? `${nounOf(def.kind)} "${l.name}" (${l.id})${parent && def.parent ? ` of ${nounOf(def.parent)} "${parent.name}"` : ''}`;

async function findLive(req: ImportRequest, parsed: ParsedAddress, desired: DesiredState, lock: Lockfile): Promise<Found> {
  const lists: Lists = { client: await req.connect(), project: desired.projectId, tops: new Map(), unembedded: new Map() };
  const def = kindDef(parsed.kind);
  if (def.parent === undefined) {
    const live = (await topList(lists, def)).find((x) => x.id === req.id);
    if (!live) throw await notFound(req, lists, def.kind, `project ${desired.projectId}`);
    if (isGone(def.kind, live)) throw new DbformError(`${nounOf(def.kind)} "${live.name}" (${live.id}) is being deleted (${live.status}); it cannot be imported`);
    return { label: labelOf(def, live), notes: notesOf(def, req.address, live, desiredAt(def, desired, req.address)) };
  }
  return findChild(req, def, desired, lock, lists);
}

/** A child kind's resource: under the parent the address names, found through the lockfile, else by its unique name. */
async function findChild(req: ImportRequest, def: AnyKind, desired: DesiredState, lock: Lockfile, lists: Lists): Promise<Found> {
  const parentDef = kindDef(def.parent!);
  const parentAddress = parentAddressOf(req.address)!;
  const parentKey = parentAddress.slice(parentDef.kind.length + 1);
  const d = desiredAt(parentDef, desired, parentAddress);
  let parent: Live | undefined;
  let children: Live[];
  let ownerId: string;
  if (def.read.embedded) {
    const all = await topList(lists, parentDef);
    ownerId = parentId(lock, parentAddress, d.name, all.filter((x) => !isGone(parentDef.kind, x)));
    parent = all.find((x) => x.id === ownerId);
    children = parent ? await carried(lists, def, parent) : [];
  } else {
    ownerId = lock.resources[parentAddress]?.id ?? parentId(lock, parentAddress, d.name, await topList(lists, parentDef));
    try {
      children = (await listOf(lists.client, def, desired.projectId, ownerId)).map((c) => mapLive(def.kind, c, ownerId) as Live);
    } catch (err) {
      if (err instanceof ApiError && err.status === 404) throw new DbformError(`${parentAddress} is bound to ${ownerId}, but no such ${nounOf(parentDef.kind)} is live in project ${desired.projectId}`);
      throw err;
    }
  }
  const live = children.find((x) => x.id === req.id && !isGone(def.kind, x));
  if (!live) throw await notFound(req, lists, def.kind, `${parentAddress} (${ownerId})`);
  // What identifies it within its parent, as its address names it: everything after the parent's key.
  const named = req.address.slice(`${def.kind}.${parentKey}.`.length);
  const ident = def.naming.live(live) as string;
  if (def.config.shape === 'list' && ident !== named) {
    const right = addressOf(def.kind, parentKey, ident);
    throw new DbformError(def.import.misaddressed!(req.id, live, req.address, named, right));
  }
  const own = def.config.shape === 'map' ? desiredAt(def, d, req.address) : undefined;
  return { label: labelOf(def, live, parent), notes: notesOf(def, req.address, live, own) };
}
