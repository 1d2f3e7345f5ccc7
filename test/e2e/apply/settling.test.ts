// Issue 12: after Ctrl-C during a create, the next apply must not say "No changes." and exit 0
// while the service is still QUEUED. The emulator's clock (time scale 1: QUEUED 1 s, CONFIGURING
// 4 s) moves only by hand, so the service is still QUEUED in every command in between however
// slow the machine, and READY once the clock is moved: the plan in between lists the service as
// settling, and apply waits until it is READY.
import { readFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { ApiClient } from '../../../src/api/client.js';
import { startEmulator } from '../../../src/emulator/index.js';
import { runCli, spawnCli, workspace } from './cli-harness.js';
import { EmulatorClock } from '../../support/emulator-clock.js';

let emulator: Awaited<ReturnType<typeof startEmulator>> | undefined;
afterEach(async () => {
  await emulator?.close();
  emulator = undefined;
});

async function until(check: () => boolean, what: string, ms = 10_000): Promise<void> {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

const config = 'version: 1\nproject_id: proj-demo\nservices:\n  db:\n    cpu_millis: 500\n    memory_gbs: 2\n';
const TRANSITIONAL = /^(QUEUED|CONFIGURING)$/;

describe('interrupted during a create, then apply again (time scale 1, on a clock moved by hand)', () => {
  it('plan shows the service settling (exit 0 with --detailed-exitcode), and apply waits until READY before it exits 0', async () => {
    const clock = new EmulatorClock();
    clock.freeze();
    emulator = await startEmulator({ timeScale: 1, now: clock.now });
    const ws = workspace(config, emulator.url);
    const client = new ApiClient({ baseUrl: emulator.url, token: 'demo-pat' });
    const statusOf = async (id: string) => (await client.listServices('proj-demo')).find((s) => s.service_id === id)?.status;
    try {
      const first = spawnCli(ws, ['apply', '--auto-approve']);
      let out = '';
      first.child.stdout!.on('data', (d) => (out += d));
      await until(() => /service\.db createService QUEUED/.test(out), 'the create to be accepted');
      first.child.kill('SIGINT');
      expect((await first.done).code).toBe(130);
      const id = JSON.parse(readFileSync(ws.lockfile, 'utf8')).resources['service.db'].id as string;
      expect(await statusOf(id)).toMatch(TRANSITIONAL);

      const json = await runCli(ws, ['plan', '--json']);
      expect(json.code, json.stderr).toBe(0);
      const plan = JSON.parse(json.stdout);
      expect(plan.actions).toEqual([]);
      expect(plan.summary).toMatchObject({ settling: 1, unchanged: 0 });
      expect(plan.settling).toHaveLength(1);
      expect(plan.settling[0]).toMatchObject({ address: 'service.db', id });
      expect(plan.settling[0].status).toMatch(TRANSITIONAL);

      // Settling is not a change to make: exit 0, but the text says the service is still settling.
      const detailed = await runCli(ws, ['plan', '--detailed-exitcode']);
      expect(detailed.code, detailed.stderr).toBe(0);
      expect(detailed.stdout).toMatch(/Still settling: 1 resource is still changing .*apply waits for it before it reports success:\n\n {2}… service\.db {2}(QUEUED|CONFIGURING)\n/);
      expect(detailed.stdout).toContain('No changes. 1 settling (apply waits for it), 0 unchanged');

      const applying = spawnCli(ws, ['apply', '--auto-approve']);
      let applied = '';
      applying.child.stdout!.on('data', (d) => (applied += d));
      await until(() => /service\.db settle (QUEUED|CONFIGURING)\n/.test(applied), 'the apply to wait for the service');
      clock.advance(5000); // the rest of the create: READY
      const again = await applying.done;
      expect(again.stderr).toBe('');
      expect(again.code).toBe(0);
      // Checked the moment apply has exited: it did not report success while the service was moving.
      expect(await statusOf(id)).toBe('READY');
      expect(again.stdout).toContain('apply started: 0 action(s), 0 state binding(s), 1 settling resource(s) to wait for, parallelism 10\n');
      expect(again.stdout).toMatch(/service\.db settle (QUEUED|CONFIGURING)\n/);
      expect(again.stdout).toMatch(/service\.db settle settled \(/);
      expect(again.stdout).toMatch(/Apply complete: 0 created, 0 updated, 0 deleted, 0 replaced\.\nActions: 0 done, 1 settled, 0 failed/);
      expect(again.stdout).toMatch(/Settled \(still changing when planned; waited for\):\n {2}✓ service\.db (QUEUED|CONFIGURING) -> READY\n/);

      const settled = await runCli(ws, ['plan', '--detailed-exitcode']);
      expect(settled.code).toBe(0);
      expect(settled.stdout).toMatch(/^Project proj-demo, workspace default, state: .*dbform\.lock\.json\n/);
      expect(settled.stdout.split('\n').slice(1).join('\n')).toBe('No changes. 1 unchanged, 0 unmanaged (not in the config or state; left alone).\n');
    } finally {
      await client.close();
    }
  });

  it('--timeout bounds the wait: apply fails (exit 1) naming the resource and its last status', async () => {
    const clock = new EmulatorClock();
    clock.freeze();
    emulator = await startEmulator({ timeScale: 1, now: clock.now });
    const ws = workspace(config, emulator.url);
    const first = spawnCli(ws, ['apply', '--auto-approve']);
    let out = '';
    first.child.stdout!.on('data', (d) => (out += d));
    await until(() => /service\.db createService QUEUED/.test(out), 'the create to be accepted');
    first.child.kill('SIGINT');
    expect((await first.done).code).toBe(130);

    const again = await runCli(ws, ['apply', '--auto-approve', '--timeout', '300']);
    expect(again.code).toBe(1);
    expect(again.stderr).toMatch(/service\.db settle: timed out after 300 ms waiting for service \w+ \(last status (QUEUED|CONFIGURING)\)/);
  });
});
