// Seeded random configs for the convergence property test, as a user writes them (snake_case,
// rendered to YAML and read by the real loader), and random edits of one. Small pools of keys and
// names make successive configs overlap, so updates, moves, replaces and removals all happen.
import { stringify } from 'yaml';

export class Rng {
  private a: number;
  constructor(seed: number) {
    this.a = seed >>> 0;
  }
  /** mulberry32 */
  next(): number {
    this.a = (this.a + 0x6d2b79f5) >>> 0;
    let t = this.a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }
  int(n: number): number {
    return Math.floor(this.next() * n);
  }
  chance(p: number): boolean {
    return this.next() < p;
  }
  pick<T>(items: readonly T[]): T {
    return items[this.int(items.length)]!;
  }
}

export interface PeeringCfg {
  peer_account_id: string;
  peer_region_code: string;
  peer_vpc_id: string;
}
export interface VpcCfg {
  name?: string;
  cidr: string;
  region_code: string;
  peerings?: PeeringCfg[];
}
export interface ReplicaSetCfg {
  name?: string;
  cpu_millis: number;
  memory_gbs: number;
  nodes: number;
  pooler?: boolean;
  environment?: 'DEV' | 'PROD';
}
export interface ServiceCfg {
  name?: string;
  region_code?: string;
  cpu_millis?: number | 'shared';
  memory_gbs?: number | 'shared';
  environment?: 'DEV' | 'PROD';
  ha?: { replicas: number; sync_replicas: number };
  pooler?: boolean;
  vpc?: string | null;
  paused?: boolean;
  password?: { from_env: string; version: number };
  fork?: { from: string; strategy: 'NOW' | 'LAST_SNAPSHOT' };
  replica_sets?: Record<string, ReplicaSetCfg>;
}
export interface Cfg {
  vpcs: Record<string, VpcCfg>;
  services: Record<string, ServiceCfg>;
}

export const PROJECT = 'proj-demo';
export const REGION = 'us-east-1';
const VPC_KEYS = ['main', 'edge', 'dev'];
const SERVICE_KEYS = ['a', 'b', 'c', 'd', 'e', 'f'];
const REPLICA_KEYS = ['x', 'y'];
const PEERS = ['vpc-p1', 'vpc-p2', 'vpc-p3'];
const SIZES = [
  [500, 2],
  [1000, 4],
  [2000, 8],
] as const;
const HA = [
  { replicas: 0, sync_replicas: 0 },
  { replicas: 1, sync_replicas: 0 },
  { replicas: 2, sync_replicas: 1 },
];

/** The environment variable holding a service's password at a version: each rotation a new value. */
export const passwordOf = (variable: string, version: number) => `pw-${variable.toLowerCase()}-v${version}`;

export function renderYaml(cfg: Cfg): string {
  return stringify({ version: 1, project_id: PROJECT, vpcs: cfg.vpcs, services: cfg.services });
}

/** Effective names (the key when no name is written). */
export const serviceName = (key: string, s: ServiceCfg) => s.name ?? key;
export const vpcName = (key: string, v: VpcCfg) => v.name ?? key;

function randomPeerings(rng: Rng): PeeringCfg[] {
  const peers = PEERS.filter(() => rng.chance(0.3)).slice(0, 2);
  return peers.map((peer) => ({ peer_account_id: rng.pick(['111111111111', '222222222222']), peer_region_code: REGION, peer_vpc_id: peer }));
}

function randomVpc(rng: Rng, key: string): VpcCfg {
  const v: VpcCfg = { cidr: `10.${VPC_KEYS.indexOf(key) + 1}.0.0/16`, region_code: REGION };
  if (rng.chance(0.3)) v.name = `${key}-net`;
  const peerings = randomPeerings(rng);
  if (peerings.length > 0) v.peerings = peerings;
  return v;
}

function randomReplicaSet(rng: Rng): ReplicaSetCfg {
  const [cpu, mem] = rng.pick(SIZES);
  const r: ReplicaSetCfg = { cpu_millis: cpu, memory_gbs: mem, nodes: 1 + rng.int(2) };
  if (rng.chance(0.4)) r.pooler = rng.chance(0.5);
  if (rng.chance(0.4)) r.environment = rng.pick(['DEV', 'PROD'] as const);
  return r;
}

