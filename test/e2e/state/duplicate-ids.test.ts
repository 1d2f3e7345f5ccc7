// One ID bound to two addresses in the lockfile (SPEC section 2): plan and apply stop with one
// error naming the ID and both addresses, and nothing changes (before, apply deleted the
// resource of one address as the "replacement" of the other).
import { readFileSync, writeFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmulator } from '../../../src/emulator/index.js';
import { runCli, workspace, type Workspace } from '../apply/cli-harness.js';

let emulator: Awaited<ReturnType<typeof startEmulator>>;
let ws: Workspace;
let lockText: string;

const config = `version: 1
project_id: proj-demo
vpcs:
  main:
    cidr: 10.0.0.0/16
    region_code: us-east-1
    peerings:
      - peer_account_id: "123456789012"
        peer_region_code: us-east-1
        peer_vpc_id: vpc-one
      - peer_account_id: "123456789012"
        peer_region_code: us-east-1
        peer_vpc_id: vpc-two
services:
  a:
    cpu_millis: 500
    memory_gbs: 2
    replica_sets:
      r1: { cpu_millis: 500, memory_gbs: 2, nodes: 1 }
      r2: { cpu_millis: 500, memory_gbs: 2, nodes: 1 }
  b:
    cpu_millis: 500
    memory_gbs: 2
`;

beforeAll(async () => {
  emulator = await startEmulator({ timeScale: 0.01 });
  ws = workspace(config, emulator.url);
  const run = await runCli(ws, ['apply', '--auto-approve']);
  expect(run.code, run.stderr).toBe(0);
  lockText = readFileSync(ws.lockfile, 'utf8');
});
afterAll(async () => {
  await emulator.close();
});

const mutating = () => Object.keys(emulator.stats().requests).filter((k) => !k.startsWith('GET'));

describe('duplicate IDs in the lockfile', () => {
  it.each([
    ['service', 'service.b', 'service.a', 'service', 'both service.a and service.b'],
    ['replica set', 'replica_set.a.r2', 'replica_set.a.r1', 'replica set', 'both replica_set.a.r1 and replica_set.a.r2'],
    ['peering', 'peering.main.vpc-two', 'peering.main.vpc-one', 'peering', 'both peering.main.vpc-one and peering.main.vpc-two'],
  ])('%s: plan and apply refuse, naming the ID and both addresses; nothing changes', async (_kind, address, copyOf, noun, both) => {
    const lock = JSON.parse(lockText);
    const id = lock.resources[copyOf].id as string;
    lock.resources[address].id = id;
    const edited = `${JSON.stringify(lock, null, 2)}\n`;
    writeFileSync(ws.lockfile, edited);
    try {
      const message =
        `error: the state binds ${noun} ID ${id} to ${both}; one resource can have one address only, so nothing is planned: ` +
        'remove the wrong binding with `dbform state rm ADDR` (bind an address to another resource with `dbform import ADDR ID`)\n';
      const plan = await runCli(ws, ['plan']);
      expect(plan.code).toBe(1);
      expect(plan.stderr).toBe(message);
      expect(plan.stdout).toBe('');
      emulator.resetStats();
      const apply = await runCli(ws, ['apply', '--auto-approve', '--allow-data-loss']);
      expect(apply.code).toBe(1);
      expect(apply.stderr).toBe(message);
      expect(apply.stderr).not.toMatch(/rename|replace/);
      expect(mutating()).toEqual([]);
      expect(readFileSync(ws.lockfile, 'utf8')).toBe(edited);
    } finally {
      writeFileSync(ws.lockfile, lockText);
    }
  });

  it('the untouched lockfile still plans no changes', async () => {
    const plan = await runCli(ws, ['plan', '--detailed-exitcode']);
    expect(plan.code, plan.stdout + plan.stderr).toBe(0);
  });
});
