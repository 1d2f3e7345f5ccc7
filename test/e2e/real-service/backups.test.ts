// SPEC section 15, new parents need a backup (the tiger dialect: 30 s after a service first becomes
// READY, scaled by the time scale): a fork of it, or a replica set on it, is refused with 409
// "doesn't yet have any backups or snapshots available" until then. Apply says what it waits for
// and sends again, within --timeout.
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import type { ApiClient } from '../../../src/api/client.js';
import { startEmulator, type EmulatorHandle } from '../../../src/emulator/index.js';
import { readLockfile } from '../../../src/lockfile/index.js';
import { EmulatorClock } from '../../support/emulator-clock.js';
import { testClient } from '../../support/dialect.js';
import { removeTempDirs } from '../../support/temp-dir.js';
import { spawnCli, workspace } from '../apply/cli-harness.js';
import { TIGER } from './helpers.js';

afterAll(removeTempDirs);

const PROJECT = 'proj-demo';
const CREATE = 'POST /projects/{project_id}/services';
const FORK = 'POST /projects/{project_id}/services/{service_id}/forkService';
const CREATE_RS = 'POST /projects/{project_id}/services/{service_id}/replicaSets';

let emulator: EmulatorHandle | undefined;
let client: ApiClient | undefined;
afterEach(async () => {
  await client?.close();
  await emulator?.close();
  emulator = client = undefined;
});

const CONFIG = `version: 1
project_id: proj-demo
services:
  db:
    region_code: us-east-1
    replica_sets:
      r:
        cpu_millis: 500
        memory_gbs: 2
        nodes: 1
  copy:
    fork:
      from: db
      strategy: NOW
`;

/** Until `done`, or until the command ended without it (its result then says why). */
async function until(done: () => boolean, command: { child: { exitCode: number | null } }): Promise<void> {
  while (!done() && command.child.exitCode === null) await new Promise((r) => setTimeout(r, 10));
}

describe('a fork and a replica set right after their parent is created', () => {
  it('wait for the parent\'s first backup, saying so, and succeed', async () => {
    // The emulator's clock stands while the test steers: db becomes READY, both creates are refused
    // for want of a backup, then time runs (at time scale 0.05: the backup is due 1.5 s after READY).
    const clock = new EmulatorClock();
    clock.freeze();
    emulator = await startEmulator({ ...TIGER, timeScale: 0.05, now: clock.now });
    client = testClient(emulator.url);
    const ws = workspace(CONFIG, emulator.url);
    const apply = spawnCli(ws, ['apply', '--auto-approve']);
    const count = (key: string) => emulator!.stats().requests[key] ?? 0;
    await until(() => count(CREATE) >= 1, apply);
    clock.advance(1_000);
    await until(() => count(FORK) >= 1 && count(CREATE_RS) >= 1, apply);
    clock.thaw();
    clock.advance(2_000);
    const run = await apply.done;
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/service\.copy forkService waiting for the first backup of service\.db\n/);
    expect(run.stdout).toMatch(/replica_set\.db\.r createReplicaSet waiting for the first backup of service\.db\n/);
    expect(count(FORK)).toBeGreaterThanOrEqual(2);
    expect(count(CREATE_RS)).toBeGreaterThanOrEqual(2);
    const lock = (await readLockfile(ws.lockfile, PROJECT)).resources;
    const services = await client.listServices(PROJECT);
    const copy = services.find((s) => s.service_id === lock['service.copy']!.id);
    expect(copy?.forked_from?.service_id).toBe(lock['service.db']!.id);
    const sets = await client.listReplicaSets(PROJECT, lock['service.db']!.id);
    expect(sets.map((r) => [r.id, r.status])).toEqual([[lock['replica_set.db.r']!.id, 'active']]);
  });
});