/** Each managed field present or not (then unmanaged), with a random value. */
function randomServiceFields(rng: Rng, s: ServiceCfg, vpcKeys: string[]): void {
  if (rng.chance(0.6)) [s.cpu_millis, s.memory_gbs] = rng.pick(SIZES);
  else if (rng.chance(0.1)) [s.cpu_millis, s.memory_gbs] = ['shared', 'shared'];
  if (rng.chance(0.5)) s.environment = rng.pick(['DEV', 'PROD'] as const);
  if (rng.chance(0.4)) s.ha = { ...rng.pick(HA) };
  if (rng.chance(0.5)) s.pooler = rng.chance(0.5);
  if (rng.chance(0.5)) s.vpc = vpcKeys.length > 0 && rng.chance(0.7) ? rng.pick(vpcKeys) : null;
  if (rng.chance(0.4)) s.paused = rng.chance(0.4);
}

function randomService(rng: Rng, key: string, earlier: string[], vpcKeys: string[]): ServiceCfg {
  const s: ServiceCfg = {};
  if (earlier.length > 0 && rng.chance(0.2)) s.fork = { from: rng.pick(earlier), strategy: rng.pick(['NOW', 'LAST_SNAPSHOT'] as const) };
  else s.region_code = REGION;
  randomServiceFields(rng, s, vpcKeys);
  // A variable of its own even when a moved service still uses one named after this key.
  if (rng.chance(0.4)) s.password = { from_env: `PW_${key.toUpperCase()}_${rng.int(1_000_000)}`, version: 1 };
  const sets = REPLICA_KEYS.filter(() => rng.chance(0.3));
  if (sets.length > 0) s.replica_sets = Object.fromEntries(sets.map((k) => [k, randomReplicaSet(rng)]));
  return s;
}

export function randomConfig(rng: Rng): Cfg {
  const vpcs: Record<string, VpcCfg> = {};
  for (const key of VPC_KEYS) if (rng.chance(0.4)) vpcs[key] = randomVpc(rng, key);
  const services: Record<string, ServiceCfg> = {};
  for (const key of SERVICE_KEYS) if (rng.chance(0.45)) services[key] = randomService(rng, key, Object.keys(services), Object.keys(vpcs));
  return { vpcs, services };
}

const clone = (cfg: Cfg): Cfg => JSON.parse(JSON.stringify(cfg)) as Cfg;

