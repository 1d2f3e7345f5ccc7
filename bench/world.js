// Worlds for the benchmarks: a config, the emulator state that matches it (in the emulator's own
// state-file format, see src/emulator/persistence.ts) and the lockfile that binds the two, so a
// plan of the generated world is a no-change plan of a project dbform already manages. Writing
// the state file directly takes milliseconds where creating 5,000 services through the API would
// take minutes; the bench's setup time is not what it measures.
import { spawn } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { ApiClient } from '../dist/api/client.js';
import { generateLargeConfig } from '../scripts/gen-large-config.js';
import { CLI, REPO } from './measure.js';

export const PROJECT_ID = 'proj-demo';
export const TOKEN = 'demo-pat';
/** The key pair the tiger dialect authenticates (HTTP Basic), as the emulator seeds it. */
export const KEY_PAIR = { public_key: 'demo-access', secret_key: 'demo-secret' };

const pad = (prefix, n) => `${prefix}${String(n).padStart(10 - prefix.length, '0')}`;

/** Deterministic IDs in the API's formats: 10 lowercase alphanumerics, or 10 digits for VPCs and peerings. */
export const ids = {
  service: (i) => pad('s', i),
  resource: (i) => pad('x', i),
  reporting: (i) => pad('r', i),
  analytics: (i) => pad('a', i),
  vpc: (v) => String(1_000_000_000 + v),
  peering: (v) => String(2_000_000_000 + v),
};

/** How many VPCs a world of `services` services gets: 2 to 20, about one per ten services. */
export function vpcCountFor(services) {
  return Math.min(20, Math.max(2, Math.round(services / 10)));
}

/** The config of a world: scripts/gen-large-config.js (every setting, two replica sets per service, a peering per VPC). */
export function worldConfig(services, vpcs = vpcCountFor(services)) {
  return generateLargeConfig(services, vpcs);
}

/** The same config with one field of one service changed (svc-0's environment PROD -> DEV). */
export function oneFieldChange(yaml) {
  const at = yaml.indexOf('  svc-0:\n');
  const field = yaml.indexOf('    environment: PROD\n', at);
  if (at < 0 || field < 0) throw new Error('oneFieldChange: svc-0 or its environment not found in the generated config');
  return `${yaml.slice(0, field)}    environment: DEV\n${yaml.slice(field + '    environment: PROD\n'.length)}`;
}

function serviceRecord(i, vpcs, createdAt) {
  return {
    id: ids.service(i),
    name: `service-${i}`,
    regionCode: 'us-east-1',
    serviceType: 'TIMESERIESDB',
    createdAt,
    resourceId: ids.resource(i),
    size: { cpuMillis: 2000, memoryGbs: 8 },
    ha: { replicaCount: 2, syncReplicaCount: 1 },
    environment: 'PROD',
    pooler: true,
    status: 'READY',
    vpc: { vpcId: ids.vpc(i % vpcs), until: createdAt },
    replicaSets: [
      { id: ids.reporting(i), name: 'reporting', cpuMillis: 1000, memoryGbs: 4, nodes: 2, pooler: false, environment: 'PROD', status: 'active' },
      { id: ids.analytics(i), name: 'analytics', cpuMillis: 500, memoryGbs: 2, nodes: 1, pooler: false, environment: 'DEV', status: 'active' },
    ],
  };
}

function vpcRecord(v, createdAt) {
  return {
    id: ids.vpc(v),
    name: `vpc-${v}`,
    cidr: `10.${v}.0.0/16`,
    regionCode: 'us-east-1',
    peerings: [
      {
        id: ids.peering(v),
        peerAccountId: '123456789012',
        peerRegionCode: 'us-east-1',
        peerVpcId: `vpc-peer-${v}`,
        settlesAt: createdAt,
        fails: false,
        provisionedId: `pcx-${String(v).padStart(8, '0')}`,
      },
    ],
  };
}

