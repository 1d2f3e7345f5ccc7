// A varied world built through the real client against an emulator at time scale 0 (every
// transition completes at the next read): what a team that created everything by hand has.
import type { ApiClient } from '../../../src/api/client.js';
import type { ServiceDto } from '../../../src/api/dto.js';

export const P = 'proj-demo';

type Size = 'shared' | [number, number];

export interface ServiceSpec {
  name: string;
  timeSeries?: boolean;
  size?: Size;
  region?: string;
  env?: 'DEV' | 'PROD';
  ha?: [number, number];
  pooler?: boolean;
  vpc?: string;
  paused?: boolean;
  password?: string;
  forkOf?: string;
  replicaSets?: Array<{ name: string; size: [number, number]; nodes: number; pooler?: boolean; env?: 'DEV' | 'PROD' }>;
}

export interface World {
  services: Map<string, string[]>;
  vpcs: Map<string, string>;
  /** Every initial_password and password seen while building: none may leak into an export. */
  secrets: string[];
}

const SIZES: Size[] = ['shared', [500, 2], [1000, 4], [2000, 8], [4000, 16], [8000, 32], [16000, 64], [32000, 128]];
const HA: Array<[number, number]> = [[0, 0], [1, 0], [2, 0], [2, 1]];
const LONG = 'a-very-long-service-name-that-goes-on-and-on-past-the-key-limit-of-63-characters';

export const VPC_SPECS = [
  { name: 'Prod VPC', cidr: '10.10.0.0/16', region: 'us-east-1', peers: ['vpc-0a1b2c3d', 'vpc-11112222'] },
  { name: 'prod_vpc', cidr: '10.20.0.0/16', region: 'us-east-1', peers: [] },
  { name: 'edge', cidr: '10.30.0.0/16', region: 'eu-central-1', peers: ['vpc-eu.1'] },
  { name: '9net', cidr: '10.40.0.0/16', region: 'us-east-1', peers: [] },
  { name: 'null', cidr: '10.50.0.0/16', region: 'us-east-1', peers: ['pcx:weird/peer id'] },
  // Overlaps Prod VPC: the config cannot hold both, so it stays unmanaged.
  { name: 'overlap', cidr: '10.10.128.0/17', region: 'us-east-1', peers: [] },
];

export const SPECIAL_SERVICES: ServiceSpec[] = [
  { name: 'Billing DB', size: [2000, 8], env: 'PROD', ha: [2, 1], pooler: true, vpc: 'Prod VPC', timeSeries: true, password: 'billing-secret-Pa55!',
    replicaSets: [{ name: 'reporting', size: [1000, 4], nodes: 2, pooler: true, env: 'PROD' }, { name: 'Analytics RS', size: [500, 2], nodes: 1 }] },
  { name: 'billing_db', size: 'shared' },
  { name: 'billing-db', size: [500, 2], timeSeries: true, env: 'PROD' },
  { name: 'Billing DB-fork', forkOf: 'Billing DB' },
  { name: 'preview', forkOf: 'Billing DB-fork', env: 'PROD', pooler: true },
  { name: '2fa-service', size: [1000, 4], ha: [1, 0] },
  { name: '42', size: 'shared', env: 'PROD' },
  { name: `${LONG}-one`, size: [500, 2] },
  { name: `${LONG}-two`, size: [500, 2] },
  { name: 'x'.repeat(128), size: 'shared' },
  { name: 'Données clients', size: [1000, 4], region: 'eu-central-1', vpc: 'edge' },
  { name: '数据库', size: 'shared' },
  { name: 'データ', size: 'shared' },
  { name: 'rocket 🚀 db', size: 'shared', pooler: true },
  { name: `it's "quoted" \\ back`, size: 'shared' },
  { name: '${env:HOME} not expanded', size: 'shared' },
  { name: 'true', size: 'shared' },
  { name: '  padded  ', size: 'shared' },
  { name: 'a: b # c', size: 'shared' },
  { name: 'cafe', size: 'shared' },
  { name: 'café', size: 'shared' },
  { name: 'dup', size: 'shared' },
  { name: 'dup', size: [500, 2] },
  { name: 'paused-pooler-on', size: [1000, 4], pooler: true, paused: true, vpc: '9net' },
  { name: 'paused-pooler-off', size: 'shared', paused: true, replicaSets: [{ name: 'kept', size: [500, 2], nodes: 3, env: 'PROD' }] },
  { name: 'on-overlap', size: [500, 2], vpc: 'overlap' },
  { name: 'on-null', size: 'shared', vpc: 'null' },
];

/** Services varied by their index: sizes, type, environment, HA, pooler, VPC, paused, replica sets. */
export function generatedServices(count: number): ServiceSpec[] {
  return Array.from({ length: count }, (_, i) => {
    const size = SIZES[i % SIZES.length]!;
    const spec: ServiceSpec = { name: `gen-${String(i).padStart(2, '0')}`, size, timeSeries: i % 3 === 0, env: i % 2 === 0 ? 'DEV' : 'PROD', pooler: i % 4 < 2 };
    if (size !== 'shared') spec.ha = HA[i % HA.length]!;
    if (i % 5 === 0) spec.vpc = 'Prod VPC';
    if (i % 5 === 1) spec.vpc = 'prod_vpc';
    if (i % 7 === 3) spec.paused = true;
    if (i % 4 === 0) spec.replicaSets = [{ name: `rs-${i}`, size: [500, 2], nodes: 1 + (i % 3), pooler: i % 8 === 0, env: i % 8 === 4 ? 'PROD' : 'DEV' }];
    return spec;
  });
}

