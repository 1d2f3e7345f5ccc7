// fast-check generators of valid desired states (the loader's rules hold: unique keys and names,
// allowed sizes, valid HA, non-overlapping CIDRs, resolvable references). Small pools of keys
// and names make successive states overlap, so updates, moves and replaces all happen.
import fc from 'fast-check';
import {
  ALLOWED_SERVICE_SIZES,
  peeringAddress,
  replicaSetAddress,
  serviceAddress,
  vpcAddress,
  type Addon,
  type DesiredReplicaSet,
  type DesiredService,
  type DesiredState,
  type DesiredVpc,
  type ServiceSize,
} from '../../../src/model/index.js';
import { PROJECT } from './builders.js';

type ValueOf<A> = A extends fc.Arbitrary<infer T> ? T : never;

const REGIONS = ['us-east-1', 'eu-west-1'] as const;
const VPC_KEYS = ['main', 'edge', 'dev'];
const SERVICE_KEYS = ['a', 'b', 'c', 'd'];
const SERVICE_NAMES = ['alpha', 'beta', 'gamma', 'delta', 'omega', 'sigma'];
const opt = <T>(arb: fc.Arbitrary<T>) => fc.option(arb, { nil: undefined });
/** Usually unmanaged: fields whose change forces a replace would otherwise replace most services. */
const rare = <T>(arb: fc.Arbitrary<T>) => fc.oneof({ weight: 3, arbitrary: fc.constant(undefined) }, { weight: 1, arbitrary: arb });
const env = fc.constantFrom('DEV' as const, 'PROD' as const);
const dedicated = fc.constantFrom(...ALLOWED_SERVICE_SIZES.slice(0, 4));

const vpcArb = fc.record({
  key: fc.constantFrom(...VPC_KEYS),
  renamed: fc.boolean(),
  altCidr: fc.boolean(),
  region: fc.constantFrom(...REGIONS, 'us-east-1'),
  protect: opt(fc.boolean()),
  peerings: fc.uniqueArray(
    fc.record({ peer: fc.constantFrom('vpc-p1', 'vpc-p2', 'vpc-p3'), account: fc.constantFrom('111111111111', '222222222222'), region: fc.constantFrom(...REGIONS) }),
    { selector: (p) => p.peer, maxLength: 2 },
  ),
});

function toVpc(v: ValueOf<typeof vpcArb>): DesiredVpc {
  const i = VPC_KEYS.indexOf(v.key) + (v.altCidr ? 10 : 0);
  return {
    kind: 'vpc',
    address: vpcAddress(v.key),
    key: v.key,
    name: v.renamed ? `${v.key}-renamed` : v.key,
    cidr: `10.${i}.0.0/16`,
    regionCode: v.region,
    ...(v.protect !== undefined ? { protect: v.protect } : {}),
    peerings: v.peerings.map((p: ValueOf<typeof vpcArb>['peerings'][number]) => ({ kind: 'peering', address: peeringAddress(v.key, p.peer), vpcKey: v.key, peerAccountId: p.account, peerRegionCode: p.region, peerVpcId: p.peer })),
  };
}

const replicaSetArb = fc.record({
  key: fc.constantFrom('x', 'y', 'z'),
  name: fc.constantFrom('r1', 'r2', 'r3'),
  size: dedicated,
  nodes: fc.integer({ min: 1, max: 3 }),
  pooler: opt(fc.boolean()),
  environment: opt(env),
  protect: opt(fc.boolean()),
});

// Mostly the key's own name, so a service persists from one state to the next and is updated;
// sometimes a shared name, so keys trade names (moves, adoptions, replaces).
const serviceName = fc.oneof({ weight: 4, arbitrary: fc.constant(undefined) }, { weight: 1, arbitrary: fc.constantFrom(...SERVICE_NAMES) });

