// SPEC section 15, failed states: a service the API reports FAILED (or ERROR) ends a wait on it at
// once, as a failed action naming the status, instead of waiting out --timeout.
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { act, planOf, PROJECT, startHarness, type Harness } from '../apply/engine-harness.js';
import { EmulatorClock } from '../../support/emulator-clock.js';
import { removeTempDirs } from '../../support/temp-dir.js';
import { control, TIGER } from './helpers.js';

afterAll(removeTempDirs);

let h: Harness;
afterEach(async () => h?.close());

describe('a service that fails while waited for', () => {
  it('fails its resize at once with the status, though --timeout is far away', async () => {
    // The emulator's clock stands once the service is READY: the resize stays UPGRADING until the
    // test fails the service, so only the FAILED status can end the wait before --timeout (10 min,
    // far beyond the test's own limit).
    const clock = new EmulatorClock();
    h = await startHarness({ ...TIGER, timeScale: 1, now: clock.now });
    const id = (await h.client.createService(PROJECT, { name: 'db' })).service_id;
    clock.advance(10_000);
    clock.freeze();
    const resize = act('resizeService', 'service.db', { reason: 'changed', refs: { target: { address: 'service.db', id } }, request: { cpu_millis: '1000', memory_gbs: '4' } });
    const running = h.apply(planOf([resize]), { timeoutMs: 600_000 });
    while (!h.events.some((e) => e.type === 'action-status' && e.status === 'UPGRADING')) await new Promise((r) => setTimeout(r, 5));
    expect(await control(h.emulator.origin, `/__emulator/services/${id}/fail`)).toBe(204);
    const result = await running;
    expect(result.done).toEqual([]);
    expect(result.failed.map((f) => f.message)).toEqual([`resizeService service.db failed: service ${id} has failed (status FAILED)`]);
    expect((await h.client.getService(PROJECT, id)).status).toBe('FAILED');
  });
});
