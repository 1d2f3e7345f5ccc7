// `dbform export` options and unhappy paths, end to end: flags, projects, existing files,
// --all-projects, stdout, --emulator, and resources caught mid-deletion or failed.
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiClient } from '../../../src/api/client.js';
import { startEmulator, type EmulatorHandle } from '../../../src/emulator/index.js';
import { runCli } from '../../support/cli.js';
import { buildWorld, P } from './world.js';
import { removeTempDirs, tempDir } from '../../support/temp-dir.js';

afterAll(removeTempDirs);

let em: EmulatorHandle;
let client: ApiClient;
let env: Record<string, string>;
const tmp = () => tempDir('dbform-export-cli-');
const lockOf = (path: string) => JSON.parse(readFileSync(path, 'utf8'));

beforeAll(async () => {
  em = await startEmulator({ host: '127.0.0.1', port: 0, timeScale: 0 });
  client = new ApiClient({ baseUrl: em.url, token: 'demo-pat' });
  env = { DBFORM_API_URL: em.url, DBFORM_API_KEY: 'demo-pat' };
  await buildWorld(client, [
    { name: 'billing', size: [500, 2], pooler: true, vpc: 'Prod VPC', replicaSets: [{ name: 'reporting', size: [500, 2], nodes: 1 }] },
    { name: 'search', size: 'shared', env: 'PROD' },
  ]);
  const other = new ApiClient({ baseUrl: em.url, token: 'demo-oauth' });
  await other.createService('proj-other', { name: 'elsewhere' });
  await other.close();
});
afterAll(async () => {
  await client.close();
  await em.close();
});