/** One random edit of a copy of `cfg`, and a word for what it did (for the failure message). */
export function editConfig(rng: Rng, before: Cfg, reservedNames: ReadonlySet<string>): { cfg: Cfg; edit: string } {
  const cfg = clone(before);
  const serviceKeys = Object.keys(cfg.services);
  const vpcKeys = Object.keys(cfg.vpcs);
  const free = (pool: string[], used: string[]) => pool.filter((k) => !used.includes(k));
  const roll = rng.int(12);
  if (roll === 0 && free(SERVICE_KEYS, serviceKeys).length > 0) {
    const key = rng.pick(free(SERVICE_KEYS, serviceKeys));
    const names = Object.entries(cfg.services).map(([k, v]) => serviceName(k, v));
    if (names.includes(key) || reservedNames.has(key)) return { cfg, edit: 'none' };
    cfg.services[key] = randomService(rng, key, serviceKeys, vpcKeys);
    return { cfg, edit: `add service.${key}` };
  }
  if (roll === 1 && serviceKeys.length > 0) {
    const key = rng.pick(serviceKeys);
    removeService(cfg, key);
    return { cfg, edit: `remove service.${key}` };
  }
  if (roll === 2 && serviceKeys.length > 0) {
    const key = rng.pick(serviceKeys);
    const to = free(SERVICE_KEYS, serviceKeys);
    if (to.length === 0) return { cfg, edit: 'none' };
    return { cfg, edit: renameServiceKey(cfg, key, rng.pick(to)) };
  }
  if (roll === 3 && free(VPC_KEYS, vpcKeys).length > 0) {
    const key = rng.pick(free(VPC_KEYS, vpcKeys));
    cfg.vpcs[key] = randomVpc(rng, key);
    return { cfg, edit: `add vpc.${key}` };
  }
  if (roll === 4 && vpcKeys.length > 0) {
    const key = rng.pick(vpcKeys);
    delete cfg.vpcs[key];
    for (const s of Object.values(cfg.services)) if (s.vpc === key) s.vpc = null;
    return { cfg, edit: `remove vpc.${key}` };
  }
  if (roll === 5 && vpcKeys.length > 0) {
    const key = rng.pick(vpcKeys);
    const v = cfg.vpcs[key]!;
    const base = `10.${VPC_KEYS.indexOf(key) + 1}.0.0/16`;
    // A new CIDR replaces the VPC: its attachments and peerings move to the new one.
    if (rng.chance(0.2)) v.cidr = v.cidr === base ? `10.${VPC_KEYS.indexOf(key) + 11}.0.0/16` : base;
    else if (rng.chance(0.5)) v.name = v.name === undefined ? `${key}-net` : undefined;
    else {
      const peerings = randomPeerings(rng);
      if (peerings.length > 0) v.peerings = peerings;
      else delete v.peerings;
    }
    if (v.name === undefined) delete v.name;
    return { cfg, edit: `change vpc.${key}` };
  }
  if (serviceKeys.length === 0) return { cfg, edit: 'none' };
  const key = rng.pick(serviceKeys);
  const s = cfg.services[key]!;
  if (roll === 6) {
    const sets = s.replica_sets ?? {};
    const rk = rng.pick(REPLICA_KEYS);
    if (sets[rk] && rng.chance(0.4)) delete sets[rk];
    else sets[rk] = { ...randomReplicaSet(rng), ...(sets[rk] && rng.chance(0.5) ? { nodes: sets[rk].nodes } : {}) };
    if (Object.keys(sets).length > 0) s.replica_sets = sets;
    else delete s.replica_sets;
    return { cfg, edit: `change replica sets of service.${key}` };
  }
  if (roll === 7 && s.password) {
    s.password.version++;
    return { cfg, edit: `rotate the password of service.${key}` };
  }
  if (roll === 8) {
    s.paused = !(s.paused ?? false);
    return { cfg, edit: `service.${key} paused: ${s.paused}` };
  }
  if (roll === 9 && rng.chance(0.3)) {
    // A new name: renamed in place where the API renames services (the tiger dialect), else a
    // replace (the user passes --replace and --allow-data-loss).
    const names = new Set([...Object.entries(cfg.services).map(([k, v]) => serviceName(k, v)), ...reservedNames]);
    const name = [`${key}-v2`, `${key}-v3`, key].find((n) => !names.has(n));
    if (name === undefined) return { cfg, edit: 'none' };
    if (name === key) delete s.name;
    else s.name = name;
    return { cfg, edit: `service.${key} renamed to ${name}` };
  }
  for (const field of ['cpu_millis', 'memory_gbs', 'environment', 'ha', 'pooler', 'vpc', 'paused'] as const) delete s[field];
  randomServiceFields(rng, s, vpcKeys);
  return { cfg, edit: `change the fields of service.${key}` };
}

function removeService(cfg: Cfg, key: string): void {
  delete cfg.services[key];
  // A fork's parent is create-time only: its children keep living without the `fork:` block.
  for (const s of Object.values(cfg.services)) {
    if (s.fork?.from === key) {
      delete s.fork;
      s.region_code = REGION;
    }
  }
}

/** A key rename keeps the name (written out), so the plan moves the lockfile entry. */
function renameServiceKey(cfg: Cfg, from: string, to: string): string {
  const s = cfg.services[from]!;
  const renamed: ServiceCfg = { ...s, name: serviceName(from, s) };
  const services: Record<string, ServiceCfg> = {};
  for (const [k, v] of Object.entries(cfg.services)) services[k === from ? to : k] = k === from ? renamed : v;
  for (const v of Object.values(services)) if (v.fork?.from === from) v.fork = { ...v.fork, from: to };
  if (renamed.password) renamed.password = { ...renamed.password };
  cfg.services = services;
  return `move service.${from} -> service.${to}`;
}

/** The environment the passwords come from. */
export function passwordEnv(cfg: Cfg): Record<string, string> {
  const env: Record<string, string> = {};
  for (const s of Object.values(cfg.services)) if (s.password) env[s.password.from_env] = passwordOf(s.password.from_env, s.password.version);
  return env;
}
