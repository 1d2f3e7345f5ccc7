// One apply at a time per lockfile, stale locks, --force-unlock, and Ctrl-C (SIGINT).
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { hostname } from 'node:os';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { startEmulator } from '../../../src/emulator/index.js';
import { duplicates, nextPlan, runCli, spawnCli, unboundIds, workspace, type Workspace } from './cli-harness.js';
import { EmulatorClock } from '../../support/emulator-clock.js';
import { removeTempDirs } from '../../support/temp-dir.js';

afterAll(removeTempDirs);

let emulator: Awaited<ReturnType<typeof startEmulator>> | undefined;
afterEach(async () => {
  await emulator?.close();
  emulator = undefined;
});

const config = (n: number) =>
  `version: 1\nproject_id: proj-demo\nservices:\n${Array.from({ length: n }, (_, i) => `  s${i}:\n    cpu_millis: 500\n    memory_gbs: 2\n    replica_sets:\n      r:\n        cpu_millis: 500\n        memory_gbs: 2\n        nodes: 1\n`).join('')}`;

// The emulator's clock: stopped, an apply that waits for a transition cannot finish.
let clock = new EmulatorClock();

async function setup(timeScale: number, n = 3, latencyMs = 0): Promise<Workspace> {
  clock = new EmulatorClock();
  emulator = await startEmulator({ timeScale, latencyMs, now: clock.now });
  return workspace(config(n), emulator.url);
}

const lockPathOf = (ws: Workspace) => `${ws.lockfile}.lock`;