describe('dbform export: flags and projects', () => {
  it.each([
    [[], 'error: export writes YAML and a lockfile: give -o FILE (the lockfile goes beside it as dbform.lock.json), or --lockfile PATH to print the YAML on stdout\n'],
    [['--all-projects'], 'error: --all-projects needs -o DIR: it writes DIR/<project-id>/dbform.yaml and dbform.lock.json for each project\n'],
    [['--all-projects', '--project', 'p', '-o', 'x'], 'error: --project and --all-projects contradict each other; use one\n'],
    [['--all-projects', '-o', 'x', '--lockfile', 'l'], 'error: --lockfile cannot be used with --all-projects: each lockfile is DIR/<project-id>/dbform.lock.json\n'],
  ])('refuses %j before any request', async (args, message) => {
    em.resetStats();
    const r = await runCli(['export', ...args], { env, cwd: tmp() });
    expect(r.stderr).toBe(message);
    expect(r.code).toBe(1);
    expect(em.stats().total).toBe(0);
  });

  it('asks an OAuth token that sees several projects to choose one, listing them', async () => {
    const dir = tmp();
    const r = await runCli(['export', '-o', join(dir, 'dbform.yaml')], { env: { ...env, DBFORM_API_KEY: 'demo-oauth' } });
    expect(r.stderr).toBe(
      'error: the API token sees 2 projects; choose one with --project ID, or export each with --all-projects -o DIR:\n  proj-demo   Demo\n  proj-other  Other\n',
    );
    expect(r.code).toBe(1);
    expect(existsSync(join(dir, 'dbform.yaml'))).toBe(false);
    expect(existsSync(join(dir, 'dbform.lock.json'))).toBe(false);
  });

  it('refuses a project the token cannot see', async () => {
    const r = await runCli(['export', '--project', 'proj-other', '-o', join(tmp(), 'x.yaml')], { env });
    expect(r.stderr).toBe('error: project "proj-other" is not visible to this API token; it sees:\n  proj-demo  Demo\n');
    expect(r.code).toBe(1);
  });

  it('exports the chosen project of an OAuth token', async () => {
    const dir = tmp();
    const r = await runCli(['export', '--project', 'proj-other', '-o', join(dir, 'other.yaml')], { env: { ...env, DBFORM_API_KEY: 'demo-oauth' } });
    expect(r.code, r.stderr).toBe(0);
    const yaml = readFileSync(join(dir, 'other.yaml'), 'utf8');
    expect(yaml).toContain('project_id: proj-other\n');
    expect(yaml).toContain('  elsewhere:\n');
    expect(lockOf(join(dir, 'dbform.lock.json')).project_id).toBe('proj-other');
  });

  it('--all-projects writes DIR/<project>/dbform.yaml and dbform.lock.json, each planning to zero with plain -f', async () => {
    const dir = join(tmp(), 'all');
    const oauth = { ...env, DBFORM_API_KEY: 'demo-oauth' };
    const r = await runCli(['export', '--all-projects', '-o', dir], { env: oauth });
    expect(r.code, r.stderr).toBe(0);
    const other = join(dir, 'proj-other');
    expect(r.stderr).toContain(
      `Exported 0 VPCs, 0 peerings, 1 service and 0 replica sets of project proj-other to ${join(other, 'dbform.yaml')}; lockfile ${join(other, 'dbform.lock.json')}.`,
    );
    expect(readdirSync(dir).sort()).toEqual(['proj-demo', 'proj-other']);
    for (const project of ['proj-demo', 'proj-other']) {
      expect(readdirSync(join(dir, project)).sort()).toEqual(['dbform.lock.json', 'dbform.yaml']);
      expect(lockOf(join(dir, project, 'dbform.lock.json')).project_id).toBe(project);
      // No --lockfile: plan finds dbform.lock.json beside the config (SPEC section 2).
      const plan = await runCli(['plan', '--detailed-exitcode', '-f', join(dir, project, 'dbform.yaml')], { env: oauth });
      expect(plan.code, plan.stderr + plan.stdout).toBe(0);
      expect(plan.stdout).toBe(`Project ${project}, workspace default, state: ${join(dir, project, 'dbform.lock.json')}\n${plan.stdout.split('\n')[1]}\n`);
      expect(plan.stdout.split('\n')[1]).toMatch(/^No changes\./);
    }
    // A second export over the same directory finds its files unchanged.
    const again = await runCli(['export', '--all-projects', '-o', dir], { env: oauth });
    expect(again.code, again.stderr).toBe(0);
  });

  it('creates the directories of -o and --lockfile', async () => {
    const dir = tmp();
    const r = await runCli(['export', '-o', join(dir, 'a', 'b', 'dbform.yaml'), '--lockfile', join(dir, 'c', 'd.lock.json')], { env });
    expect(r.code, r.stderr).toBe(0);
    expect(readFileSync(join(dir, 'a', 'b', 'dbform.yaml'), 'utf8')).toContain('  billing:\n');
    expect(lockOf(join(dir, 'c', 'd.lock.json')).project_id).toBe('proj-demo');
    expect(r.stderr).toMatch(/^Exported 5 VPCs, 4 peerings, 2 services and 1 replica set of project proj-demo to /m);
  });

  it('prints the YAML on stdout with --lockfile PATH', async () => {
    const dir = tmp();
    const r = await runCli(['export', '--lockfile', join(dir, 'my.lock.json')], { env, cwd: dir });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^# yaml-language-server: \$schema=/);
    expect(r.stdout).toContain('\n  billing:\n');
    expect(Object.keys(lockOf(join(dir, 'my.lock.json')).resources)).toContain('service.billing');
    writeFileSync(join(dir, 'dbform.yaml'), r.stdout);
    const plan = await runCli(['plan', '--detailed-exitcode', '-f', join(dir, 'dbform.yaml'), '--lockfile', join(dir, 'my.lock.json')], { env });
    expect(plan.code, plan.stderr).toBe(0);
  });
});

