// Results as JSON and destroy --target (SPEC section 14), end to end over real HTTP against the
// emulator, with a real PostgreSQL state where the state is PostgreSQL: `apply --json`, `destroy
// --json` and `sweep --json` print one document on stdout that validates against
// schemas/result.schema.json, whatever ended the run (done, failed, blocked), while the plan and
// the progress go to stderr; every history record names the state.
import pg from 'pg';
import { readFileSync, writeFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { redactUrl } from '../../../src/state/index.js';
import { useDatabaseAndEmulator } from '../../support/pg-and-emulator.js';
import { parseResult } from '../../support/result-schema.js';
import { runCli, workspace, type Workspace } from './cli-harness.js';

const world = useDatabaseAndEmulator();

interface LiveService {
  service_id: string;
  name: string;
  status: string;
  vpc_endpoint?: { vpc_id?: string } | null;
  read_replica_sets?: Array<{ id: string; name: string }>;
}

async function liveServices(): Promise<LiveService[]> {
  const res = await fetch(`${world.emulator.url}/projects/proj-demo/services`, { headers: { authorization: 'Bearer demo-pat' } });
  return ((await res.json()) as LiveService[]).filter((s) => s.status !== 'DELETING');
}

/** The live services whose name starts with `prefix` (the emulator is shared by this file's tests). */
async function liveNames(prefix: string): Promise<string[]> {
  return (await liveServices()).map((s) => s.name).filter((n) => n.startsWith(prefix)).sort();
}

async function liveVpcNames(): Promise<string[]> {
  const res = await fetch(`${world.emulator.url}/projects/proj-demo/vpcs`, { headers: { authorization: 'Bearer demo-pat' } });
  return ((await res.json()) as Array<{ name: string }>).map((v) => v.name);
}

/** The requests that change something, made since the last reset. */
function mutations(): string[] {
  return Object.keys(world.emulator.stats().requests).filter((k) => !k.startsWith('GET'));
}

/** A state database of this file's server: the test's own project state, in PostgreSQL. */
function pgWorkspace(config: string, name: string): Workspace {
  return workspace(config, world.emulator.url, { DBFORM_STATE: world.db.url, DBFORM_WORKSPACE: name });
}

const service = (key: string, name: string, extra = '') => `  ${key}:\n    name: ${name}\n    cpu_millis: 500\n    memory_gbs: 2\n${extra}`;

describe('apply --json', () => {
  const config = (services: string) => `version: 1\nproject_id: proj-demo\nvpcs:\n  main:\n    name: res-\${workspace}\n    cidr: 10.61.0.0/16\n    region_code: us-east-1\nservices:\n${services}`;

  it('prints one document that validates when the apply is done, fails or is blocked; the plan and progress go to stderr', async () => {
    const ws = pgWorkspace(config(service('db', 'res-db')), 'pr-7');
    const state = redactUrl(world.db.url);
    const done = await runCli(ws, ['apply', '--auto-approve', '--json']);
    expect(done.code, done.stderr).toBe(0);
    const ok = parseResult(done.stdout);
    expect(ok).toMatchObject({ command: 'apply', project_id: 'proj-demo', workspace: 'pr-7', state, exit_code: 0, error: null, cancelled: false });
    expect(ok.summary).toMatchObject({ create: 2 });
    expect(ok.counts).toMatchObject({ done: 2, failed: 0, blocked: 0, not_started: 0 });
    expect(ok.actions.map((a: { address: string; op: string; outcome: string }) => `${a.address} ${a.op} ${a.outcome}`).sort()).toEqual(['service.db createService done', 'vpc.main createVPC done']);
    const lock = await world.db.query<{ document: { resources: Record<string, { id: string }> } }>("SELECT document FROM dbform.states WHERE workspace = 'pr-7'");
    for (const a of ok.actions) expect(a.id).toBe(lock.rows[0]!.document.resources[a.address]!.id);
    // The plan, the progress and the summary (which names the workspace and state) are on stderr.
    expect(done.stderr).toContain('dbform will make these changes:');
    expect(done.stderr).toContain(`Workspace pr-7, state: ${state}\nApply complete: 2 created`);

    // A peering the API refuses: the run ends with an error; the result says which action and why.
    const peering = '    peerings:\n      - peer_account_id: "12345"\n        peer_region_code: us-east-1\n        peer_vpc_id: vpc-bad\n';
    writeConfig(ws, config(service('db', 'res-db')).replace('    region_code: us-east-1\nservices:', `    region_code: us-east-1\n${peering}services:`));
    const failed = await runCli(ws, ['apply', '--auto-approve', '--json']);
    expect(failed.code).toBe(1);
    const bad = parseResult(failed.stdout);
    expect(bad).toMatchObject({ command: 'apply', workspace: 'pr-7', state, exit_code: 1, counts: { failed: 1, done: 0 } });
    expect(bad.error).toMatch(/^apply failed: 1 action\(s\) failed/);
    expect(bad.actions).toEqual([{ address: 'peering.main.vpc-bad', op: 'createVPCPeering', outcome: 'failed', id: null, error: expect.stringMatching(/12-digit/) }]);
    expect(failed.stderr).toMatch(/^error: apply failed: 1 action\(s\) failed/m);

    // Removing the service plans a delete, which the data-loss guard blocks: nothing is sent.
    writeConfig(ws, config(''));
    world.emulator.resetStats();
    const blocked = await runCli(ws, ['apply', '--auto-approve', '--json']);
    expect(blocked.code).toBe(3);
    const stop = parseResult(blocked.stdout);
    expect(stop).toMatchObject({ exit_code: 3, counts: { blocked: 1, done: 0 } });
    const del = stop.actions.find((a: { op: string }) => a.op === 'deleteService');
    expect(del).toMatchObject({ address: 'service.db', outcome: 'blocked', id: ok.actions.find((a: { address: string }) => a.address === 'service.db').id });
    expect(del.blocked).toMatch(/^data-loss: /);
    expect(mutations()).toEqual([]);
    expect((await liveServices()).map((s) => s.name)).toContain('res-db');

    // Every record in history names the state (SPEC section 14).
    const history = JSON.parse((await runCli(ws, ['history', '--json'])).stdout) as Array<{ state: string; exit_code: number }>;
    expect(history.map((r) => [r.state, r.exit_code])).toEqual([
      [state, 3],
      [state, 1],
      [state, 0],
    ]);
    for (const out of [done.stdout, failed.stdout, blocked.stdout]) expect(out).not.toContain('demo-pat');
  });
});

/** The config changed as a person edits it. */
function writeConfig(ws: Workspace, text: string): void {
  writeFileSync(ws.config, text);
}

describe('destroy --target', () => {
  const config = `version: 1
project_id: proj-demo
vpcs:
  net:
    name: tgt-net
    cidr: 10.62.0.0/16
    region_code: us-east-1
    peerings:
      - peer_account_id: "123456789012"
        peer_region_code: us-east-1
        peer_vpc_id: vpc-tgt
services:
${service('db', 'tgt-db', '    vpc: net\n    replica_sets:\n      read:\n        cpu_millis: 500\n        memory_gbs: 2\n        nodes: 1\n')}${service('keep', 'tgt-keep')}${service('guarded', 'tgt-guarded', '    protect: true\n')}`;

  it('deletes only the targets and what must go with them; the services of a VPC are detached and stay; protect still holds', async () => {
    const ws = workspace(config, world.emulator.url);
    const applied = await runCli(ws, ['apply', '--auto-approve']);
    expect(applied.code, applied.stderr).toBe(0);
    const ids = JSON.parse(readFileSync(ws.lockfile, 'utf8')).resources as Record<string, { id: string }>;

    const vpc = await runCli(ws, ['destroy', '--target', 'vpc.net', '--auto-approve', '--json']);
    expect(vpc.code, vpc.stderr).toBe(0);
    const gone = parseResult(vpc.stdout);
    expect(gone).toMatchObject({ command: 'destroy', workspace: 'default', state: 'dbform.lock.json', exit_code: 0 });
    expect(gone.actions.map((a: { address: string; op: string; outcome: string }) => `${a.address} ${a.op} ${a.outcome}`).sort()).toEqual([
      'peering.net.vpc-tgt deleteVPCPeering done',
      'service.db detachServiceFromVPC done',
      'vpc.net deleteVPC done',
    ]);
    expect(await liveVpcNames()).not.toContain('tgt-net');
    const db = (await liveServices()).find((s) => s.name === 'tgt-db')!;
    expect(db.service_id).toBe(ids['service.db']!.id);
    expect(db.vpc_endpoint ?? null).toBeNull();
    expect(Object.keys(JSON.parse(readFileSync(ws.lockfile, 'utf8')).resources).sort()).toEqual(['replica_set.db.read', 'service.db', 'service.guarded', 'service.keep']);

    // --target is repeatable: a service goes with its replica sets, and so does the other one
    // named; the service not named stays.
    const svc = await runCli(ws, ['destroy', '--target', 'service.db', '--target', 'service.keep', '--auto-approve']);
    expect(svc.code, svc.stderr).toBe(0);
    expect(svc.stdout).toMatch(/- replica_set\.db\.read .*deleteReplicaSet/);
    expect(svc.stdout).toMatch(/- service\.keep .*deleteService/);
    expect(await liveNames('tgt-')).toEqual(['tgt-guarded']);
    expect(Object.keys(JSON.parse(readFileSync(ws.lockfile, 'utf8')).resources).sort()).toEqual(['service.guarded']);

    // A protected target is blocked (exit 3), and nothing is sent.
    world.emulator.resetStats();
    const guarded = await runCli(ws, ['destroy', '--target', 'service.guarded', '--auto-approve', '--json']);
    expect(guarded.code).toBe(3);
    const refused = parseResult(guarded.stdout);
    expect(refused.actions).toEqual([{ address: 'service.guarded', op: 'deleteService', outcome: 'blocked', id: ids['service.guarded']!.id, error: null, blocked: expect.stringMatching(/^protected: /) }]);
    expect(mutations()).toEqual([]);
    expect(await liveNames('tgt-')).toEqual(['tgt-guarded']);
  });
});

describe('sweep --json', () => {
  it('lists each due workspace with its destroy, in a document that validates; the progress goes to stderr', async () => {
    const ws = workspace(`version: 1\nproject_id: proj-demo\nservices:\n${service('app', 'swj-${workspace}')}`, world.emulator.url, { DBFORM_STATE: world.db.url });
    for (const name of ['swj-1', 'swj-2']) {
      const r = await runCli(ws, ['apply', '--auto-approve', '--workspace', name, '--ttl', '1m']);
      expect(r.code, r.stderr).toBe(0);
    }
    // The shortest TTL is a minute: the expiry is moved into the past where the store keeps it.
    const client = new pg.Client({ connectionString: world.db.url });
    await client.connect();
    try {
      await client.query("UPDATE dbform.states SET expires_at = now() - interval '1 minute' WHERE workspace IN ('swj-1', 'swj-2')");
    } finally {
      await client.end();
    }
    const swept = await runCli(ws, ['sweep', '--auto-approve', '--json']);
    expect(swept.code, swept.stderr).toBe(0);
    const doc = parseResult(swept.stdout);
    expect(doc).toMatchObject({ command: 'sweep', project_id: 'proj-demo', state: redactUrl(world.db.url), exit_code: 0, error: null, counts: { due: 2, swept: 2, skipped: 0, blocked: 0, failed: 0 } });
    expect(doc.workspaces.map((w: { workspace: string; outcome: string }) => [w.workspace, w.outcome])).toEqual([
      ['swj-1', 'swept'],
      ['swj-2', 'swept'],
    ]);
    for (const w of doc.workspaces) {
      expect(w.result).toMatchObject({ command: 'destroy', workspace: w.workspace, exit_code: 0 });
      expect(w.result.actions).toEqual([expect.objectContaining({ address: 'service.app', op: 'deleteService', outcome: 'done' })]);
    }
    expect(swept.stderr).toMatch(/^Sweeping 2 workspace\(s\) of project proj-demo: swj-1, swj-2\n/);
    expect(swept.stderr).toContain('Sweep: 2 of 2 workspace(s) swept.\nState: ');
    expect((await liveServices()).map((s) => s.name)).not.toContain('swj-1');
  });
});
