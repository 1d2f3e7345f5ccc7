// A lockfile ID whose resource is gone while a resource of the desired name is live (SPEC
// section 2): one such resource is adopted with a drift warning, never duplicated by a create;
// two are the ambiguity that `dbform import` settles.
import { readFileSync, writeFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { ApiClient } from '../../../src/api/client.js';
import { startEmulator } from '../../../src/emulator/index.js';
import { runCli, workspace, type Workspace } from '../apply/cli-harness.js';

let emulator: Awaited<ReturnType<typeof startEmulator>> | undefined;
let client: ApiClient | undefined;
afterEach(async () => {
  await client?.close();
  await emulator?.close();
  emulator = undefined;
  client = undefined;
});

const config = `version: 1
project_id: proj-demo
services:
  db:
    cpu_millis: 500
    memory_gbs: 2
    replica_sets:
      r: { cpu_millis: 500, memory_gbs: 2, nodes: 1 }
`;

/** Applied, then the lockfile's IDs replaced by ones that never existed (an old copy, say). */
async function staleWorkspace(): Promise<{ ws: Workspace; liveId: string; rsId: string }> {
  emulator = await startEmulator({ timeScale: 0.01 });
  client = new ApiClient({ baseUrl: emulator.url, token: 'demo-pat' });
  const ws = workspace(config, emulator.url);
  const applied = await runCli(ws, ['apply', '--auto-approve']);
  expect(applied.code, applied.stderr).toBe(0);
  const lock = JSON.parse(readFileSync(ws.lockfile, 'utf8'));
  const liveId = lock.resources['service.db'].id as string;
  const rsId = lock.resources['replica_set.db.r'].id as string;
  lock.resources['service.db'] = { id: 'gonegone01', protect: true };
  lock.resources['replica_set.db.r'] = { id: 'gonegone02' };
  writeFileSync(ws.lockfile, `${JSON.stringify(lock, null, 2)}\n`);
  return { ws, liveId, rsId };
}

const mutating = () => Object.keys(emulator!.stats().requests).filter((k) => !k.startsWith('GET'));
const serviceNames = async () => (await client!.listServices('proj-demo')).map((s) => s.name).sort();

describe('stale lockfile IDs', () => {
  it('one live resource of the name: plan shows adopt with a drift warning; apply binds it and creates nothing', async () => {
    const { ws, liveId, rsId } = await staleWorkspace();
    const plan = await runCli(ws, ['plan']);
    expect(plan.code, plan.stderr).toBe(0);
    expect(plan.stdout).toContain(`<= service.db  (adopt existing ${liveId}, protected)`);
    expect(plan.stdout).toContain(`<= replica_set.db.r  (adopt existing ${rsId})`);
    expect(plan.stdout).toContain(
      `Warning: dbform.yaml:4:3: drift: its ID in the state, gonegone01, no longer exists; the live service ${liveId} has the name "db" and no address binds it, so it is adopted instead of creating another`,
    );
    expect(plan.stdout).not.toContain('createService');
    emulator!.resetStats();
    const apply = await runCli(ws, ['apply', '--auto-approve']);
    expect(apply.code, apply.stderr).toBe(0);
    expect(mutating()).toEqual([]);
    const lock = JSON.parse(readFileSync(ws.lockfile, 'utf8'));
    // Bound, with the managed fields recorded as this apply left them (SPEC section 11).
    expect(lock.resources['service.db']).toEqual({ id: liveId, protect: true, applied: { name: 'db', size: { cpu_millis: 500, memory_gbs: 2 } } });
    expect(lock.resources['replica_set.db.r']).toEqual({ id: rsId, applied: { name: 'r', nodes: 1, size: { cpu_millis: 500, memory_gbs: 2 } } });
    expect(await serviceNames()).toEqual(['db']);
    expect((await runCli(ws, ['plan', '--detailed-exitcode'])).code).toBe(0);
  });

  it('two live resources of the name: the import error; apply changes nothing', async () => {
    const { ws, liveId } = await staleWorkspace();
    const other = await client!.createService('proj-demo', { name: 'db' });
    const ids = [liveId, String(other.service_id)].sort();
    const lockBefore = readFileSync(ws.lockfile, 'utf8');
    const plan = await runCli(ws, ['plan']);
    expect(plan.code).toBe(1);
    expect(plan.stderr).toContain(
      `its ID in the state, gonegone01, no longer exists, and 2 live services have the name "db" (${ids.join(', ')}); choose one with \`dbform import service.db <ID>\``,
    );
    emulator!.resetStats();
    const apply = await runCli(ws, ['apply', '--auto-approve']);
    expect(apply.code).toBe(1);
    expect(mutating()).toEqual([]);
    expect(readFileSync(ws.lockfile, 'utf8')).toBe(lockBefore);
    expect(await serviceNames()).toEqual(['db', 'db']);
  });
});