describe('dbform export: existing files', () => {
  it('refuses to overwrite a YAML file that differs, unless --force', async () => {
    const dir = tmp();
    const yaml = join(dir, 'dbform.yaml');
    writeFileSync(yaml, 'hand: written\n');
    const r = await runCli(['export', '-o', yaml], { env });
    expect(r.stderr).toBe(`error: ${yaml} already exists and differs from this export; pass --force to overwrite it, or -o another file\n`);
    expect(r.code).toBe(1);
    expect(readFileSync(yaml, 'utf8')).toBe('hand: written\n');
    expect(existsSync(join(dir, 'dbform.lock.json'))).toBe(false);
    const forced = await runCli(['export', '-o', yaml, '--force'], { env });
    expect(forced.code, forced.stderr).toBe(0);
    expect(readFileSync(yaml, 'utf8')).toContain('  billing:\n');
  });

  it('keeps the keys of an existing lockfile and refuses to drop its other bindings, unless --force', async () => {
    const dir = tmp();
    const first = await runCli(['export', '-o', join(dir, 'dbform.yaml')], { env });
    expect(first.code, first.stderr).toBe(0);
    const lockPath = join(dir, 'dbform.lock.json');
    const lock = lockOf(lockPath);
    const billing = lock.resources['service.billing'];
    const rs = lock.resources['replica_set.billing.reporting'];
    delete lock.resources['service.billing'];
    delete lock.resources['replica_set.billing.reporting'];
    lock.resources['service.payments'] = { ...billing, password_version: 2 };
    lock.resources['replica_set.payments.reports'] = rs;
    lock.resources['service.retired'] = { id: 'zzzzzzzzzz', protect: true };
    writeFileSync(lockPath, JSON.stringify(lock));
    const refused = await runCli(['export', '-o', join(dir, 'renamed.yaml')], { env });
    expect(refused.stderr).toBe(
      `error: ${lockPath} already binds a resource that this export would drop or rebind:\n  service.retired (zzzzzzzzzz): not in this export\n` +
        'pass --force to overwrite the lockfile (those bindings are lost), or --lockfile PATH to write another file\n',
    );
    expect(refused.code).toBe(1);
    expect(existsSync(join(dir, 'renamed.yaml'))).toBe(false);
    const forced = await runCli(['export', '-o', join(dir, 'renamed.yaml'), '--force'], { env });
    expect(forced.code, forced.stderr).toBe(0);
    expect(forced.stderr).toContain(`note: --force: dropping 1 binding(s) from ${lockPath}:\n  service.retired (zzzzzzzzzz): not in this export\n`);
    const yaml = readFileSync(join(dir, 'renamed.yaml'), 'utf8');
    expect(yaml).toContain('  payments:\n    name: billing\n');
    expect(yaml).toContain('      reports:\n        name: reporting\n');
    const after = lockOf(lockPath);
    expect(after.resources['service.payments']).toEqual({ ...billing, password_version: 2 });
    expect(after.resources['service.retired']).toBeUndefined();
    const plan = await runCli(['plan', '--detailed-exitcode', '-f', join(dir, 'renamed.yaml')], { env });
    expect(plan.code, plan.stderr + plan.stdout).toBe(0);
  });

  it('refuses a lockfile of another project, unless --force', async () => {
    const dir = tmp();
    writeFileSync(join(dir, 'dbform.lock.json'), JSON.stringify({ version: 1, project_id: 'proj-other', resources: {} }));
    const r = await runCli(['export', '-o', join(dir, 'dbform.yaml')], { env });
    expect(r.stderr).toBe(`error: ${join(dir, 'dbform.lock.json')} is the lockfile of project "proj-other", not "proj-demo"; pass --force to replace it, or --lockfile PATH to write another file\n`);
    expect(r.code).toBe(1);
    const forced = await runCli(['export', '-o', join(dir, 'dbform.yaml'), '--force'], { env });
    expect(forced.code, forced.stderr).toBe(0);
    expect(lockOf(join(dir, 'dbform.lock.json')).project_id).toBe('proj-demo');
  });
});

