// Small builders of live state for the export unit tests.
import type { LivePeering, LiveReplicaSet, LiveService, LiveState, LiveVpc } from '../../../src/model/index.js';

let counter = 0;
const nextId = (prefix: string) => `${prefix}${String(++counter).padStart(8, '0')}`;

export function liveService(name: string, over: Partial<LiveService> = {}): LiveService {
  return {
    id: nextId('s'),
    name,
    projectId: 'proj-demo',
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
    ...over,
  };
}

export function liveReplicaSet(name: string, serviceId: string, over: Partial<LiveReplicaSet> = {}): LiveReplicaSet {
  return { id: nextId('r'), serviceId, name, cpuMillis: 500, memoryGbs: 2, nodes: 1, status: 'active', pooler: false, environment: 'DEV', ...over };
}

export function liveVpc(name: string, cidr: string, over: Partial<LiveVpc> = {}): LiveVpc {
  return { id: String(1_000_000_000 + ++counter), name, cidr, regionCode: 'us-east-1', peerings: [], ...over };
}

export function livePeering(vpcId: string, peerVpcId: string, over: Partial<LivePeering> = {}): LivePeering {
  return { id: String(2_000_000_000 + ++counter), vpcId, peerAccountId: '123456789012', peerRegionCode: 'us-west-2', peerVpcId, status: 'active', ...over };
}

export function liveState(services: LiveService[], vpcs: LiveVpc[] = []): LiveState {
  return { projectId: 'proj-demo', services, vpcs };
}
