// Live state -> ExportDocument: every field written exactly as the planner reads it back, so
// that `plan` right after the export shows no changes. A value dbform cannot write faithfully is
// left out (unmanaged) with a comment, never guessed.
import { isFailed, isGone, kindDef } from '../kinds/index.js';
import { exportFields, isAllowedServiceSize, parseAddress, type ExportContext } from '../model/index.js';
import type { LivePeering, LiveReplicaSet, LiveService, LiveState, LiveVpc, Lockfile } from '../model/index.js';
import type { ExportDocument, ExportedPeering, ExportedReplicaSet, ExportedService, ExportedVpc } from './document.js';
import { deriveKeys, KEY_PREFIX, passwordEnvName } from './keys.js';
import { describeResource, isWritableName, keepDisjointVpcs, keepUniqueNames, rankBy, REGION_PATTERN } from './select.js';
import { commentText, quotedName } from './yaml-text.js';


interface BuildContext {
  projectId: string;
  /** Existing lockfile bindings by kind: ID -> address. */
  bound: Record<'vpc' | 'service' | 'replica_set', Map<string, string>>;
  skipped: string[];
}

function boundIds(previous: Lockfile | undefined): BuildContext['bound'] {
  const bound: BuildContext['bound'] = { vpc: new Map(), service: new Map(), replica_set: new Map() };
  if (!previous) return bound;
  for (const address of Object.keys(previous.resources).sort()) {
    const kind = parseAddress(address)?.kind;
    const id = previous.resources[address]!.id;
    if (kind !== undefined && kind !== 'peering' && !bound[kind].has(id)) bound[kind].set(id, address);
  }
  return bound;
}

/** Keys an existing lockfile already gives to these IDs (`vpc.main` -> `main`). */
function reservedKeys(bound: Map<string, string>, accept: (address: string) => string | undefined): Map<string, string> {
  const out = new Map<string, string>();
  for (const [id, address] of bound) {
    const key = accept(address);
    if (key !== undefined) out.set(id, key);
  }
  return out;
}

const byKey = <T extends { key: string }>(a: T, b: T): number => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0);

function selectVpcs(live: LiveVpc[], ctx: BuildContext): LiveVpc[] {
  const writable = live.filter((v) => {
    if (!isWritableName(v.name)) ctx.skipped.push(`${describeResource('VPC', v.name, v.id)}: its name is not 1-128 characters`);
    else if (!REGION_PATTERN.test(v.regionCode)) ctx.skipped.push(`${describeResource('VPC', v.name, v.id)}: its region ${quotedName(v.regionCode)} is not a region code`);
    else return true;
    return false;
  });
  const rank = rankBy<LiveVpc>(new Set(ctx.bound.vpc.keys()), (v) => v.name);
  const unique = keepUniqueNames(writable, rank);
  for (const { item, holder } of unique.dropped) {
    ctx.skipped.push(`${describeResource('VPC', item.name, item.id)}: VPC ${holder.id} has the same name, and names must be unique in a config`);
  }
  const disjoint = keepDisjointVpcs(unique.kept, rank);
  for (const { vpc, why } of disjoint.dropped) ctx.skipped.push(`${describeResource('VPC', vpc.name, vpc.id)}: ${why}`);
  return disjoint.kept;
}

function peeringProblem(p: LivePeering, seen: ReadonlySet<string>): string | undefined {
  if (p.peerAccountId === '') return 'it has no peer_account_id';
  if (p.peerVpcId === '') return 'it has no peer_vpc_id';
  if (!REGION_PATTERN.test(p.peerRegionCode)) return `its peer region ${quotedName(p.peerRegionCode)} is not a region code`;
  if (seen.has(p.peerVpcId)) return 'another peering of the VPC has the same peer_vpc_id';
  return undefined;
}

function exportPeerings(vpc: LiveVpc, ctx: BuildContext): ExportedPeering[] {
  const out: ExportedPeering[] = [];
  const seen = new Set<string>();
  const sorted = [...(vpc.peerings ?? [])].sort((a, b) => (a.peerVpcId < b.peerVpcId ? -1 : a.peerVpcId > b.peerVpcId ? 1 : a.id < b.id ? -1 : 1));
  for (const p of sorted) {
    const problem = peeringProblem(p, seen);
    if (problem !== undefined) {
      ctx.skipped.push(`peering ${p.id} of ${describeResource('VPC', vpc.name, vpc.id)} to ${quotedName(p.peerVpcId)}: ${problem}`);
      continue;
    }
    seen.add(p.peerVpcId);
    const { fields, unmanaged } = exportFields(kindDef('peering').fields, p, fieldContext('', new Map()));
    out.push({ id: p.id, peerVpcId: p.peerVpcId, fields, comments: [...peeringComments(p), ...unmanaged] });
  }
  return out;
}

function peeringComments(p: LivePeering): string[] {
  if (!isFailed('peering', p)) return [];
  const why = p.errorMessage === undefined ? '' : `: ${commentText(p.errorMessage)}`;
  return [`status ${p.status}${why}; a plan replaces this peering (delete + create)`];
}

function buildVpcs(live: LiveVpc[], ctx: BuildContext): ExportedVpc[] {
  const kept = selectVpcs(live, ctx);
  const keys = deriveKeys(kept, KEY_PREFIX.vpc, reservedKeys(ctx.bound.vpc, (a) => (a.startsWith('vpc.') ? a.slice(4) : undefined)));
  return kept
    .map((v) => {
      const key = keys.get(v.id)!;
      const { fields, unmanaged } = exportFields(kindDef('vpc').fields, v, fieldContext(key, new Map()));
      return { key, id: v.id, fields, comments: unmanaged, peerings: exportPeerings(v, ctx) };
    })
    .sort(byKey);
}