describe('dbform export --emulator', () => {
  it("never adds live resources to another config's lockfile: refused in one line unless --force", async () => {
    // A hand-written config that manages one of the project's services, applied here.
    const dir = tmp();
    writeFileSync(join(dir, 'dbform.yaml'), `version: 1\nproject_id: ${P}\nservices:\n  search:\n    cpu_millis: shared\n    memory_gbs: shared\n    environment: PROD\n`);
    const applied = await runCli(['apply', '--auto-approve', '--pgpass', join(dir, 'pgpass')], { env, cwd: dir });
    expect(applied.code, applied.stderr).toBe(0);
    const lockPath = join(dir, 'dbform.lock.json');
    const lockText = readFileSync(lockPath, 'utf8');
    expect(Object.keys(lockOf(lockPath).resources)).toEqual(['service.search']);
    const refused = await runCli(['export', '-o', 'everything.yaml'], { env, cwd: dir });
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(
      /^error: dbform\.lock\.json already exists and this export would add \d+ bindings to it; export does not add live resources to an existing lockfile, which may be another config's: pass --force to write it anyway, or --lockfile PATH \(or -o in another directory\) for a new one\n$/,
    );
    expect(readFileSync(lockPath, 'utf8')).toBe(lockText);
    expect(existsSync(join(dir, 'everything.yaml'))).toBe(false);
    // The config that owns the lockfile still plans nothing: no other team's resource to delete.
    const plan = await runCli(['plan', '--detailed-exitcode'], { env, cwd: dir });
    expect(plan.code, plan.stdout + plan.stderr).toBe(0);
    const forced = await runCli(['export', '-o', 'everything.yaml', '--force'], { env, cwd: dir });
    expect(forced.code, forced.stderr).toBe(0);
    expect(forced.stderr).toMatch(new RegExp(`note: --force: adding \\d+ bindings to dbform\\.lock\\.json\n`));
    const after = lockOf(lockPath);
    expect(Object.keys(after.resources).length).toBeGreaterThan(1);
    expect(after.resources['service.search']).toEqual(JSON.parse(lockText).resources['service.search']);
    expect(after.lineage).toBe(JSON.parse(lockText).lineage);
    expect(after.serial).toBe(JSON.parse(lockText).serial + 1);
    // The export's own lockfile, exported again unchanged: accepted without --force, not rewritten.
    const again = await runCli(['export', '-o', 'everything.yaml'], { env, cwd: dir });
    expect(again.code, again.stderr).toBe(0);
    expect(lockOf(lockPath)).toEqual(after);
  });

  it('reads the emulator world of the current directory (wherever -o points), and plan --emulator on the result shows no changes', async () => {
    const dir = tmp();
    const local = await startEmulator({ host: '127.0.0.1', port: 0, timeScale: 0, stateFile: join(dir, '.dbform', 'emulator-state.json') });
    const c = new ApiClient({ baseUrl: local.url, token: 'demo-pat' });
    await buildWorld(c, [{ name: 'local-db', size: [1000, 4], pooler: true, vpc: 'edge', region: 'eu-central-1' }]);
    await c.close();
    await local.close();
    const isolated = { DBFORM_EMULATOR_TIME_SCALE: '0' };
    // From elsewhere, the current directory's (empty) world is exported: nothing of local-db.
    const elsewhere = tmp();
    const other = await runCli(['export', '--emulator', '-o', join(elsewhere, 'out.yaml')], { env: isolated, cwd: elsewhere });
    expect(other.code, other.stderr).toBe(0);
    expect(readFileSync(join(elsewhere, 'out.yaml'), 'utf8')).not.toContain('local-db');
    const r = await runCli(['export', '--emulator', '-o', join('sub', 'dbform.yaml')], { env: isolated, cwd: dir });
    expect(r.code, r.stderr).toBe(0);
    expect(readFileSync(join(dir, 'sub', 'dbform.yaml'), 'utf8')).toContain('  local-db:\n');
    // Planned from the same directory, the exported file below it sees that same world.
    const below = await runCli(['plan', '--emulator', '--detailed-exitcode', '-f', join('sub', 'dbform.yaml')], { env: isolated, cwd: dir });
    expect(below.code, below.stderr + below.stdout).toBe(0);
    expect(existsSync(join(dir, 'sub', '.dbform'))).toBe(false);
    const again = await runCli(['export', '--emulator', '-o', 'dbform.yaml'], { env: isolated, cwd: dir });
    expect(again.code, again.stderr).toBe(0);
    const plan = await runCli(['plan', '--emulator', '--detailed-exitcode', '-f', join(dir, 'dbform.yaml')], { env: isolated });
    expect(plan.code, plan.stderr + plan.stdout).toBe(0);
    expect(plan.stdout).toContain('No changes.');
    const lockPath = join(dir, 'dbform.lock.json');
    const lock = JSON.parse(readFileSync(lockPath, 'utf8'));
    const id = lock.resources['service.local-db'].id;
    delete lock.resources['service.local-db'];
    writeFileSync(lockPath, JSON.stringify(lock));
    const imported = await runCli(['import', 'service.local-db', id, '--emulator', '-f', join(dir, 'dbform.yaml')], { env: isolated });
    expect(imported.code, imported.stderr).toBe(0);
    expect(JSON.parse(readFileSync(lockPath, 'utf8')).resources['service.local-db']).toEqual({ id });
  });
});

