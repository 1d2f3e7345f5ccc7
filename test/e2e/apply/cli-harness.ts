// A workspace for running the CLI against an emulator in the test process (in process by default,
// spawned when a test needs a real process: test/support/cli.ts), and checks of what an apply left
// behind.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fetchLiveState } from '../../../src/api/index.js';
import { loadConfig } from '../../../src/config/index.js';
import { readLockfile } from '../../../src/lockfile/index.js';
import type { LiveState, Lockfile, Plan } from '../../../src/model/index.js';
import { hashConfigFiles } from '../../../src/app/plan.js';
import { planChanges, toPlanJson, withSavedInputs } from '../../../src/planner/index.js';
import { runCli as runDbform, spawnCli as spawnBuiltCli, type CliResult } from '../../support/cli.js';
import { AUTH_ENV, testClient } from '../../support/dialect.js';
import { tempDir } from '../../support/temp-dir.js';

export type { CliResult } from '../../support/cli.js';

export interface Workspace {
  dir: string;
  config: string;
  lockfile: string;
  pgpass: string;
  env: NodeJS.ProcessEnv;
}

/** A temp dir with a config, and an environment that reaches `apiUrl` (HOME inside the dir). */
export function workspace(configText: string, apiUrl: string, extraEnv: NodeJS.ProcessEnv = {}): Workspace {
  const dir = tempDir('dbform-cli-');
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
    ...AUTH_ENV,
    DBFORM_POLL_MS: '20',
    PGPASSFILE: pgpass,
    // Whatever the CLI puts in a temp dir stays in the workspace, which the test removes.
    TMPDIR: dir,
    ...extraEnv,
  };
  return { dir, config, lockfile: join(dir, 'dbform.lock.json'), pgpass, env };
}

export interface WorkspaceRun {
  env?: NodeJS.ProcessEnv;
  input?: string;
  /** A real process (see test/support/cli.ts); spawnCli always is one. */
  spawn?: boolean;
}

/** The CLI spawned in the workspace, with exactly the workspace's environment (plus `options.env`). */
export function spawnCli(ws: Workspace, args: string[], options: WorkspaceRun = {}) {
  return spawnBuiltCli(args, { cwd: ws.dir, exactEnv: { ...ws.env, ...options.env }, input: options.input });
}

/** The CLI run in the workspace (in process unless `spawn`), with exactly its environment (plus `options.env`). */
export function runCli(ws: Workspace, args: string[], options: WorkspaceRun = {}): Promise<CliResult> {
  return runDbform(args, { cwd: ws.dir, exactEnv: { ...ws.env, ...options.env }, input: options.input, spawn: options.spawn });
}

export function readLock(ws: Workspace): string {
  return readFileSync(ws.lockfile, 'utf8');
}

/**
 * The plan the next `dbform plan` would make from the workspace's config, lockfile and the live
 * state, by the same modules the CLI runs; `savePlanTo` writes it as a saved plan file would be.
 */
export async function nextPlan(ws: Workspace, apiUrl: string, savePlanTo?: string): Promise<{ plan: Plan; live: LiveState; lock: Lockfile }> {
  const loaded = await loadConfig([ws.config], { env: ws.env });
  if (!loaded.ok) throw new Error(`the workspace config is invalid: ${JSON.stringify(loaded.errors)}`);
  const client = testClient(apiUrl);
  try {
    const live = await fetchLiveState(client, loaded.value.projectId);
    const lock = await readLockfile(ws.lockfile, loaded.value.projectId);
    const plan = planChanges(loaded.value, live, lock, { replace: [], target: [], allowDataLoss: false });
    if (savePlanTo) {
      const saved = withSavedInputs(plan, lock, await hashConfigFiles([ws.config]), { replace: [], target: [], allowDataLoss: false });
      writeFileSync(savePlanTo, JSON.stringify(toPlanJson(saved), null, 2));
    }
    return { plan, live, lock };
  } finally {
    await client.close();
  }
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