async function settle(client: ApiClient, id: string, done: (s: ServiceDto) => boolean): Promise<ServiceDto> {
  for (let i = 0; i < 200; i++) {
    const s = await client.getService(P, id);
    if (done(s)) return s;
    await new Promise((r) => setTimeout(r, 5));
  }
  throw new Error(`service ${id} did not settle`);
}

const ready = (s: ServiceDto) => s.status === 'READY';

/** When each name was last created (the emulator's clock is the real one here). */
const lastCreated = new WeakMap<World, Map<string, number>>();

/**
 * Of services with one name, export keeps the one created first (then the lower ID): a second
 * service of a name is created strictly later, not within the same millisecond, where the tie
 * would go to whichever random ID is lower.
 */
async function afterEarlierOfName(world: World, name: string): Promise<void> {
  const earlier = lastCreated.get(world)?.get(name);
  while (earlier !== undefined && Date.now() <= earlier) await new Promise((r) => setTimeout(r, 1));
}

async function createOne(client: ApiClient, spec: ServiceSpec, world: World): Promise<string> {
  await afterEarlierOfName(world, spec.name);
  const sizeBody = spec.size === undefined ? {} : spec.size === 'shared' ? { cpu_millis: 'shared', memory_gbs: 'shared' } : { cpu_millis: String(spec.size[0]), memory_gbs: String(spec.size[1]) };
  let created: ServiceDto;
  if (spec.forkOf !== undefined) {
    const parent = world.services.get(spec.forkOf)![0]!;
    created = await client.forkService(P, parent, { fork_strategy: 'NOW', name: spec.name, ...sizeBody, ...(spec.env ? { environment_tag: spec.env } : {}) });
  } else {
    created = await client.createService(P, {
      name: spec.name,
      addons: spec.timeSeries ? ['time-series'] : [],
      ...sizeBody,
      ...(spec.env ? { environment_tag: spec.env } : {}),
      ...(spec.region ? { region_code: spec.region } : {}),
    });
  }
  if (created.initial_password) world.secrets.push(created.initial_password);
  if (!lastCreated.has(world)) lastCreated.set(world, new Map());
  lastCreated.get(world)!.set(spec.name, Date.parse(String(created.created)));
  const id = created.service_id;
  world.services.set(spec.name, [...(world.services.get(spec.name) ?? []), id]);
  await settle(client, id, ready);
  return id;
}

async function configureOne(client: ApiClient, id: string, spec: ServiceSpec, world: World): Promise<void> {
  if (spec.ha && (spec.ha[0] > 0 || spec.ha[1] > 0)) {
    await client.setHAReplica(P, id, { replica_count: spec.ha[0], sync_replica_count: spec.ha[1] });
    await settle(client, id, ready);
  }
  if (spec.pooler) await client.enablePooler(P, id);
  if (spec.vpc !== undefined) {
    const vpcId = world.vpcs.get(spec.vpc)!;
    await client.attachServiceToVPC(P, id, { vpc_id: vpcId });
    await settle(client, id, (s) => s.vpc_endpoint?.vpc_id === vpcId);
  }
  if (spec.password !== undefined) {
    world.secrets.push(spec.password);
    await client.updatePassword(P, id, { password: spec.password });
  }
  for (const rs of spec.replicaSets ?? []) {
    const r = await client.createReplicaSet(P, id, { name: rs.name, cpu_millis: rs.size[0], memory_gbs: rs.size[1], nodes: rs.nodes });
    if (rs.pooler) await client.enableReplicaPooler(P, id, r.id);
    if (rs.env) await client.setReplicaEnvironment(P, id, r.id, { environment: rs.env });
  }
  // Read on their own: the real API's list does not embed them (SPEC section 12).
  for (let i = 0; i < 200 && (await client.listReplicaSets(P, id)).some((r) => r.status !== 'active'); i++) await new Promise((r) => setTimeout(r, 5));
  if (spec.paused) {
    await client.stopService(P, id);
    await settle(client, id, (s) => s.status === 'PAUSED');
  }
}

export async function buildWorld(client: ApiClient, specs: ServiceSpec[]): Promise<World> {
  const world: World = { services: new Map(), vpcs: new Map(), secrets: [] };
  for (const v of VPC_SPECS) {
    const vpc = await client.createVPC(P, { name: v.name, cidr: v.cidr, region_code: v.region });
    world.vpcs.set(v.name, vpc.id);
    for (const peer of v.peers) await client.createVPCPeering(P, vpc.id, { peer_account_id: '123456789012', peer_region_code: 'us-west-2', peer_vpc_id: peer });
  }
  for (const spec of specs) {
    const id = await createOne(client, spec, world);
    await configureOne(client, id, spec, world);
  }
  return world;
}

/** Deletes everything so that the next world starts from an empty project. */
export async function clearProject(client: ApiClient): Promise<void> {
  for (const s of await client.listServices(P)) await client.deleteService(P, s.service_id);
  for (let i = 0; i < 100 && (await client.listServices(P)).length > 0; i++) await new Promise((r) => setTimeout(r, 5));
  for (const v of await client.listVPCs(P)) {
    for (const x of await client.listVPCPeerings(P, v.id)) await client.deleteVPCPeering(P, v.id, x.id);
    await client.deleteVPC(P, v.id);
  }
}
