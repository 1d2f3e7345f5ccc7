// `dbform destroy`: everything the lockfile binds, deleted in reverse dependency order.
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import type { ApiClient } from '../../../src/api/client.js';
import type { EmulatorHandle } from '../../../src/emulator/index.js';
import { itDialectBlind, startTestEmulator, testClient } from '../../support/dialect.js';
import { runCli, workspace } from './cli-harness.js';
import { removeTempDirs } from '../../support/temp-dir.js';

afterAll(removeTempDirs);

let emulator: EmulatorHandle | undefined;
let client: ApiClient | undefined;
afterEach(async () => {
  await client?.close();
  await emulator?.close();
  emulator = undefined;
  client = undefined;
});

const config = (protect: boolean) => `version: 1
project_id: proj-demo
vpcs:
  main:
    cidr: 10.0.0.0/16
    region_code: us-east-1
    peerings:
      - peer_account_id: "123456789012"
        peer_region_code: us-east-1
        peer_vpc_id: vpc-peer
services:
  db:
    region_code: us-east-1
    cpu_millis: 500
    memory_gbs: 2
    vpc: main
    protect: ${protect}
    replica_sets:
      r:
        cpu_millis: 500
        memory_gbs: 2
        nodes: 1
`;

async function setup(protect: boolean) {
  emulator = await startTestEmulator({ timeScale: 0.01 });
  client = testClient(emulator.url);
  const ws = workspace(config(protect), emulator.url);
  expect((await runCli(ws, ['apply', '--auto-approve'])).code).toBe(0);
  // An unmanaged service that destroy must leave alone.
  await client.createService('proj-demo', { name: 'not-ours' });
  return ws;
}

describe('dbform destroy', () => {
  it('deletes everything the lockfile binds, in reverse dependency order, and empties the lockfile', async () => {
    const ws = await setup(false);
    const run = await runCli(ws, ['destroy', '--auto-approve']);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    // Every resource is still in the config: the plan says why it goes.
    expect(run.stdout).toContain('  - vpc.main  (destroy requested; connectivity risk; deleteVPC)\n');
    expect(run.stdout).toContain('  - service.db  (destroy requested; data-loss risk; deleteService)\n');
    expect(run.stdout).not.toContain('no longer in the config');
    // Progress lines in order: "<time> <address> <op> started|done (...)".
    const events = [...run.stdout.matchAll(/^\S+ (\S+) (delete\w+) (started|done)/gm)].map((m) => `${m[2]} ${m[1]} ${m[3]}`);
    const at = (s: string) => events.indexOf(s);
    expect(events.filter((e) => e.endsWith('started'))).toHaveLength(4);
    expect(at('deleteReplicaSet replica_set.db.r done')).toBeLessThan(at('deleteService service.db started'));
    expect(at('deleteVPCPeering peering.main.vpc-peer done')).toBeLessThan(at('deleteVPC vpc.main started'));
    expect(at('deleteService service.db done')).toBeLessThan(at('deleteVPC vpc.main started'));
    expect(JSON.parse(readFileSync(ws.lockfile, 'utf8')).resources).toEqual({});
    expect((await client!.listServices('proj-demo')).map((s) => s.name)).toEqual(['not-ours']);
    expect(await client!.listVPCs('proj-demo')).toEqual([]);
    const again = await runCli(ws, ['destroy', '--auto-approve']);
    expect(again.code).toBe(0);
    expect(again.stdout).toContain('No changes.');
  });

  itDialectBlind('honours protect from the lockfile even once the config no longer says it: exit 3, nothing deleted', async () => {
    const ws = await setup(true);
    writeFileSync(ws.config, 'version: 1\nproject_id: proj-demo\n');
    const before = readFileSync(ws.lockfile, 'utf8');
    emulator!.resetStats();
    const run = await runCli(ws, ['destroy', '--auto-approve']);
    expect(run.code).toBe(3);
    expect(run.stderr).toMatch(/blocked.*service\.db/s);
    expect(run.stdout).toContain(
      'blocked: protected: service.db has protect: true in the state, so destroy does not delete it ' +
        '(to delete it: add it to the config with protect: false, run apply, then destroy)',
    );
    expect(readFileSync(ws.lockfile, 'utf8')).toBe(before);
    expect(Object.keys(emulator!.stats().requests).filter((k) => !k.startsWith('GET'))).toEqual([]);
  });

  itDialectBlind('a protected resource still in the config: the hint says to set protect: false, apply, then destroy', async () => {
    const ws = await setup(true);
    const run = await runCli(ws, ['destroy', '--auto-approve']);
    expect(run.code).toBe(3);
    expect(run.stdout).toContain('  - service.db  (destroy requested; data-loss risk; deleteService)\n');
    expect(run.stdout).toContain(
      'blocked: protected: service.db has protect: true in the config, so destroy does not delete it ' +
        '(to delete it: set protect: false on it in the config, run apply, then destroy)',
    );
    expect(run.stdout + run.stderr).not.toMatch(/put the block back|no longer in the config/);
    // Following the hint works.
    writeFileSync(ws.config, config(false));
    expect((await runCli(ws, ['apply', '--auto-approve'])).code).toBe(0);
    const after = await runCli(ws, ['destroy', '--auto-approve']);
    expect(after.code, after.stderr).toBe(0);
    expect((await client!.listServices('proj-demo')).map((s) => s.name)).toEqual(['not-ours']);
  });

  itDialectBlind('also honours protect written in the config but not applied yet', async () => {
    const ws = await setup(false);
    writeFileSync(ws.config, config(true));
    const run = await runCli(ws, ['destroy', '--auto-approve']);
    expect(run.code).toBe(3);
    expect(run.stderr).toContain(
      'service.db deleteService: protected: service.db has protect: true in the config, so destroy does not delete it ' +
        '(to delete it: set protect: false on it in the config, run apply, then destroy)',
    );
    expect((await client!.listServices('proj-demo')).map((s) => s.name).sort()).toEqual(['db', 'not-ours']);
  });

  it('refuses on a non-TTY without --auto-approve, and works from the lockfile when the config is gone', async () => {
    const ws = await setup(false);
    const refused = await runCli(ws, ['destroy']);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('refusing to destroy without confirmation');
    rmSync(ws.config);
    const run = await runCli(ws, ['destroy', '--auto-approve']);
    expect(run.code).toBe(0);
    expect(run.stderr).toMatch(/warning: the config could not be loaded; destroying what .*dbform\.lock\.json binds in project proj-demo/);
    expect(JSON.parse(readFileSync(ws.lockfile, 'utf8')).resources).toEqual({});
  });
});
