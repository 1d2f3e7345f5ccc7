// `dbform import ADDR ID` without the terminal: check the address against the config, the ID
// against the lockfile and the live lists (at most four list requests), then bind it in the
// lockfile (atomically). Lines for people go to `report`.
import { ApiError, embedsReplicaSets, mapPeering, mapReplicaSet, mapService, mapVpc, type ApiClient } from '../api/index.js';
import {
  DbformError,
  isPeeringFailed,
  nextRevision,
  peeringAddress,
  serviceAddress,
  vpcAddress,
  type Address,
  type DesiredState,
  type LiveService,
  type LiveVpc,
  type Lockfile,
  type ParsedAddress,
} from '../model/index.js';
import { isReplicaSetGone, isServiceGone } from '../planner/index.js';
import { newLineage, versionOf, type LockHolderInfo, type StateStore } from '../state/index.js';
import { checkBinding, checkInConfig, describeLiveId, notFoundError, parseImportAddress } from './import-check.js';

export type ImportClient = Pick<ApiClient, 'listServices' | 'listVPCs' | 'listVPCPeerings' | 'listReplicaSets'>;

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

interface Lists {
  client: ImportClient;
  project: string;
  services?: LiveService[];
  /** Services whose list item did not embed their replica sets (SPEC section 12). */
  unembedded?: Set<string>;
  vpcs?: LiveVpc[];
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

async function services(lists: Lists): Promise<LiveService[]> {
  if (!lists.services) {
    const dtos = await lists.client.listServices(lists.project);
    lists.unembedded = new Set(dtos.filter((d) => !embedsReplicaSets(d)).map((d) => String(d.service_id)));
    lists.services = dtos.map(mapService);
  }
  return lists.services;
}

/** The replica sets of one service, read on their own where the list does not embed them. */
async function replicaSetsOf(lists: Lists, owner: LiveService): Promise<LiveService['replicaSets']> {
  if (!lists.unembedded?.has(owner.id)) return owner.replicaSets;
  owner.replicaSets = (await lists.client.listReplicaSets(lists.project, owner.id)).map((r) => mapReplicaSet(r, owner.id));
  lists.unembedded.delete(owner.id);
  return owner.replicaSets;
}

async function vpcs(lists: Lists): Promise<LiveVpc[]> {
  lists.vpcs ??= (await lists.client.listVPCs(lists.project)).map(mapVpc);
  return lists.vpcs;
}

async function notFound(req: ImportRequest, lists: Lists, kind: ParsedAddress['kind'], where: string): Promise<DbformError> {
  const [s, v] = await Promise.all([services(lists), vpcs(lists)]);
  // To say what the ID is when it is a replica set, every service's sets are needed: on this
  // error path only, read those the list did not embed, a few at a time.
  const unread = s.filter((x) => lists.unembedded?.has(x.id));
  for (let i = 0; i < unread.length; i += 8) await Promise.all(unread.slice(i, i + 8).map((x) => replicaSetsOf(lists, x).catch(ignoreGone)));
  return notFoundError(kind, req.id, where, describeLiveId(req.id, s, v));
}

/** A service deleted since the list has no replica sets to describe. */
function ignoreGone(err: unknown): LiveService['replicaSets'] {
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

async function findLive(req: ImportRequest, parsed: ParsedAddress, desired: DesiredState, lock: Lockfile): Promise<Found> {
  const lists: Lists = { client: await req.connect(), project: desired.projectId };
  const inProject = `project ${desired.projectId}`;
  if (parsed.kind === 'service') {
    const live = (await services(lists)).find((s) => s.id === req.id);
    if (!live) throw await notFound(req, lists, 'service', inProject);
    if (isServiceGone(live)) throw new DbformError(`service "${live.name}" (${live.id}) is being deleted (${live.status}); it cannot be imported`);
    const d = desired.services.find((s) => s.key === parsed.key)!;
    return { label: `service "${live.name}" (${live.id})`, notes: nameNote(req.address, live.name, d.name, 'a service cannot be renamed, so the next plan refuses to replace it unless told to') };
  }
  if (parsed.kind === 'vpc') {
    const live = (await vpcs(lists)).find((v) => v.id === req.id);
    if (!live) throw await notFound(req, lists, 'vpc', inProject);
    const d = desired.vpcs.find((v) => v.key === parsed.key)!;
    return { label: `VPC "${live.name}" (${live.id})`, notes: nameNote(req.address, live.name, d.name, 'the next plan renames the VPC') };
  }
  if (parsed.kind === 'replica_set') return findReplicaSet(req, parsed, desired, lock, lists);
  return findPeering(req, parsed, desired, lock, lists);
}

async function findReplicaSet(req: ImportRequest, parsed: Extract<ParsedAddress, { kind: 'replica_set' }>, desired: DesiredState, lock: Lockfile, lists: Lists): Promise<Found> {
  const all = await services(lists);
  const d = desired.services.find((s) => s.key === parsed.serviceKey)!;
  const ownerAddress = serviceAddress(parsed.serviceKey);
  const ownerId = parentId(lock, ownerAddress, d.name, all.filter((s) => !isServiceGone(s)));
  const owner = all.find((s) => s.id === ownerId);
  const live = owner && (await replicaSetsOf(lists, owner)).find((r) => r.id === req.id && !isReplicaSetGone(r));
  if (!live) throw await notFound(req, lists, 'replica_set', `${ownerAddress} (${ownerId})`);
  const rs = d.replicaSets.find((r) => r.key === parsed.key)!;
  const notes = nameNote(req.address, live.name, rs.name, 'a replica set cannot be renamed, so the next plan replaces it');
  if (live.status === 'error') notes.push('the replica set is in status error: the next plan replaces it');
  return { label: `replica set "${live.name}" (${live.id}) of service "${owner!.name}"`, notes };
}

async function findPeering(req: ImportRequest, parsed: Extract<ParsedAddress, { kind: 'peering' }>, desired: DesiredState, lock: Lockfile, lists: Lists): Promise<Found> {
  const vpcAddr = vpcAddress(parsed.vpcKey);
  const d = desired.vpcs.find((v) => v.key === parsed.vpcKey)!;
  const vpcId = lock.resources[vpcAddr]?.id ?? parentId(lock, vpcAddr, d.name, await vpcs(lists));
  let peerings;
  try {
    peerings = (await lists.client.listVPCPeerings(desired.projectId, vpcId)).map((p) => mapPeering(p, vpcId));
  } catch (err) {
    if (err instanceof ApiError && err.status === 404) throw new DbformError(`${vpcAddr} is bound to ${vpcId}, but no such VPC is live in project ${desired.projectId}`);
    throw err;
  }
  const live = peerings.find((p) => p.id === req.id);
  if (!live) throw await notFound(req, lists, 'peering', `${vpcAddr} (${vpcId})`);
  if (live.peerVpcId !== parsed.peerVpcId) {
    const right = peeringAddress(parsed.vpcKey, live.peerVpcId);
    throw new DbformError(`peering ${req.id} connects to peer VPC "${live.peerVpcId}", but ${req.address} names "${parsed.peerVpcId}"; its address is ${right}`);
  }
  const notes = isPeeringFailed(live.status) ? [`the peering is in status ${live.status}: the next plan replaces it`] : [];
  return { label: `peering ${live.id} to "${live.peerVpcId}"`, notes };
}
