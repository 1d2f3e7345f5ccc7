// Out-of-band drift, done directly through the API as a colleague with a console would: resize,
// pause, resume, delete, detach, rename, pooler and environment changes, and unmanaged look-alikes
// (a service or VPC of the same name as a managed one, which dbform must leave alone; the API
// refuses a second replica set of one name in a service, so replica sets have none).
import type { ApiClient } from '../../../src/api/index.js';
import type { LiveState, Lockfile } from '../../../src/model/index.js';
import { PROJECT, REGION, type Rng } from './generate.js';

export interface DriftMemory {
  /** Look-alikes made out of band (ID -> the service of a replica set); unmanaged unless bound. */
  lookAlikes: Map<string, { serviceId?: string }>;
  /** `<kind> <scope>/<name>` of every look-alike made. */
  lookAlikeNames: Set<string>;
  log: string[];
}

type DriftOp = (c: DriftContext) => Promise<string | undefined>;

interface DriftContext {
  rng: Rng;
  client: ApiClient;
  live: LiveState;
  managed: Set<string>;
  memory: DriftMemory;
  /** IDs changed this round: one change each, so none is refused for a transition in progress. */
  touched: Set<string>;
}

const ready = (c: DriftContext) => c.live.services.filter((s) => c.managed.has(s.id) && !c.touched.has(s.id) && s.status === 'READY');

const resize: DriftOp = async (c) => {
  const s = pick(c, ready(c));
  if (!s) return undefined;
  c.touched.add(s.id);
  const [cpu, mem] = c.rng.pick([
    ['500', '2'],
    ['1000', '4'],
    ['4000', '16'],
  ] as const);
  await c.client.resizeService(PROJECT, s.id, { cpu_millis: cpu, memory_gbs: mem });
  return `resize ${s.name} to ${cpu}/${mem}`;
};

const pause: DriftOp = async (c) => {
  const s = pick(c, ready(c));
  if (!s) return undefined;
  c.touched.add(s.id);
  await c.client.stopService(PROJECT, s.id);
  return `pause ${s.name}`;
};

const resume: DriftOp = async (c) => {
  const s = pick(c, c.live.services.filter((x) => c.managed.has(x.id) && !c.touched.has(x.id) && x.status === 'PAUSED'));
  if (!s) return undefined;
  c.touched.add(s.id);
  await c.client.startService(PROJECT, s.id);
  return `resume ${s.name}`;
};

const deleteService: DriftOp = async (c) => {
  const s = pick(c, ready(c));
  if (!s) return undefined;
  c.touched.add(s.id);
  await c.client.deleteService(PROJECT, s.id);
  return `delete service ${s.name}`;
};

const deleteReplicaSet: DriftOp = async (c) => {
  const all = ready(c).flatMap((s) => s.replicaSets.filter((r) => c.managed.has(r.id) && r.status === 'active').map((r) => ({ s, r })));
  const one = pick(c, all);
  if (!one) return undefined;
  c.touched.add(one.s.id);
  await c.client.deleteReplicaSet(PROJECT, one.s.id, one.r.id);
  return `delete replica set ${one.s.name}/${one.r.name}`;
};

const detach: DriftOp = async (c) => {
  const s = pick(c, ready(c).filter((x) => x.vpcId !== null));
  if (!s) return undefined;
  c.touched.add(s.id);
  await c.client.detachServiceFromVPC(PROJECT, s.id, { vpc_id: s.vpcId! });
  return `detach ${s.name} from ${s.vpcId}`;
};

const renameVpc: DriftOp = async (c) => {
  const v = pick(c, c.live.vpcs.filter((x) => c.managed.has(x.id) && !c.touched.has(x.id)));
  if (!v) return undefined;
  c.touched.add(v.id);
  await c.client.renameVPC(PROJECT, v.id, { name: `${v.name}-drift` });
  return `rename vpc ${v.name} to ${v.name}-drift`;
};

const deletePeering: DriftOp = async (c) => {
  const all = c.live.vpcs.filter((v) => c.managed.has(v.id) && !c.touched.has(v.id)).flatMap((v) => (v.peerings ?? []).map((p) => ({ v, p })));
  const one = pick(c, all.filter(({ p }) => c.managed.has(p.id)));
  if (!one) return undefined;
  c.touched.add(one.v.id);
  await c.client.deleteVPCPeering(PROJECT, one.v.id, one.p.id);
  return `delete peering ${one.v.name}/${one.p.peerVpcId}`;
};

const toggles: DriftOp = async (c) => {
  const s = pick(c, ready(c));
  if (!s) return undefined;
  c.touched.add(s.id);
  if (c.rng.chance(0.5)) {
    await (s.pooler ? c.client.disablePooler(PROJECT, s.id) : c.client.enablePooler(PROJECT, s.id));
    return `pooler of ${s.name} ${s.pooler ? 'off' : 'on'}`;
  }
  const environment = s.environment === 'PROD' ? 'DEV' : 'PROD';
  await c.client.setEnvironment(PROJECT, s.id, { environment });
  return `environment of ${s.name} ${environment}`;
};

const lookAlikeService: DriftOp = async (c) => {
  const s = pick(c, c.live.services.filter((x) => c.managed.has(x.id)));
  if (!s) return undefined;
  const made = await c.client.createService(PROJECT, { name: s.name, region_code: REGION });
  remember(c, made.service_id, `service /${s.name}`, {});
  return `look-alike service ${s.name} (${made.service_id})`;
};

const lookAlikeVpc: DriftOp = async (c) => {
  const v = pick(c, c.live.vpcs.filter((x) => c.managed.has(x.id)));
  if (!v) return undefined;
  const made = await c.client.createVPC(PROJECT, { name: v.name, cidr: `172.16.${c.memory.lookAlikes.size}.0/24`, region_code: REGION });
  remember(c, String(made.id), `vpc /${v.name}`, {});
  return `look-alike vpc ${v.name} (${made.id})`;
};

const OPS: DriftOp[] = [resize, pause, resume, deleteService, deleteReplicaSet, detach, renameVpc, deletePeering, toggles, lookAlikeService, lookAlikeVpc];

/** 0 to 3 random out-of-band changes of resources dbform manages; returns what was done. */
export async function driftRandomly(rng: Rng, client: ApiClient, live: LiveState, lock: Lockfile, memory: DriftMemory): Promise<string[]> {
  const managed = new Set(Object.values(lock.resources).map((e) => e.id));
  const c: DriftContext = { rng, client, live, managed, memory, touched: new Set() };
  const done: string[] = [];
  const count = rng.int(4);
  for (let i = 0; i < count; i++) {
    const what = await rng.pick(OPS)(c);
    if (what) done.push(what);
  }
  return done;
}

function pick<T>(c: DriftContext, items: T[]): T | undefined {
  return items.length === 0 ? undefined : c.rng.pick(items);
}

function remember(c: DriftContext, id: string, key: string, where: { serviceId?: string }): void {
  c.memory.lookAlikes.set(id, where);
  c.memory.lookAlikeNames.add(key);
}