function selectServices(live: LiveService[], ctx: BuildContext): LiveService[] {
  const writable = live.filter((s) => {
    if (isGone('service', s)) ctx.skipped.push(`${describeResource('service', s.name, s.id)}: it is ${s.status}`);
    else if (!isWritableName(s.name)) ctx.skipped.push(`${describeResource('service', s.name, s.id)}: its name is not 1-128 characters`);
    else return true;
    return false;
  });
  const unique = keepUniqueNames(writable, rankBy<LiveService>(new Set(ctx.bound.service.keys()), (s) => s.created));
  for (const { item, holder } of unique.dropped) {
    ctx.skipped.push(`${describeResource('service', item.name, item.id)}: service ${holder.id} has the same name, and names must be unique in a config`);
  }
  return unique.kept;
}

function selectReplicaSets(s: LiveService, serviceKey: string, ctx: BuildContext): { sets: LiveReplicaSet[]; keys: Map<string, string> } {
  const where = `of service.${serviceKey}`;
  const writable = s.replicaSets.filter((r) => {
    const what = `${describeResource('replica set', r.name, r.id)} ${where}`;
    if (isGone('replica_set', r)) ctx.skipped.push(`${what}: it is ${r.status}`);
    else if (!isWritableName(r.name)) ctx.skipped.push(`${what}: its name is not 1-128 characters`);
    else if (!isAllowedServiceSize(r.cpuMillis, r.memoryGbs)) ctx.skipped.push(`${what}: its size ${r.cpuMillis}/${r.memoryGbs} is not an allowed size`);
    else if (!Number.isInteger(r.nodes) || r.nodes < 1 || r.nodes > 10) ctx.skipped.push(`${what}: its node count ${r.nodes} is not 1-10`);
    else return true;
    return false;
  });
  const unique = keepUniqueNames(writable, rankBy<LiveReplicaSet>(new Set(ctx.bound.replica_set.keys())));
  for (const { item, holder } of unique.dropped) {
    ctx.skipped.push(`${describeResource('replica set', item.name, item.id)} ${where}: replica set ${holder.id} has the same name`);
  }
  const prefix = `replica_set.${serviceKey}.`;
  const reserved = reservedKeys(ctx.bound.replica_set, (a) => (a.startsWith(prefix) ? a.slice(prefix.length) : undefined));
  return { sets: unique.kept, keys: deriveKeys(unique.kept, KEY_PREFIX.replica_set, reserved) };
}

function buildReplicaSets(s: LiveService, serviceKey: string, ctx: BuildContext): ExportedReplicaSet[] {
  const { sets, keys } = selectReplicaSets(s, serviceKey, ctx);
  return sets
    .map((r) => {
      const key = keys.get(r.id)!;
      const { fields, unmanaged } = exportFields(kindDef('replica_set').fields, r, fieldContext(key, new Map()));
      const comments = r.status === 'error' ? ['status error: a plan replaces this replica set (delete + create)', ...unmanaged] : unmanaged;
      return { key, id: r.id, fields, comments };
    })
    .sort(byKey);
}

/** What a field's export needs beyond the live value (src/model/fields). */
function fieldContext(key: string, vpcKeys: Map<string, string>): ExportContext {
  return { key, vpcKey: (id) => vpcKeys.get(id), quote: quotedName, passwordEnv: passwordEnvName(key) };
}

function lineage(s: LiveService, serviceKeys: Map<string, string>, projectId: string): string | undefined {
  const parent = s.forkedFrom;
  if (!parent) return undefined;
  if (parent.projectId !== undefined && parent.projectId !== projectId) return `forked from service ${parent.serviceId} of project ${parent.projectId}`;
  const key = serviceKeys.get(parent.serviceId);
  return key === undefined ? `forked from service ${parent.serviceId} (not in this export)` : `forked from service.${key} (${parent.serviceId})`;
}

function buildServices(live: LiveService[], vpcKeys: Map<string, string>, ctx: BuildContext): ExportedService[] {
  const kept = selectServices(live, ctx);
  const keys = deriveKeys(kept, KEY_PREFIX.service, reservedKeys(ctx.bound.service, (a) => (a.startsWith('service.') ? a.slice(8) : undefined)));
  return kept
    .map((s) => {
      const key = keys.get(s.id)!;
      const from = lineage(s, keys, ctx.projectId);
      // Each field as its descriptor writes it; one it cannot write faithfully is left out, with a note.
      const { fields, unmanaged } = exportFields(kindDef('service').fields, s, fieldContext(key, vpcKeys));
      return { key, id: s.id, fields, comments: [...(from ? [from] : []), ...unmanaged], replicaSets: buildReplicaSets(s, key, ctx) };
    })
    .sort(byKey);
}

/**
 * The export of one project. `previous` (an existing lockfile of the same project) keeps the
 * keys it already binds and wins name and CIDR clashes, so re-exports do not churn.
 */
export function buildExportDocument(live: LiveState, previous?: Lockfile): ExportDocument {
  const ctx: BuildContext = { projectId: live.projectId, bound: boundIds(previous), skipped: [] };
  const vpcs = buildVpcs(live.vpcs, ctx);
  const vpcKeys = new Map(vpcs.map((v) => [v.id, v.key]));
  const services = buildServices(live.services, vpcKeys, ctx);
  return { projectId: live.projectId, vpcs, services, skipped: [...new Set(ctx.skipped)].sort() };
}
