// Forks end to end (issue 12): a parent named by the ID the lockfile binds is woken, forked and
// put back to sleep like the key form; an unmanaged paused parent and an impossible PITR time are
// plan errors, before anything is sent.
import { afterEach, describe, expect, it } from 'vitest';
import { startEmulator } from '../../../src/emulator/index.js';
import { nextPlan, readLock, runCli, workspace } from './cli-harness.js';
import { writeFileSync } from 'node:fs';

let emulator: Awaited<ReturnType<typeof startEmulator>> | undefined;
afterEach(async () => {
  await emulator?.close();
  emulator = undefined;
});

const parentOnly = `version: 1
project_id: proj-demo
services:
  db:
    paused: true
`;

const mutating = (stats: { requests: Record<string, number> }) => Object.entries(stats.requests).filter(([k]) => !k.startsWith('GET'));

describe('fork.from { service_id }', () => {
  it('of a paused service the lockfile binds: start, fork, stop, as with the key form; the next plan is empty', async () => {
    emulator = await startEmulator({ timeScale: 0.02 });
    const ws = workspace(parentOnly, emulator.url);
    expect((await runCli(ws, ['apply', '--auto-approve'])).code).toBe(0);
    const id = JSON.parse(readLock(ws)).resources['service.db'].id as string;
    writeFileSync(ws.config, `${parentOnly}  preview:\n    fork:\n      from: { service_id: "${id}" }\n      strategy: LAST_SNAPSHOT\n`);

    const shown = await runCli(ws, ['plan', '--json']);
    expect(shown.stderr).toBe('');
    const plan = JSON.parse(shown.stdout);
    expect(plan.actions.map((a: { address: string; op: string }) => `${a.address} ${a.op}`)).toEqual(['service.db startService', 'service.preview forkService', 'service.db stopService']);
    expect(plan.actions[1].refs.fork_parent).toEqual({ address: 'service.db', id });

    const run = await runCli(ws, ['apply', '--auto-approve']);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('Apply complete: 1 created, 1 updated, 0 deleted, 0 replaced.');
    expect(run.stdout).toContain('Actions: 3 done, 0 failed');
    const after = await nextPlan(ws, emulator.url);
    expect(after.plan.actions).toEqual([]);
    expect(after.live.services.find((s) => s.id === id)?.status).toBe('PAUSED');
    const fork = after.live.services.find((s) => s.name === 'preview');
    expect(fork?.forkedFrom?.serviceId).toBe(id);
    expect(after.lock.resources['service.preview']?.id).toBe(fork?.id);
  });

  it('of a paused service dbform does not manage is a plan error, and apply sends nothing', async () => {
    emulator = await startEmulator({ timeScale: 0.02 });
    const other = workspace(parentOnly.replace('  db:', '  stranger:'), emulator.url);
    expect((await runCli(other, ['apply', '--auto-approve'])).code).toBe(0);
    const id = JSON.parse(readLock(other)).resources['service.stranger'].id as string;
    const ws = workspace(`version: 1\nproject_id: proj-demo\nservices:\n  preview:\n    fork:\n      from: { service_id: "${id}" }\n      strategy: NOW\n`, emulator.url);
    emulator.resetStats();
    const run = await runCli(ws, ['apply', '--auto-approve']);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain(`dbform.yaml:4:3: fork.from: { service_id: "${id}" } is PAUSED, and forkService needs its parent READY; dbform does not manage that service`);
    expect(mutating(emulator.stats())).toEqual([]);
  });
});

describe('fork.target_time (PITR)', () => {
  it('before the parent was created, or in the future, fails plan with both times named', async () => {
    emulator = await startEmulator({ timeScale: 0.02 });
    const config = `version: 1\nproject_id: proj-demo\nservices:\n  db: {}\n`;
    const ws = workspace(config, emulator.url);
    expect((await runCli(ws, ['apply', '--auto-approve'])).code).toBe(0);
    const created = (await nextPlan(ws, emulator.url)).live.services[0]!.created;
    const withFork = (t: string) => `${config}  preview:\n    fork:\n      from: db\n      strategy: PITR\n      target_time: ${t}\n`;

    writeFileSync(ws.config, withFork('2020-01-01T00:00:00Z'));
    const early = await runCli(ws, ['plan']);
    expect(early.code).toBe(1);
    expect(early.stderr).toContain(`fork.target_time 2020-01-01T00:00:00Z of service.preview is before its parent service.db (`);
    expect(early.stderr).toContain(`was created (${created})`);

    writeFileSync(ws.config, withFork('2999-01-01T00:00:00Z'));
    const late = await runCli(ws, ['plan']);
    expect(late.code).toBe(1);
    expect(late.stderr).toMatch(/fork\.target_time 2999-01-01T00:00:00Z of service\.preview is not in the past \(now is \d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z\)/);
  });
});
