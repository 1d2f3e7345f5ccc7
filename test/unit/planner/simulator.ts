// A small pure model of an ideal apply: executes a plan's actions against a LiveState and a
// Lockfile, enforcing the API's state rules (docs/api-behaviour.md) so that a missing dependency
// shows up as a failed precondition. Actions run in any order the dependencies allow.
import type { Action, Address, LiveService, LiveState, Lockfile, Plan } from '../../../src/model/index.js';

export class SimulationError extends Error {}

/** How the live state spells what the simulated API reports (SPEC section 12): cloud-api.md or the real service. */
export interface Spelling {
  timeSeriesType: string;
  peeringActive: string;
  /** A settled VPC's status; undefined: VPCs carry none. */
  vpcStatus?: string;
}

export const SPELLINGS: Record<'seed' | 'tiger', Spelling> = {
  seed: { timeSeriesType: 'TIMESERIESDB', peeringActive: 'active' },
  tiger: { timeSeriesType: 'TIMESCALEDB', peeringActive: 'ACTIVE', vpcStatus: 'CREATED' },
};

interface World {
  live: LiveState;
  lock: Lockfile;
  /** Shared by successive simulations of one world, so IDs never repeat. */
  ids: { next: number };
  spelling: Spelling;
}

const fail = (a: Action, why: string): never => {
  throw new SimulationError(`${a.id} ${a.op} ${a.address}: ${why}`);
};

function resolve(w: World, a: Action, ref: { address?: string; id?: string } | undefined, what: string): string {
  const id = ref?.id ?? (ref?.address ? w.lock.resources[ref.address]?.id : undefined);
  return id ?? fail(a, `cannot resolve ${what} ${JSON.stringify(ref)}`);
}

function service(w: World, a: Action, id: string): LiveService {
  return w.live.services.find((s) => s.id === id) ?? fail(a, `no service ${id}`);
}

function ready(a: Action, s: LiveService): LiveService {
  return s.status === 'READY' ? s : fail(a, `service ${s.id} is ${s.status}, not READY`);
}

function bind(w: World, a: Action, id: string): void {
  w.lock.resources[a.address] = { id, ...(a.protect ? { protect: true } : {}) };
}

function unbind(w: World, address: Address, id: string): void {
  if (w.lock.resources[address]?.id === id) delete w.lock.resources[address];
}

const newId = (w: World) => `sim${String(w.ids.next++).padStart(7, '0')}`;

function runVpcAction(w: World, a: Action): void {
  const r = a.request ?? {};
  if (a.op === 'createVPC') {
    const id = newId(w);
    const status = w.spelling.vpcStatus === undefined ? {} : { status: w.spelling.vpcStatus };
    w.live.vpcs.push({ id, name: r.name as string, cidr: r.cidr as string, regionCode: r.region_code as string, ...status, peerings: [] });
    return bind(w, a, id);
  }
  const id = resolve(w, a, a.refs.target, 'vpc');
  const vpc = w.live.vpcs.find((v) => v.id === id) ?? fail(a, `no vpc ${id}`);
  if (a.op === 'renameVPC') vpc.name = r.name as string;
  if (a.op === 'deleteVPC') {
    if ((vpc.peerings ?? []).length > 0) fail(a, 'VPC still has peerings');
    if (w.live.services.some((s) => s.vpcId === id)) fail(a, 'a service is still attached');
    w.live.vpcs = w.live.vpcs.filter((v) => v !== vpc);
    unbind(w, a.address, id);
  }
}

function runPeeringAction(w: World, a: Action): void {
  const vpcId = resolve(w, a, a.refs.vpc, 'vpc');
  const vpc = w.live.vpcs.find((v) => v.id === vpcId) ?? fail(a, `no vpc ${vpcId}`);
  const r = a.request ?? {};
  if (a.op === 'createVPCPeering') {
    if (vpc.peerings!.some((p) => p.peerVpcId === r.peer_vpc_id)) fail(a, 'a peering to that peer VPC exists');
    const id = newId(w);
    vpc.peerings!.push({ id, vpcId, peerAccountId: r.peer_account_id as string, peerRegionCode: r.peer_region_code as string, peerVpcId: r.peer_vpc_id as string, status: w.spelling.peeringActive });
    return bind(w, a, id);
  }
  const id = resolve(w, a, a.refs.target, 'peering');
  vpc.peerings = vpc.peerings!.filter((p) => p.id !== id);
  unbind(w, a.address, id);
}

function createService(w: World, a: Action): void {
  const r = a.request ?? {};
  const parent = a.op === 'forkService' ? ready(a, service(w, a, resolve(w, a, a.refs.forkParent, 'fork parent'))) : undefined;
  const sized = r.cpu_millis !== undefined;
  const num = (v: unknown) => (v === 'shared' ? 'shared' : Number(v));
  const id = newId(w);
  w.live.services.push({
    id,
    name: r.name as string,
    projectId: w.live.projectId,
    regionCode: parent?.regionCode ?? (r.region_code as string | undefined) ?? 'us-east-1',
    serviceType: parent?.serviceType ?? ((r.addons as string[] | undefined)?.includes('time-series') ? w.spelling.timeSeriesType : 'POSTGRES'),
    status: 'READY',
    created: '2026-01-01T00:00:00Z',
    size: sized ? { cpuMillis: num(r.cpu_millis), memoryGbs: num(r.memory_gbs) } : (parent?.size ?? { cpuMillis: 'shared', memoryGbs: 'shared' }),
    environment: (r.environment_tag as string | undefined) ?? 'DEV',
    ha: { replicas: (r.replica_count as number | undefined) ?? 0, syncReplicas: 0 },
    pooler: false,
    vpcId: null,
    replicaSets: [],
  });
  bind(w, a, id);
}

