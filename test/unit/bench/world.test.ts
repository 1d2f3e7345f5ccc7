// The bench's generated worlds must be what BENCHMARKS.md says they are: the state file loads in
// the emulator, and the config plans against it (with the generated lockfile) to no change at all.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiClient } from '../../../src/api/client.js';
import { fetchLiveState } from '../../../src/api/live-state.js';
import { loadConfigInputs } from '../../../src/config/index.js';
import { startEmulator, type EmulatorHandle } from '../../../src/emulator/index.js';
import { parseLockfileJson } from '../../../src/model/lockfile.js';
import type { LiveState } from '../../../src/model/resources.js';
import { planChanges } from '../../../src/planner/index.js';
import { chainConfig, Fleet, oneFieldChange, vpcCountFor, worldConfig, worldLockfile, worldState } from '../../../bench/world.js';
import { removeTempDirs, tempDir } from '../../support/temp-dir.js';

afterAll(removeTempDirs);

const SERVICES = 30;
const options = { replace: [], target: [], allowDataLoss: false };

function desiredOf(yaml: string) {
  const loaded = loadConfigInputs([{ file: 'dbform.yaml', content: yaml }], { env: {} });
  if (!loaded.ok) throw new Error(loaded.errors.map((e) => e.message).join('; '));
  return loaded.value;
}

function lockOf(services: number) {
  const parsed = parseLockfileJson(worldLockfile(services));
  if (!parsed.ok) throw new Error(parsed.errors.join('; '));
  return parsed.value;
}

describe('generated plan worlds', () => {
  let emulator: EmulatorHandle;
  let live: LiveState;

  beforeAll(async () => {
    const dir = tempDir('dbform-bench-world-');
    const stateFile = join(dir, 'emulator-state.json');
    writeFileSync(stateFile, JSON.stringify(worldState(SERVICES)));
    emulator = await startEmulator({ port: 0, stateFile, timeScale: 0 });
    const client = new ApiClient({ baseUrl: emulator.url, token: 'demo-pat' });
    live = await fetchLiveState(client, 'proj-demo');
    await client.close();
  });
  afterAll(() => emulator.close());

  it('hold the sizes the tables report', () => {
    expect(vpcCountFor(10)).toBe(2);
    expect(vpcCountFor(100)).toBe(10);
    expect(vpcCountFor(1000)).toBe(20);
    expect(vpcCountFor(5000)).toBe(20);
    expect(live.services).toHaveLength(SERVICES);
    expect(live.services.flatMap((s) => s.replicaSets)).toHaveLength(2 * SERVICES);
    expect(live.vpcs).toHaveLength(vpcCountFor(SERVICES));
    expect(live.vpcs.every((v) => v.peerings?.length === 1 && v.peerings[0]!.status === 'active')).toBe(true);
  });

  it('plan to no change with the generated lockfile: no actions, no bindings, nothing unmanaged', () => {
    const plan = planChanges(desiredOf(worldConfig(SERVICES)), live, lockOf(SERVICES), options);
    expect(plan.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
    expect(plan.actions).toEqual([]);
    expect(plan.bindings).toEqual([]);
    expect(plan.summary.unmanaged).toBe(0);
  });

  it('plan exactly one setEnvironment for the one-field variant', () => {
    const plan = planChanges(desiredOf(oneFieldChange(worldConfig(SERVICES))), live, lockOf(SERVICES), options);
    expect(plan.actions.map((a) => [a.address, a.op])).toEqual([['service.svc-0', 'setEnvironment']]);
  });
});

describe('apply worlds', () => {
  it('Fleet moves exactly `count` services to a size none of them has', () => {
    const fleet = new Fleet(4);
    const sizesOf = (yaml: string) => desiredOf(yaml).services.map((s) => `${s.size?.cpuMillis}/${s.size?.memoryGbs}`);
    expect(sizesOf(fleet.config())).toEqual(['1000/4', '1000/4', '1000/4', '1000/4']);
    expect(sizesOf(fleet.resize(1))).toEqual(['2000/8', '1000/4', '1000/4', '1000/4']);
    expect(sizesOf(fleet.resize(4))).toEqual(['4000/16', '4000/16', '4000/16', '4000/16']);
    expect(sizesOf(fleet.resize(1))).toEqual(['1000/4', '4000/16', '4000/16', '4000/16']);
    expect(sizesOf(fleet.resize(4))).toEqual(['2000/8', '2000/8', '2000/8', '2000/8']);
  });

  it('chain configs are valid and grow as described', () => {
    const plain = desiredOf(chainConfig());
    expect(plain.services.map((s) => s.key)).toEqual(['chain-svc']);
    expect(plain.services[0]!.vpc).toBeUndefined();
    const deep = desiredOf(chainConfig({ attach: true, fork: true }));
    expect(deep.services.map((s) => s.key)).toEqual(['chain-svc', 'chain-fork']);
    expect(deep.services.every((s) => s.vpc !== undefined && s.replicaSets.length === 1)).toBe(true);
  });
});
