// Small builders for planner tests: a default desired resource and a default live one with the
// same name plan to zero changes, so each test states only what it is about.
import { planChanges, type PlanOptions } from '../../../src/planner/index.js';
import {
  peeringAddress,
  replicaSetAddress,
  serviceAddress,
  vpcAddress,
  type Address,
  type DesiredPeering,
  type DesiredReplicaSet,
  type DesiredService,
  type DesiredState,
  type DesiredVpc,
  type LivePeering,
  type LiveReplicaSet,
  type LiveService,
  type LiveState,
  type LiveVpc,
  type LockEntry,
  type Lockfile,
  type MovedEntry,
  type Plan,
} from '../../../src/model/index.js';

export const PROJECT = 'proj-demo';

export function desiredVpc(key: string, o: Partial<DesiredVpc> = {}): DesiredVpc {
  return { kind: 'vpc', address: vpcAddress(key), key, name: key, cidr: '10.0.0.0/16', regionCode: 'us-east-1', peerings: [], ...o };
}

export function desiredPeering(vpcKey: string, peerVpcId: string, o: Partial<DesiredPeering> = {}): DesiredPeering {
  return { kind: 'peering', address: peeringAddress(vpcKey, peerVpcId), vpcKey, peerAccountId: '123456789012', peerRegionCode: 'us-east-1', peerVpcId, ...o };
}

export function desiredService(key: string, o: Partial<DesiredService> = {}): DesiredService {
  const s: DesiredService = { kind: 'service', address: serviceAddress(key), key, name: key, replicaSets: [], ...o };
  s.replicaSets = s.replicaSets.map((r) => ({ ...r, serviceKey: key, address: replicaSetAddress(key, r.key) }));
  return s;
}

export function desiredReplicaSet(key: string, o: Partial<DesiredReplicaSet> = {}): DesiredReplicaSet {
  return { kind: 'replica_set', address: replicaSetAddress('?', key), serviceKey: '?', key, name: key, cpuMillis: 1000, memoryGbs: 4, nodes: 1, ...o };
}

export function desiredState(o: { vpcs?: DesiredVpc[]; services?: DesiredService[]; moved?: MovedEntry[] } = {}): DesiredState {
  return { projectId: PROJECT, vpcs: o.vpcs ?? [], services: o.services ?? [], moved: o.moved ?? [], files: ['dbform.yaml'] };
}

export function liveVpc(name: string, o: Partial<LiveVpc> = {}): LiveVpc {
  return { id: `vpc-${name}`, name, cidr: '10.0.0.0/16', regionCode: 'us-east-1', peerings: [], ...o };
}

export function livePeering(vpcId: string, peerVpcId: string, o: Partial<LivePeering> = {}): LivePeering {
  return { id: `pcx-${peerVpcId}`, vpcId, peerAccountId: '123456789012', peerRegionCode: 'us-east-1', peerVpcId, status: 'active', ...o };
}

export function liveService(name: string, o: Partial<LiveService> = {}): LiveService {
  const id = o.id ?? `svc-${name}`;
  const s: LiveService = {
    id,
    name,
    projectId: PROJECT,
    regionCode: 'us-east-1',
    serviceType: 'POSTGRES',
    status: 'READY',
    created: '2026-01-01T00:00:00Z',
    size: { cpuMillis: 'shared', memoryGbs: 'shared' },
    environment: 'DEV',
    ha: { replicas: 0, syncReplicas: 0 },
    pooler: false,
    vpcId: null,
    replicaSets: [],
    ...o,
  };
  s.replicaSets = s.replicaSets.map((r) => ({ ...r, serviceId: id }));
  return s;
}

export function liveReplicaSet(name: string, o: Partial<LiveReplicaSet> = {}): LiveReplicaSet {
  return { id: `rs-${name}`, serviceId: '?', name, cpuMillis: 1000, memoryGbs: 4, nodes: 1, status: 'active', pooler: false, environment: 'DEV', ...o };
}

export function liveState(o: { vpcs?: LiveVpc[]; services?: LiveService[] } = {}): LiveState {
  return { projectId: PROJECT, vpcs: o.vpcs ?? [], services: o.services ?? [] };
}

export function lockfile(entries: Record<Address, string | LockEntry> = {}): Lockfile {
  const resources: Record<Address, LockEntry> = {};
  for (const [a, e] of Object.entries(entries)) resources[a] = typeof e === 'string' ? { id: e } : e;
  return { version: 1, projectId: PROJECT, resources };
}

export function plan(desired: DesiredState, live: LiveState, lock: Lockfile = lockfile(), options: Partial<PlanOptions> = {}): Plan {
  return planChanges(desired, live, lock, { replace: [], target: [], allowDataLoss: false, ...options });
}

/** `address op` per action, in plan order. */
export const ops = (p: Plan): string[] => p.actions.map((a) => `${a.address} ${a.op}`);
export const errors = (p: Plan): string[] => p.diagnostics.filter((d) => d.severity === 'error').map((d) => d.message);
export const warnings = (p: Plan): string[] => p.diagnostics.filter((d) => d.severity === 'warning').map((d) => d.message);
export const action = (p: Plan, address: Address, op: string) => {
  const a = p.actions.find((x) => x.address === address && x.op === op);
  if (!a) throw new Error(`no ${op} on ${address} in: ${ops(p).join('; ')}`);
  return a;
};
/** True when action `a` (transitively) depends on action `b`. */
export function dependsOn(p: Plan, a: { id: string }, b: { id: string }): boolean {
  const byId = new Map(p.actions.map((x) => [x.id, x]));
  const stack = [...byId.get(a.id)!.dependsOn];
  const seen = new Set<string>();
  while (stack.length > 0) {
    const id = stack.pop()!;
    if (id === b.id) return true;
    if (seen.has(id)) continue;
    seen.add(id);
    stack.push(...byId.get(id)!.dependsOn);
  }
  return false;
}