describe('dbform export of resources mid-deletion or failed', () => {
  it('skips a DELETING service and a deleting replica set, exports a failed replica set and says the plan replaces it', async () => {
    let now = Date.parse('2026-03-01T12:00:00Z');
    const timed = await startEmulator({ host: '127.0.0.1', port: 0, timeScale: 1, now: () => now });
    const c = new ApiClient({ baseUrl: timed.url, token: 'demo-pat' });
    const timedEnv = { DBFORM_API_URL: timed.url, DBFORM_API_KEY: 'demo-pat' };
    try {
      const doomed = await c.createService(P, { name: 'doomed' });
      const kept = await c.createService(P, { name: 'kept' });
      now += 10_000;
      const going = await c.createReplicaSet(P, kept.service_id, { name: 'going', cpu_millis: 500, memory_gbs: 2, nodes: 1 });
      const broken = await c.createReplicaSet(P, kept.service_id, { name: 'broken', cpu_millis: 500, memory_gbs: 2, nodes: 1 });
      now += 10_000;
      await c.listServices(P);
      await c.deleteReplicaSet(P, kept.service_id, going.id);
      await c.deleteService(P, doomed.service_id);
      await fetch(`${timed.origin}/__emulator/replica-sets/${broken.id}/fail`, { method: 'POST' });
      const dir = tmp();
      const r = await runCli(['export', '-o', join(dir, 'dbform.yaml')], { env: timedEnv });
      expect(r.code, r.stderr).toBe(0);
      expect(r.stderr).toContain(`note: not exported: service "doomed" (${doomed.service_id}): it is DELETING\n`);
      expect(r.stderr).toContain(`note: not exported: replica set "going" (${going.id}) of service.kept: it is deleting\n`);
      expect(r.stderr).toContain('note: the next plan will not be empty: replica_set.kept.broken deleteReplicaSet (failed)\n');
      const yaml = readFileSync(join(dir, 'dbform.yaml'), 'utf8');
      expect(yaml).toContain(`#   - service "doomed" (${doomed.service_id}): it is DELETING\n`);
      expect(yaml).toContain('      broken:\n        # status error: a plan replaces this replica set (delete + create)\n');
      expect(yaml).not.toContain('  doomed:');
      expect(yaml).not.toContain('going:');
    } finally {
      await c.close();
      await timed.close();
    }
  });
});