function runServiceAction(w: World, a: Action): void {
  if (a.op === 'createService' || a.op === 'forkService') return createService(w, a);
  const s = service(w, a, resolve(w, a, a.refs.target, 'service'));
  const r = a.request ?? {};
  switch (a.op) {
    case 'deleteService':
      w.live.services = w.live.services.filter((x) => x !== s);
      return unbind(w, a.address, s.id);
    case 'resizeService':
      ready(a, s).size = { cpuMillis: Number(r.cpu_millis), memoryGbs: Number(r.memory_gbs) };
      return;
    case 'setHAReplica':
      ready(a, s).ha = { replicas: r.replica_count as number, syncReplicas: r.sync_replica_count as number };
      return;
    case 'startService':
      if (s.status !== 'PAUSED') fail(a, `start of a ${s.status} service`);
      s.status = 'READY';
      return;
    case 'stopService':
      ready(a, s).status = 'PAUSED';
      return;
    case 'enablePooler':
    case 'disablePooler':
      s.pooler = a.op === 'enablePooler';
      return;
    case 'setEnvironment':
      s.environment = r.environment as string;
      return;
    case 'attachServiceToVPC':
      return attach(w, a, ready(a, s));
    case 'detachServiceFromVPC':
      if (ready(a, s).vpcId !== r.vpc_id) fail(a, `not attached to ${String(r.vpc_id)}`);
      s.vpcId = null;
      return;
    case 'updatePassword':
      w.lock.resources[a.address] = { ...(w.lock.resources[a.address] ?? fail(a, 'no lockfile entry')), passwordVersion: a.password!.version };
      return;
    default:
      fail(a, 'unexpected op');
  }
}

function attach(w: World, a: Action, s: LiveService): void {
  if (s.vpcId !== null) fail(a, 'already attached');
  const vpcId = (a.request?.vpc_id as string | undefined) ?? resolve(w, a, a.refs.vpc, 'vpc');
  const vpc = w.live.vpcs.find((v) => v.id === vpcId);
  if (vpc && vpc.regionCode !== s.regionCode) fail(a, 'VPC of another region');
  s.vpcId = vpcId;
}

function runReplicaSetAction(w: World, a: Action): void {
  const s = service(w, a, resolve(w, a, a.refs.service, 'service'));
  const r = a.request ?? {};
  if (a.op === 'createReplicaSet') {
    ready(a, s);
    if (s.replicaSets.some((x) => x.name === r.name)) fail(a, `replica set name ${String(r.name)} taken`);
    const id = newId(w);
    s.replicaSets.push({ id, serviceId: s.id, name: r.name as string, cpuMillis: r.cpu_millis as number, memoryGbs: r.memory_gbs as number, nodes: r.nodes as number, status: 'active', pooler: false, environment: 'DEV' });
    return bind(w, a, id);
  }
  const id = resolve(w, a, a.refs.target, 'replica set');
  const rs = s.replicaSets.find((x) => x.id === id) ?? fail(a, `no replica set ${id} in ${s.id}`);
  if (a.op === 'deleteReplicaSet') {
    s.replicaSets = s.replicaSets.filter((x) => x !== rs);
    return unbind(w, a.address, id);
  }
  if (a.op === 'resizeReplicaSet') {
    ready(a, s);
    Object.assign(rs, { cpuMillis: Number(r.cpu_millis), memoryGbs: Number(r.memory_gbs) });
  }
  if (a.op === 'enableReplicaPooler' || a.op === 'disableReplicaPooler') rs.pooler = a.op === 'enableReplicaPooler';
  if (a.op === 'setReplicaEnvironment') rs.environment = r.environment as string;
}

function applyBindings(w: World, plan: Plan): void {
  for (const b of plan.bindings) {
    const res = w.lock.resources;
    if (b.kind === 'move') {
      res[b.address] = res[b.from!]!;
      delete res[b.from!];
    } else if (b.kind === 'adopt') res[b.address] = { id: b.id!, ...(b.protect ? { protect: true } : {}) };
    else if (b.kind === 'protect') res[b.address] = { ...res[b.address]!, protect: b.protect! };
    else delete res[b.address];
  }
}

/**
 * Applies `plan` (bindings first, then every action) and returns the live state and lockfile an
 * ideal apply would leave. `choose(n)` picks which of n ready actions runs next.
 */
export function simulateApply(
  plan: Plan,
  live: LiveState,
  lock: Lockfile,
  opts: { choose?: (n: number) => number; ids?: { next: number }; spelling?: Spelling } = {},
): { live: LiveState; lock: Lockfile } {
  const ids = opts.ids ?? { next: 1 };
  const choose = opts.choose ?? (() => 0);
  const w: World = { live: structuredClone(live), lock: structuredClone(lock), ids, spelling: opts.spelling ?? SPELLINGS.seed };
  applyBindings(w, plan);
  const done = new Set<string>();
  let pending = [...plan.actions];
  while (pending.length > 0) {
    const readyNow = pending.filter((a) => a.dependsOn.every((d) => done.has(d)));
    if (readyNow.length === 0) throw new SimulationError('no runnable action: dependency cycle');
    const a = readyNow[choose(readyNow.length) % readyNow.length]!;
    if (a.kind === 'vpc') runVpcAction(w, a);
    else if (a.kind === 'peering') runPeeringAction(w, a);
    else if (a.kind === 'service') runServiceAction(w, a);
    else runReplicaSetAction(w, a);
    done.add(a.id);
    pending = pending.filter((x) => x !== a);
  }
  return { live: w.live, lock: w.lock };
}

