// SPEC section 15, peerings that await the peer: under manual acceptance a new peering stays
// PENDING with a provisioned_id until the peer account accepts it. Apply counts it as created and
// says what it awaits; a plan shows it awaiting (no action, not settling); a later apply does not
// wait for it; once accepted, a plan shows nothing left to do.
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import type { ApiClient } from '../../../src/api/client.js';
import { startEmulator, type EmulatorHandle } from '../../../src/emulator/index.js';
import { readLockfile } from '../../../src/lockfile/index.js';
import { testClient } from '../../support/dialect.js';
import { removeTempDirs } from '../../support/temp-dir.js';
import { runCli, workspace, type Workspace } from '../apply/cli-harness.js';
import { control, TIGER } from './helpers.js';

afterAll(removeTempDirs);

const PROJECT = 'proj-demo';
const ACCOUNT = '123456789012';
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
      - peer_account_id: "${ACCOUNT}"
        peer_region_code: us-east-1
        peer_vpc_id: vpc-peer
`;

async function planJson(ws: Workspace): Promise<Record<string, unknown>> {
  const r = await runCli(ws, ['plan', '--json', '--detailed-exitcode']);
  // Awaiting is no change: --detailed-exitcode says 0.
  expect(r.code, r.stdout + r.stderr).toBe(0);
  return JSON.parse(r.stdout) as Record<string, unknown>;
}

describe('a peering that awaits the peer account', () => {
  it('is created and awaiting, shown as such by plan, not waited for by a later apply, and accepted without a change', async () => {
    emulator = await startEmulator({ ...TIGER, peeringAcceptance: 'manual', timeScale: 0.05 });
    client = testClient(emulator.url);
    const ws = workspace(CONFIG, emulator.url);

    const apply = await runCli(ws, ['apply', '--auto-approve']);
    expect(apply.stderr).toBe('');
    expect(apply.code).toBe(0);
    const lock = (await readLockfile(ws.lockfile, PROJECT)).resources;
    const [vpc, id] = [lock['vpc.main']!.id, lock['peering.main.vpc-peer']!.id];
    expect(apply.stdout).toMatch(new RegExp(`peering\\.main\\.vpc-peer createVPCPeering done \\(id ${id}, awaiting acceptance by account ${ACCOUNT}, `));
    expect(apply.stdout).toContain(`  + peering.main.vpc-peer (${id}; awaiting acceptance by account ${ACCOUNT})`);
    const [live] = await client.listVPCPeerings(PROJECT, vpc);
    expect(live).toMatchObject({ id, status: 'PENDING', provisioned_id: expect.stringMatching(/^pcx-/) });

    const text = await runCli(ws, ['plan']);
    expect(text.code).toBe(0);
    expect(text.stdout).toContain('Awaiting others: 1 resource is made and waits for something only others can do; apply does not wait for it:');
    expect(text.stdout).toContain(`  … peering.main.vpc-peer  PENDING: awaiting acceptance by account ${ACCOUNT}`);
    expect(text.stdout).toContain('No changes.');
    const pending = await planJson(ws);
    expect(pending.awaiting).toEqual([{ address: 'peering.main.vpc-peer', id, parent_id: vpc, status: 'PENDING', awaits: `acceptance by account ${ACCOUNT}` }]);
    expect(pending.actions).toEqual([]);
    expect(pending.settling).toBeUndefined();
    expect((pending.summary as Record<string, number>).settling).toBe(0);

    // Not settling: a later apply has nothing to wait for (--timeout far beyond the test's limit).
    const again = await runCli(ws, ['apply', '--auto-approve', '--timeout', '10m']);
    expect(again.code, again.stderr).toBe(0);
    expect(again.stdout).not.toMatch(/settle/);

    expect(await control(emulator.origin, `/__emulator/peerings/${id}/accept`)).toBe(204);
    const accepted = await planJson(ws);
    expect(accepted.awaiting).toBeUndefined();
    expect(accepted.actions).toEqual([]);
    expect(accepted.bindings).toEqual([]);
    const quiet = await runCli(ws, ['plan']);
    expect(quiet.stdout).not.toContain('Awaiting others');
    expect(quiet.stdout).toContain('No changes.');
    const [after] = await client.listVPCPeerings(PROJECT, vpc);
    expect(after).toMatchObject({ id, status: expect.stringMatching(/^(APPROVED|ACTIVE)$/) });
  });
});