/** The emulator state file (format "dbform-emulator-state", version 1) holding the generated world. */
export function worldState(services, vpcs = vpcCountFor(services), createdAt = Date.parse('2026-01-01T00:00:00Z')) {
  const project = {
    id: PROJECT_ID,
    name: 'Demo',
    vpcs: Array.from({ length: vpcs }, (_, v) => vpcRecord(v, createdAt)),
    services: Array.from({ length: services }, (_, i) => serviceRecord(i, vpcs, createdAt)),
  };
  const tokens = [{ token: TOKEN, kind: 'pat', project_id: PROJECT_ID }];
  return { format: 'dbform-emulator-state', version: 1, projects: [project], tokens, key_pairs: [{ ...KEY_PAIR, project_id: PROJECT_ID }] };
}

/** The lockfile (on-disk JSON) binding every generated resource to its address. */
export function worldLockfile(services, vpcs = vpcCountFor(services)) {
  const resources = {};
  for (let v = 0; v < vpcs; v++) {
    resources[`vpc.vpc-${v}`] = { id: ids.vpc(v) };
    resources[`peering.vpc-${v}.vpc-peer-${v}`] = { id: ids.peering(v) };
  }
  for (let i = 0; i < services; i++) {
    resources[`service.svc-${i}`] = { id: ids.service(i), password_version: 1, protect: true };
    resources[`replica_set.svc-${i}.reporting`] = { id: ids.reporting(i) };
    resources[`replica_set.svc-${i}.analytics`] = { id: ids.analytics(i) };
  }
  return { version: 1, project_id: PROJECT_ID, resources };
}

/**
 * A fresh, empty bench/out/NAME (gitignored). Names are fixed so the commands BENCHMARKS.md
 * prints can be re-run by hand on the files the last bench left there.
 */
export function scratchDir(name) {
  const dir = join(REPO, 'bench', 'out', name);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  return dir;
}

/** A path as BENCHMARKS.md shows it: relative to the repository. */
export const shown = (path) => relative(REPO, path);

/**
 * Writes a world to a directory: dbform.yaml, dbform.lock.json, emulator-state.json, and
 * one-field.yaml (the same config with one field changed). Returns their paths and sizes.
 */
export function writeWorld(dir, services, vpcs = vpcCountFor(services)) {
  const yaml = worldConfig(services, vpcs);
  const paths = {
    dir,
    config: join(dir, 'dbform.yaml'),
    oneField: join(dir, 'one-field.yaml'),
    lockfile: join(dir, 'dbform.lock.json'),
    state: join(dir, 'emulator-state.json'),
  };
  writeFileSync(paths.config, yaml);
  writeFileSync(paths.oneField, oneFieldChange(yaml));
  writeFileSync(paths.lockfile, `${JSON.stringify(worldLockfile(services, vpcs), null, 2)}\n`);
  writeFileSync(paths.state, JSON.stringify(worldState(services, vpcs)));
  return { ...paths, services, vpcs, replicaSets: services * 2, peerings: vpcs };
}

/**
 * `dbform emulator` in its own process on 127.0.0.1, port 0, like a server on loopback: its work
 * does not share a thread (or a core) with the process being measured. Resolves once it prints
 * its URL; `close()` stops it with SIGTERM.
 */