async function until(check: () => boolean, what: string, ms = 10_000): Promise<void> {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

const deadPid = () => Number(spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' }).stdout);

describe('the apply lock', () => {
  it('makes a second concurrent apply exit 1 naming the holder and --force-unlock', async () => {
    const ws = await setup(0.01);
    // Until the second apply is done, the first cannot finish its waits, so it holds the lock.
    clock.freeze();
    const first = spawnCli(ws, ['apply', '--auto-approve']);
    await until(() => existsSync(lockPathOf(ws)), 'the first apply to take the lock');
    const holder = JSON.parse(readFileSync(lockPathOf(ws), 'utf8'));
    expect(holder).toMatchObject({ pid: first.child.pid, host: hostname(), command: 'dbform apply' });
    const second = await runCli(ws, ['apply', '--auto-approve']);
    expect(second.code).toBe(1);
    expect(second.stderr).toContain(`pid ${first.child.pid} on ${hostname()}`);
    expect(second.stderr).toContain(`started ${holder.started_at}`);
    expect(second.stderr).toContain('--force-unlock');
    clock.thaw();
    const done = await first.done;
    expect(done.code).toBe(0);
    expect(existsSync(lockPathOf(ws))).toBe(false);
  });

  it('takes over the stale lock of a dead local process with a notice', async () => {
    const ws = await setup(0.01, 1);
    writeFileSync(lockPathOf(ws), JSON.stringify({ pid: deadPid(), host: hostname(), started_at: '2026-01-01T00:00:00.000Z', command: 'dbform apply' }));
    const run = await runCli(ws, ['apply', '--auto-approve']);
    expect(run.code).toBe(0);
    expect(run.stderr).toMatch(/notice: took over the stale apply lock of pid \d+ on .* \(started 2026-01-01T00:00:00.000Z\)/);
    expect(existsSync(lockPathOf(ws))).toBe(false);
  });

  it('refuses the lock of another host, and --force-unlock removes it', async () => {
    const ws = await setup(0.01, 1);
    writeFileSync(lockPathOf(ws), JSON.stringify({ pid: 4242, host: 'ci-runner-9', started_at: '2026-01-01T00:00:00.000Z', command: 'dbform apply' }));
    const refused = await runCli(ws, ['apply', '--auto-approve']);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/pid 4242 on ci-runner-9 .*started 2026-01-01T00:00:00.000Z.*--force-unlock/);
    const forced = await runCli(ws, ['apply', '--auto-approve', '--force-unlock']);
    expect(forced.code).toBe(0);
    expect(forced.stderr).toContain('notice: removed the apply lock');
    expect(existsSync(lockPathOf(ws))).toBe(false);
  });
});

describe('SIGINT during an apply', () => {
  it('exits 130 with every created ID in the lockfile, and the next apply converges', async () => {
    const ws = await setup(0.01, 3);
    // The clock stands while the signal is sent: the apply cannot have finished when it lands.
    clock.freeze();
    const run = spawnCli(ws, ['apply', '--auto-approve']);
    let out = '';
    run.child.stdout!.on('data', (d) => (out += d));
    await until(() => /createService (QUEUED|CONFIGURING)/.test(out), 'a service to be created');
    run.child.kill('SIGINT');
    const result = await run.done;
    clock.thaw();
    expect(result.code).toBe(130);
    expect(result.stderr).toContain('SIGINT received');
    expect(result.stdout).toMatch(/Apply interrupted: /);
    expect(existsSync(lockPathOf(ws))).toBe(false);
    const { live, lock } = await nextPlan(ws, emulator!.url);
    expect(live.services.length).toBeGreaterThan(0);
    expect(unboundIds(live, lock)).toEqual([]);

    const again = await runCli(ws, ['apply', '--auto-approve']);
    expect(again.code).toBe(0);
    const after = await nextPlan(ws, emulator!.url);
    expect(after.plan.actions).toEqual([]);
    expect(duplicates(after.live)).toEqual([]);
    expect(after.live.services).toHaveLength(3);
    expect(unboundIds(after.live, after.lock)).toEqual([]);
  });

  it('reports a create sent before Ctrl-C as "sent; wait abandoned" with its ID, not as skipped', async () => {
    // The clock stands: the create stays QUEUED, so the interrupt lands in its wait.
    const ws = await setup(1, 1);
    clock.freeze();
    const run = spawnCli(ws, ['apply', '--auto-approve']);
    let out = '';
    run.child.stdout!.on('data', (d) => (out += d));
    await until(() => /service\.s0 createService QUEUED/.test(out), 'the create to be accepted');
    run.child.kill('SIGINT');
    const result = await run.done;
    expect(result.code).toBe(130);
    const id = JSON.parse(readFileSync(ws.lockfile, 'utf8')).resources['service.s0'].id as string;
    expect(result.stdout).toMatch(new RegExp(`service\\.s0 createService sent; wait abandoned \\(id ${id}, interrupted after `));
    expect(result.stdout).toContain('replica_set.s0.r createReplicaSet not started (interrupted)');
    expect(result.stdout).not.toContain('service.s0 createService not started');
    expect(result.stdout).toContain('Apply interrupted: 0 created, 0 updated, 0 deleted, 0 replaced.\nActions: 0 done, 1 sent (wait abandoned), 0 failed, 1 skipped (not started), 0 blocked.');
    expect(result.stdout).toContain(`  … service.s0 createService (${id})`);
    expect(result.stdout).toContain('Not started (interrupted):\n  - replica_set.s0.r createReplicaSet\n');
    // One closing sentence: the resume advice is in the error only.
    expect(`${result.stdout}${result.stderr}`.match(/run the same command again to resume/gi)).toHaveLength(1);
  });

  it('exits 130 at once on a second SIGINT, and the next apply converges without duplicates', async () => {
    // Slow answers (2 s) keep the graceful stop busy: it lets the creates already sent finish. The
    // second SIGINT follows the first once the apply has said it received it: no sleep in between.
    const ws = await setup(0.05, 2, 2000);
    const creates = () => emulator!.stats().requests['POST /projects/{project_id}/services'] ?? 0;
    const run = spawnCli(ws, ['apply', '--auto-approve']);
    let out = '';
    let err = '';
    run.child.stdout!.on('data', (d) => (out += d));
    run.child.stderr!.on('data', (d) => (err += d));
    await until(() => creates() === 2, 'both creates to reach the emulator');
    run.child.kill('SIGINT');
    await until(() => err.includes('SIGINT received'), 'the apply to take the first SIGINT');
    run.child.kill('SIGINT');
    const result = await run.done;
    expect(result.code).toBe(130);
    expect(result.stderr).toContain('SIGINT received again: exiting now');
    expect(existsSync(lockPathOf(ws))).toBe(false);
    // The creates it cut off never reached the API's handlers (they read a request once its
    // latency passed, and the connection was gone by then): the next apply makes them, once each.
    emulator!.setFaults({ latencyMs: 0 });
    const again = await runCli(ws, ['apply', '--auto-approve']);
    expect(again.code).toBe(0);
    const { plan, live, lock } = await nextPlan(ws, emulator!.url);
    expect(plan.actions).toEqual([]);
    expect(duplicates(live)).toEqual([]);
    expect(live.services).toHaveLength(2);
    expect(unboundIds(live, lock)).toEqual([]);
  });
});
