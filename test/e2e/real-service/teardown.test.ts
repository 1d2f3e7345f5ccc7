// SPEC section 15, eventually consistent teardown (the tiger dialect's default): a deleted peering
// is listed as DELETING for a while, and its VPC's delete is refused (409 "already being updated")
// until it is gone. dbform waits that out within --timeout, saying what it waits for, and a second
// delete of a peering already being deleted is success.
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import type { ApiClient } from '../../../src/api/client.js';
import { startEmulator, type EmulatorHandle } from '../../../src/emulator/index.js';
import { readLockfile } from '../../../src/lockfile/index.js';
import { EmulatorClock } from '../../support/emulator-clock.js';
import { testClient } from '../../support/dialect.js';
import { removeTempDirs } from '../../support/temp-dir.js';
import { runCli, spawnCli, workspace } from '../apply/cli-harness.js';
import { TIGER } from './helpers.js';

afterAll(removeTempDirs);

const PROJECT = 'proj-demo';
const DELETE_VPC = 'DELETE /projects/{project_id}/vpcs/{vpc_id}';
const DELETE_PEERING = 'DELETE /projects/{project_id}/vpcs/{vpc_id}/peerings/{peering_id}';
const LIST_PEERINGS = 'GET /projects/{project_id}/vpcs/{vpc_id}/peerings';

let emulator: EmulatorHandle | undefined;
let client: ApiClient | undefined;
afterEach(async () => {
  await client?.close();
  await emulator?.close();
  emulator = client = undefined;
});

const CONFIG = `version: 1
project_id: proj-demo
vpcs:
  main:
    cidr: 10.0.0.0/16
    region_code: us-east-1
    peerings:
      - peer_account_id: "123456789012"
        peer_region_code: us-east-1
        peer_vpc_id: vpc-peer
`;

/** Until `done`, or until the command ended without it (its result then says why). */
async function until(done: () => boolean, command: { child: { exitCode: number | null } }): Promise<void> {
  while (!done() && command.child.exitCode === null) await new Promise((r) => setTimeout(r, 10));
}

describe('teardown that takes its time', () => {
  it('destroy of a VPC whose peering is still being deleted waits for it, says so, and succeeds', async () => {
    const clock = new EmulatorClock();
    emulator = await startEmulator({ ...TIGER, timeScale: 0.05, now: clock.now });
    client = testClient(emulator.url);
    const ws = workspace(CONFIG, emulator.url);
    expect((await runCli(ws, ['apply', '--auto-approve'])).code).toBe(0);
    const lock = await readLockfile(ws.lockfile, PROJECT);
    const vpc = lock.resources['vpc.main']!.id;
    const peering = lock.resources['peering.main.vpc-peer']!.id;
    // A colleague deleted the peering just now: it is DELETING while the clock stands.
    clock.freeze();
    await client.deleteVPCPeering(PROJECT, vpc, peering);
    expect((await client.listVPCPeerings(PROJECT, vpc)).map((p) => [p.id, p.status])).toEqual([[peering, 'DELETING']]);
    emulator.resetStats();
    const destroy = spawnCli(ws, ['destroy', '--auto-approve']);
    // Refused while the peering is torn down: the plan's read, the look after the refusal, then the
    // wait's first tick each list the VPC's peerings. Then its teardown ends.
    await until(() => (emulator!.stats().requests[DELETE_VPC] ?? 0) >= 1 && (emulator!.stats().requests[LIST_PEERINGS] ?? 0) >= 3, destroy);
    clock.thaw();
    clock.advance(10_000);
    const run = await destroy.done;
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(new RegExp(`vpc\\.main deleteVPC waiting for peering ${peering} to be removed`));
    // The peering was already going: destroy sent it no second delete.
    expect(emulator.stats().requests[DELETE_PEERING]).toBeUndefined();
    expect(emulator.stats().requests[DELETE_VPC]).toBeGreaterThanOrEqual(2);
    expect((await client.listVPCs(PROJECT)).map((v) => v.id)).not.toContain(vpc);
    expect((await readLockfile(ws.lockfile, PROJECT)).resources).toEqual({});
  });

  it('apply creates again a peering deleted out of band, once its teardown ends', async () => {
    const clock = new EmulatorClock();
    emulator = await startEmulator({ ...TIGER, timeScale: 0.05, now: clock.now });
    client = testClient(emulator.url);
    const ws = workspace(CONFIG, emulator.url);
    expect((await runCli(ws, ['apply', '--auto-approve'])).code).toBe(0);
    const lock = await readLockfile(ws.lockfile, PROJECT);
    const vpc = lock.resources['vpc.main']!.id;
    const old = lock.resources['peering.main.vpc-peer']!.id;
    clock.freeze();
    await client.deleteVPCPeering(PROJECT, vpc, old);
    emulator.resetStats();
    const apply = spawnCli(ws, ['apply', '--auto-approve']);
    // The create is refused while the old peering to the same peer VPC is torn down.
    // (the plan's read, the search for a peering the create made, the look for one being torn down
    // and the wait's first tick each list the peerings)
    await until(() => (emulator!.stats().requests['POST /projects/{project_id}/vpcs/{vpc_id}/peerings'] ?? 0) >= 1 && (emulator!.stats().requests[LIST_PEERINGS] ?? 0) >= 4, apply);
    clock.thaw();
    clock.advance(10_000);
    const run = await apply.done;
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(run.stdout).toContain(`waiting for the deleted peering ${old} to vpc-peer to be removed`);
    const now = (await readLockfile(ws.lockfile, PROJECT)).resources['peering.main.vpc-peer']!.id;
    expect(now).not.toBe(old);
    // APPROVED and ACTIVE are both done (SPEC section 12); which one shows depends on the clock.
    expect((await client.listVPCPeerings(PROJECT, vpc)).map((p) => [p.id, p.status])).toEqual([[now, expect.stringMatching(/^(APPROVED|ACTIVE)$/)]]);
  });

  it('a delete of a peering whose answer was lost is sent again, refused as already deleting, and is a success', async () => {
    const clock = new EmulatorClock();
    emulator = await startEmulator({ ...TIGER, timeScale: 0.05, now: clock.now, faultRate: 0, throttleRate: 0, lostResponseRate: 0 });
    const setup = testClient(emulator.url);
    const vpc = String((await setup.createVPC(PROJECT, { name: 'main', cidr: '10.0.0.0/16', region_code: 'us-east-1' })).id);
    clock.advance(10_000);
    const peering = String((await setup.createVPCPeering(PROJECT, vpc, { peer_account_id: '123456789012', peer_region_code: 'us-east-1', peer_vpc_id: 'vpc-peer' })).id);
    clock.advance(10_000);
    await setup.close();
    clock.freeze();
    const lines: string[] = [];
    // The first attempt's answer is lost; every later one gets through.
    client = testClient(emulator.url, {
      retry: { baseDelayMs: 1, maxDelayMs: 5 },
      logger: (line) => {
        lines.push(line);
        if (lines.length === 1) emulator!.setFaults({ lostResponseRate: 0 });
      },
    });
    emulator.resetStats();
    emulator.setFaults({ lostResponseRate: 1 });
    await expect(client.deleteVPCPeering(PROJECT, vpc, peering)).resolves.toBeUndefined();
    expect(emulator.stats().requests[DELETE_PEERING]).toBe(2);
    expect(lines.some((l) => /deleteVPCPeering: the repeat was refused \(409\) but the resource shows the first attempt took effect/.test(l))).toBe(true);
    expect((await client.listVPCPeerings(PROJECT, vpc)).map((p) => p.status)).toEqual(['DELETING']);
  });
});
