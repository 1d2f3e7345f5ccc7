// Valid merged config -> the normalized desired state the planner reads (src/model/resources.ts).
// Only called once the schema and every rule passed, so values have their schema types.
import { peeringAddress, replicaSetAddress, serviceAddress, vpcAddress } from '../model/address.js';
import { readDesiredFields } from '../model/fields/index.js';
import type {
  DesiredFork,
  DesiredPeering,
  DesiredReplicaSet,
  DesiredService,
  DesiredState,
  DesiredVpc,
  ForkStrategy,
  MovedEntry,
} from '../model/resources.js';
import { sourceOf, type Entry, type MergedConfig } from './merge.js';
import { peeringsOf, replicaSetsOf } from './rules/rule.js';
import { PEERING_FIELDS } from '../kinds/peering/kind.js';
import { REPLICA_SET_FIELDS } from '../kinds/replica-set/kind.js';
import { SERVICE_FIELDS } from '../kinds/service/fields.js';
import { VPC_FIELDS } from '../kinds/vpc/kind.js';

type Raw = Record<string, unknown>;


function buildPeering(vpcKey: string, entry: Entry): DesiredPeering {
  const peering = { kind: 'peering', vpcKey, source: sourceOf(entry.origin) } as DesiredPeering;
  readDesiredFields(PEERING_FIELDS, entry.value, peering, '');
  peering.address = peeringAddress(vpcKey, peering.peerVpcId);
  return peering;
}

function buildVpc(entry: Entry): DesiredVpc {
  const vpc = {
    kind: 'vpc',
    address: vpcAddress(entry.key),
    key: entry.key,
    peerings: peeringsOf(entry).map((p) => buildPeering(entry.key, p)),
    source: sourceOf(entry.origin, [], 'key'),
  } as DesiredVpc;
  readDesiredFields(VPC_FIELDS, entry.value, vpc, entry.key);
  if (entry.value.protect !== undefined) vpc.protect = entry.value.protect as boolean;
  return vpc;
}

function buildReplicaSet(serviceKey: string, entry: Entry): DesiredReplicaSet {
  const rs = {
    kind: 'replica_set',
    address: replicaSetAddress(serviceKey, entry.key),
    serviceKey,
    key: entry.key,
    source: sourceOf(entry.origin, [], 'key'),
  } as DesiredReplicaSet;
  readDesiredFields(REPLICA_SET_FIELDS, entry.value, rs, entry.key);
  if (entry.value.protect !== undefined) rs.protect = entry.value.protect as boolean;
  return rs;
}

function buildFork(v: Raw): DesiredFork {
  const from = v.from as string | { service_id: string };
  const fork: DesiredFork = {
    from: typeof from === 'string' ? { key: from } : { serviceId: from.service_id },
    strategy: v.strategy as ForkStrategy,
  };
  if (v.target_time !== undefined) fork.targetTime = v.target_time as string;
  return fork;
}

function buildService(entry: Entry): DesiredService {
  // The managed fields are set by their descriptors (src/model/fields), each only when written,
  // so that undefined keeps meaning "unmanaged"; name always (it defaults to the key).
  const service = {
    kind: 'service',
    address: serviceAddress(entry.key),
    key: entry.key,
    replicaSets: replicaSetsOf(entry).map((rs) => buildReplicaSet(entry.key, rs)),
    source: sourceOf(entry.origin, [], 'key'),
  } as DesiredService;
  readDesiredFields(SERVICE_FIELDS, entry.value, service, entry.key);
  if (entry.value.protect !== undefined) service.protect = entry.value.protect as boolean;
  if (entry.value.fork !== undefined) service.fork = buildFork(entry.value.fork as Raw);
  return service;
}

const buildMoved = (entry: Entry): MovedEntry => ({
  from: entry.value.from as string,
  to: entry.value.to as string,
  source: sourceOf(entry.origin),
});

export function buildDesiredState(config: MergedConfig): DesiredState {
  return {
    projectId: config.projectId ?? '',
    ...(config.state ? { state: { value: config.state.value, source: sourceOf(config.state.origin, ['state']) } } : {}),
    vpcs: config.vpcs.map(buildVpc),
    services: config.services.map(buildService),
    moved: config.moved.map(buildMoved),
    files: config.files,
  };
}