export function spawnEmulator({ stateFile, latencyMs = 0, timeScale = 0, dialect = 'seed' } = {}) {
  const args = [CLI, 'emulator', '--host', '127.0.0.1', '--port', '0', '--time-scale', String(timeScale), '--latency-ms', String(latencyMs), '--dialect', dialect];
  if (stateFile) args.push('--state', stateFile);
  const child = spawn(process.execPath, args, { cwd: REPO, stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (d) => (stderr += d));
  const exited = new Promise((resolve) => child.on('exit', resolve));
  return new Promise((resolve, reject) => {
    let stdout = '';
    child.on('error', reject);
    exited.then((code) => reject(new Error(`dbform emulator exited ${code} before listening: ${stderr.trim()}`)));
    child.stdout.on('data', (d) => {
      stdout += d;
      const m = /emulator listening on (http:\/\/[^\s]+)/.exec(stdout);
      if (!m) return;
      const url = m[1];
      resolve({
        url,
        origin: new URL(url).origin,
        pid: child.pid,
        close: async () => {
          if (child.exitCode === null) child.kill('SIGTERM');
          await exited;
        },
      });
    });
  });
}

/** An emulator serving a world written by writeWorld (reads persist nothing). */
export function startWorldEmulator(world, { latencyMs = 0, timeScale = 0, dialect = 'seed' } = {}) {
  return spawnEmulator({ stateFile: world.state, latencyMs, timeScale, dialect });
}

/** An emulator with the default (empty) world, nothing persisted: for the apply benchmarks. */
export function startEmptyEmulator({ latencyMs = 0, timeScale = 1 } = {}) {
  return spawnEmulator({ latencyMs, timeScale });
}

// ---- apply worlds: small configs the apply benchmarks create and then change ----------------

const SIZES = [
  { cpu: 1000, mem: 4 },
  { cpu: 2000, mem: 8 },
  { cpu: 4000, mem: 16 },
];

/**
 * `width` services svc-0.. whose sizes the benchmarks change. `resize(count)` moves svc-0..
 * svc-(count-1) to a size none of them has now and returns the config: every measured apply is
 * `count` resizes, with no unmeasured apply to undo the previous one.
 */
export class Fleet {
  constructor(width) {
    this.sizes = new Array(width).fill(0);
  }

  config() {
    const lines = ['version: 1', `project_id: ${PROJECT_ID}`, 'services:'];
    this.sizes.forEach((s, i) => lines.push(`  svc-${i}:`, '    region_code: us-east-1', `    cpu_millis: ${SIZES[s].cpu}`, `    memory_gbs: ${SIZES[s].mem}`));
    return `${lines.join('\n')}\n`;
  }

  resize(count) {
    const used = new Set(this.sizes.slice(0, count));
    const next = SIZES.findIndex((_, i) => !used.has(i));
    for (let i = 0; i < count; i++) this.sizes[i] = next;
    return this.config();
  }
}

const replicaSet = ['    replica_sets:', '      rs:', '        cpu_millis: 1000', '        memory_gbs: 4', '        nodes: 1'];

/**
 * A VPC with a peering and a service with a replica set; `attach` puts the service in the VPC;
 * `fork` adds a fork of it with HA, its own replica set (and attach): the longest chain dbform
 * plans (service -> fork -> setHA -> replica set).
 */
export function chainConfig({ attach = false, fork = false } = {}) {
  const vpc = attach ? ['    vpc: chain-vpc'] : [];
  const lines = [
    'version: 1',
    `project_id: ${PROJECT_ID}`,
    'vpcs:',
    '  chain-vpc:',
    '    cidr: 10.1.0.0/16',
    '    region_code: us-east-1',
    '    peerings:',
    '      - { peer_account_id: "123456789012", peer_region_code: us-east-1, peer_vpc_id: vpc-peer-chain }',
    'services:',
    '  chain-svc:',
    '    region_code: us-east-1',
    '    cpu_millis: 1000',
    '    memory_gbs: 4',
    ...vpc,
    ...replicaSet,
  ];
  if (fork) lines.push('  chain-fork:', '    fork: { from: chain-svc, strategy: NOW }', '    ha: { replicas: 1 }', ...vpc, ...replicaSet);
  return `${lines.join('\n')}\n`;
}

/** The emulator's request counts, read over HTTP from GET /__emulator/stats as any client would. */
export async function readStats(emulator) {
  const res = await fetch(`${emulator.origin}/__emulator/stats`);
  if (!res.ok) throw new Error(`GET /__emulator/stats answered ${res.status}`);
  return res.json();
}

export async function resetStats(emulator) {
  const res = await fetch(`${emulator.origin}/__emulator/reset`, { method: 'POST' });
  if (res.status !== 204) throw new Error(`POST /__emulator/reset answered ${res.status}`);
}

/** The API bodies a plan reads, saved for the network-free planning work. */
export async function dumpLive(world, emulator) {
  const client = new ApiClient({ baseUrl: emulator.url, token: TOKEN });
  try {
    const [services, vpcs] = await Promise.all([client.listServices(PROJECT_ID), client.listVPCs(PROJECT_ID)]);
    const peerings = {};
    for (const v of vpcs) peerings[String(v.id)] = await client.listVPCPeerings(PROJECT_ID, String(v.id));
    const path = join(world.dir, 'live.json');
    writeFileSync(path, JSON.stringify({ services, vpcs, peerings }));
    return path;
  } finally {
    await client.close();
  }
}
