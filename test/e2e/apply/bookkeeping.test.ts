// A create's bookkeeping (the lockfile write, the pgpass rewrite) runs while its first wait does
// (SPEC section 8: per-create overhead off the critical path), and still ends the action: the
// action is done only once its ID and its password are saved.
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { act, planOf, PROJECT, startHarness, type Harness } from './engine-harness.js';
import { removeTempDirs } from '../../support/temp-dir.js';
import { EmulatorClock } from '../../support/emulator-clock.js';

afterAll(removeTempDirs);

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

const polls = (harness: Harness) => {
  const r = harness.emulator.stats().requests;
  return (r['GET /projects/{project_id}/services/{service_id}'] ?? 0) + (r['GET /projects/{project_id}/services'] ?? 0);
};

const until = async (what: string, holds: () => boolean) => {
  for (const end = Date.now() + 10_000; !holds(); await new Promise((r) => setTimeout(r, 5))) {
    if (Date.now() > end) throw new Error(`timed out waiting until ${what}`);
  }
};

describe("a create's bookkeeping", () => {
  it('does not hold back its first poll: the wait runs while the pgpass file is locked, the action ends once the password is saved', async () => {
    h = await startHarness({ timeScale: 0.05 });
    const harness = h;
    // Another dbform (this live process, as far as the lock can tell) is rewriting the pgpass file.
    const lock = `${harness.pgpassPath}.lock`;
    writeFileSync(lock, `${process.pid} ${hostname()}\n`);
    let settled = false;
    const running = harness.apply(planOf([act('createService', 'service.db', { request: { name: 'db' } })]), { pollMs: 20 });
    void running.finally(() => (settled = true));
    await until('the wait polls', () => polls(harness) >= 3);
    expect(settled).toBe(false);
    expect(existsSync(harness.pgpassPath)).toBe(false);
    // The ID is bound in the lockfile before the password is saved.
    await until('the lockfile holds the ID', () => existsSync(harness.lockPath) && harness.readLock().resources['service.db'] !== undefined);
    rmSync(lock);
    const result = await running;
    expect(result.failed).toEqual([]);
    expect(result.done).toHaveLength(1);
    expect(readFileSync(harness.pgpassPath, 'utf8')).toMatch(/^[a-z0-9]+\.proj-demo\.tsdb\.cloud\.example:5432:tsdb:tsdbadmin:\S+\n$/);
  });

  it('a pgpass file that cannot be written ends the wait at once and fails the create with its own story', async () => {
    // The emulator's clock stands: the create never ends, so an apply that ends at all did not wait it out.
    const clock = new EmulatorClock();
    clock.freeze();
    h = await startHarness({ timeScale: 1, now: clock.now });
    const harness = h;
    // A directory where the file should be: the rewrite fails; the create is not waited out.
    mkdirSync(harness.pgpassPath);
    const result = await harness.apply(planOf([act('createService', 'service.db', { request: { name: 'db' } })]), { pollMs: 20 });
    expect(result.failed[0]?.message).toMatch(/the service was created \(ID [a-z0-9]+\) but its initial password could not be saved to/);
    const id = harness.readLock().resources['service.db']?.id;
    expect(id).toMatch(/^[a-z0-9]{10}$/);
    expect((await harness.client.getService(PROJECT, id!)).status).not.toBe('READY');
  });
});
