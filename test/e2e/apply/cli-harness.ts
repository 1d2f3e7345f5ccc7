// Spawning the built CLI (`npx tsc -p tsconfig.json` first; `npm test` does) against an emulator
// running in the test process, and checking what an apply left behind.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { LiveState, Lockfile, Plan } from '../../../src/model/index.js';

export const BIN = join(import.meta.dirname, '..', '..', '..', 'bin', 'dbform.js');

export interface CliResult {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

export interface Workspace {
  dir: string;
  config: string;
  lockfile: string;
  pgpass: string;
  env: NodeJS.ProcessEnv;
}

/** A temp dir with a config, and an environment that reaches `apiUrl` (HOME inside the dir). */
export function workspace(configText: string, apiUrl: string, extraEnv: NodeJS.ProcessEnv = {}): Workspace {
  const dir = mkdtempSync(join(tmpdir(), 'dbform-cli-'));
  const home = join(dir, 'home');
  mkdirSync(home);
  const config = join(dir, 'dbform.yaml');
  writeFileSync(config, configText);
  const pgpass = join(dir, 'pgpass');
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH,
    HOME: home,
    NO_COLOR: '1',
    DBFORM_API_URL: apiUrl,
    DBFORM_API_KEY: 'demo-pat',
    DBFORM_POLL_MS: '20',
    PGPASSFILE: pgpass,
    ...extraEnv,
  };
  return { dir, config, lockfile: join(dir, 'dbform.lock.json'), pgpass, env };
}

export function spawnCli(ws: Workspace, args: string[], options: { env?: NodeJS.ProcessEnv; input?: string } = {}): { child: ChildProcess; done: Promise<CliResult> } {
  const child = spawn(process.execPath, [BIN, ...args], { cwd: ws.dir, env: { ...ws.env, ...options.env }, stdio: ['pipe', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (d) => (stdout += d));
  child.stderr!.on('data', (d) => (stderr += d));
  if (options.input !== undefined) child.stdin!.end(options.input);
  else child.stdin!.end();
  const done = new Promise<CliResult>((resolve) => child.on('close', (code, signal) => resolve({ code, signal, stdout, stderr })));
  return { child, done };
}

export function runCli(ws: Workspace, args: string[], options: { env?: NodeJS.ProcessEnv; input?: string } = {}): Promise<CliResult> {
  return spawnCli(ws, args, options).done;
}

export function readLock(ws: Workspace): string {
  return readFileSync(ws.lockfile, 'utf8');
}

/**
 * The plan the next `dbform plan` would make, computed by the built modules in a child process
 * (the same code the CLI runs) from the workspace's config, lockfile and the live state.
 */
export async function nextPlan(ws: Workspace, apiUrl: string, savePlanTo?: string): Promise<{ plan: Plan; live: LiveState; lock: Lockfile }> {
  const dist = join(import.meta.dirname, '..', '..', '..', 'dist');
  const script = `
    const { loadConfig } = await import(${JSON.stringify(join(dist, 'config', 'index.js'))});
    const { ApiClient, fetchLiveState } = await import(${JSON.stringify(join(dist, 'api', 'index.js'))});
    const { readLockfile } = await import(${JSON.stringify(join(dist, 'lockfile', 'index.js'))});
    const { planChanges, toPlanJson } = await import(${JSON.stringify(join(dist, 'planner', 'index.js'))});
    const { writeFileSync } = await import('node:fs');
    const loaded = await loadConfig([process.env.WS_CONFIG]);
    if (!loaded.ok) throw new Error(JSON.stringify(loaded.errors));
    const client = new ApiClient({ baseUrl: process.env.WS_API, token: 'demo-pat' });
    const live = await fetchLiveState(client, loaded.value.projectId, { peeringsOf: 'all' });
    const lock = await readLockfile(process.env.WS_LOCK, loaded.value.projectId);
    const plan = planChanges(loaded.value, live, lock, { replace: [], target: [], allowDataLoss: false });
    await client.close();
    if (process.env.WS_OUT) writeFileSync(process.env.WS_OUT, JSON.stringify(toPlanJson(plan), null, 2));
    process.stdout.write(JSON.stringify({ plan, live, lock }));
  `;
  const env = { ...ws.env, WS_CONFIG: ws.config, WS_API: apiUrl, WS_LOCK: ws.lockfile, ...(savePlanTo ? { WS_OUT: savePlanTo } : {}) };
  const run = await new Promise<{ code: number | null; out: string; err: string }>((resolve) => {
    const child = spawn(process.execPath, ['--input-type=module', '-e', script], { env, cwd: ws.dir });
    let out = '';
    let err = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (err += d));
    child.on('close', (code) => resolve({ code, out, err }));
  });
  if (run.code !== 0) throw new Error(`computing the next plan failed: ${run.err}`);
  return JSON.parse(run.out) as { plan: Plan; live: LiveState; lock: Lockfile };
}

/** Names (or peer VPC IDs) that occur more than once among live resources of one kind and scope. */
export function duplicates(live: LiveState): string[] {
  const seen = new Map<string, number>();
  const count = (key: string) => seen.set(key, (seen.get(key) ?? 0) + 1);
  for (const v of live.vpcs) {
    count(`vpc ${v.name}`);
    for (const p of v.peerings ?? []) count(`peering ${v.name}/${p.peerVpcId}`);
  }
  for (const s of live.services) {
    count(`service ${s.name}`);
    for (const r of s.replicaSets) count(`replica set ${s.name}/${r.name}`);
  }
  return [...seen].filter(([, n]) => n > 1).map(([k, n]) => `${k} x${n}`);
}

/** Live IDs (not being deleted) that the lockfile does not bind. */
export function unboundIds(live: LiveState, lock: Lockfile): string[] {
  const bound = new Set(Object.values(lock.resources).map((e) => e.id));
  const ids: string[] = [];
  for (const v of live.vpcs) {
    ids.push(v.id);
    for (const p of v.peerings ?? []) ids.push(p.id);
  }
  for (const s of live.services) {
    if (s.status === 'DELETING') continue;
    ids.push(s.id);
    for (const r of s.replicaSets) if (r.status !== 'deleting') ids.push(r.id);
  }
  return ids.filter((id) => !bound.has(id));
}

/**
 * A config of exactly 30 actions: 2 VPCs with a peering each, 6 services each with a pooler, a
 * VPC attachment and a replica set (4 actions each), and 2 plain services.
 */
export function thirtyActionConfig(projectId = 'proj-demo'): string {
  const lines = [`version: 1`, `project_id: ${projectId}`, `vpcs:`];
  for (const v of ['east', 'west']) {
    lines.push(`  ${v}:`, `    cidr: 10.${v === 'east' ? 1 : 2}.0.0/16`, `    region_code: us-east-1`, `    peerings:`);
    lines.push(`      - peer_account_id: "123456789012"`, `        peer_region_code: us-east-1`, `        peer_vpc_id: vpc-${v}`);
  }
  lines.push('services:');
  for (let i = 1; i <= 6; i++) {
    lines.push(`  app${i}:`, `    region_code: us-east-1`, `    cpu_millis: 500`, `    memory_gbs: 2`, `    pooler: true`, `    vpc: ${i % 2 ? 'east' : 'west'}`);
    lines.push(`    replica_sets:`, `      read:`, `        cpu_millis: 500`, `        memory_gbs: 2`, `        nodes: 1`);
  }
  for (const name of ['plain1', 'plain2']) lines.push(`  ${name}:`, `    environment: PROD`);
  return `${lines.join('\n')}\n`;
}