const serviceArb = fc.record({
  key: fc.constantFrom(...SERVICE_KEYS),
  name: serviceName,
  addons: rare(fc.constantFrom<Addon[]>([], ['time-series'], ['ai'], ['ai', 'time-series'])),
  region: rare(fc.constantFrom(...REGIONS)),
  size: opt(fc.oneof({ weight: 4, arbitrary: dedicated }, { weight: 1, arbitrary: fc.constant({ cpuMillis: 'shared', memoryGbs: 'shared' } as ServiceSize) })),
  environment: opt(env),
  ha: opt(fc.constantFrom({ replicas: 0, syncReplicas: 0 }, { replicas: 1, syncReplicas: 0 }, { replicas: 2, syncReplicas: 0 }, { replicas: 2, syncReplicas: 1 })),
  pooler: opt(fc.boolean()),
  /** 0: detached; i > 0: the i-th configured VPC (modulo). */
  vpc: opt(fc.integer({ min: 0, max: 3 })),
  paused: opt(fc.boolean()),
  passwordVersion: opt(fc.integer({ min: 1, max: 3 })),
  protect: opt(fc.boolean()),
  fork: opt(fc.constantFrom('NOW' as const, 'LAST_SNAPSHOT' as const, 'PITR' as const)),
  replicaSets: fc.uniqueArray(replicaSetArb, { selector: (r) => r.key, maxLength: 2 }),
});

function uniqueBy<T>(items: T[], key: (t: T) => string): T[] {
  const seen = new Set<string>();
  return items.filter((t) => !seen.has(key(t)) && (seen.add(key(t)), true));
}

function toReplicaSets(serviceKey: string, list: ValueOf<typeof replicaSetArb>[]): DesiredReplicaSet[] {
  return uniqueBy(list, (r) => r.name).map((r) => ({
    kind: 'replica_set',
    address: replicaSetAddress(serviceKey, r.key),
    serviceKey,
    key: r.key,
    name: r.name,
    cpuMillis: r.size.cpuMillis,
    memoryGbs: r.size.memoryGbs,
    nodes: r.nodes,
    ...(r.pooler !== undefined ? { pooler: r.pooler } : {}),
    ...(r.environment !== undefined ? { environment: r.environment } : {}),
    ...(r.protect !== undefined ? { protect: r.protect } : {}),
  }));
}

const nameOf = (s: { key: string; name: string | undefined }) => s.name ?? `${s.key}-db`;

function toService(s: ValueOf<typeof serviceArb>, vpcs: DesiredVpc[], parent: string | undefined): DesiredService {
  const out: DesiredService = { kind: 'service', address: serviceAddress(s.key), key: s.key, name: nameOf(s), replicaSets: toReplicaSets(s.key, s.replicaSets) };
  const fields = { size: s.size, environment: s.environment, ha: s.ha, pooler: s.pooler, paused: s.paused, protect: s.protect };
  for (const [k, v] of Object.entries(fields)) if (v !== undefined) (out as unknown as Record<string, unknown>)[k] = v;
  if (s.passwordVersion !== undefined) out.password = { fromEnv: `PW_${s.key.toUpperCase()}`, version: s.passwordVersion };
  if (s.fork && parent) {
    // A fork inherits type and region from its parent: managing them would fight the parent.
    out.fork = { from: { key: parent }, strategy: s.fork, ...(s.fork === 'PITR' ? { targetTime: '2026-11-01T00:00:00Z' } : {}) };
    return out;
  }
  if (s.addons) out.addons = s.addons;
  if (s.region) out.regionCode = s.region;
  const vpc = s.vpc !== undefined && s.vpc > 0 && vpcs.length > 0 ? vpcs[(s.vpc - 1) % vpcs.length] : undefined;
  if (s.vpc === 0) out.vpc = null;
  else if (vpc) {
    out.vpc = { key: vpc.key };
    out.regionCode = vpc.regionCode;
  }
  return out;
}

export const desiredStateArb: fc.Arbitrary<DesiredState> = fc
  .record({
    vpcs: fc.uniqueArray(vpcArb, { selector: (v) => v.key, maxLength: 3 }),
    services: fc.uniqueArray(serviceArb, { selector: (s) => s.key, maxLength: 5 }),
  })
  .map(({ vpcs, services }) => {
    const desiredVpcs = vpcs.map(toVpc);
    const named = uniqueBy(services, nameOf);
    const out: DesiredService[] = [];
    named.forEach((s, i) => out.push(toService(s, desiredVpcs, i > 0 ? named[i - 1]!.key : undefined)));
    return { projectId: PROJECT, vpcs: desiredVpcs, services: out, moved: [], files: ['dbform.yaml'] };
  });
