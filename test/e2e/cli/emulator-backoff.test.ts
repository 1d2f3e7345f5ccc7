// The client's own backoff follows the emulator's time scale, for an emulator only: --emulator, or
// an API URL on loopback with DBFORM_EMULATOR_TIME_SCALE set. A remote API keeps the full backoff.
import { PassThrough } from 'node:stream';
import { afterEach, describe, expect, it } from 'vitest';
import { DEFAULT_RETRY_POLICY } from '../../../src/api/retry.js';
import { emulatorBackoff, openApiContext } from '../../../src/cli/api-context.js';
import { startEmulator, type EmulatorHandle } from '../../../src/emulator/index.js';

const open: Array<{ close(): Promise<void> }> = [];
afterEach(async () => {
  for (const x of open.splice(0).reverse()) await x.close();
});

/** The backoff of the first retry after a 500, as the --debug line states it. */
async function firstBackoff(em: EmulatorHandle, env: NodeJS.ProcessEnv): Promise<number> {
  const stderr = new PassThrough();
  let text = '';
  stderr.on('data', (d: Buffer) => {
    text += d.toString('utf8');
    em.setFaults({ faultRate: 0 });
  });
  em.setFaults({ faultRate: 1, faultSeed: 1 });
  const ctx = await openApiContext({ apiUrl: em.url, debug: true }, { DBFORM_API_KEY: 'demo-pat', ...env }, stderr);
  open.push(ctx);
  await ctx.client.listProjects();
  return Number(/-> 50[03] .*retrying in (\d+) ms/.exec(text)![1]);
}

describe('the retry backoff against an emulator', () => {
  it('is scaled by DBFORM_EMULATOR_TIME_SCALE when the API URL is on loopback', async () => {
    const em = await startEmulator({ timeScale: 0.01 });
    open.push(em);
    // Base 200 ms at time scale 1: the first retry waits 100-200 ms; at 0.01, 1-2 ms.
    expect(await firstBackoff(em, { DBFORM_EMULATOR_TIME_SCALE: '0.01' })).toBeLessThanOrEqual(2);
    expect(await firstBackoff(em, {})).toBeGreaterThanOrEqual(100);
  });

  it('never for a remote API, whatever the environment says', () => {
    const env = { DBFORM_EMULATOR_TIME_SCALE: '0.01' };
    expect(emulatorBackoff('https://api.example.com/public/api/v1', env)).toBeUndefined();
    expect(emulatorBackoff('http://127.0.0.1:4010', env)).toEqual({ baseDelayMs: 2, maxDelayMs: 80 });
    expect(emulatorBackoff('http://localhost:4010', {})).toBeUndefined();
    expect(emulatorBackoff('http://[::1]:4010', { DBFORM_EMULATOR_TIME_SCALE: '0' })).toEqual({ baseDelayMs: 1, maxDelayMs: 1 });
    expect(emulatorBackoff('http://[::1]:4010', { DBFORM_EMULATOR_TIME_SCALE: '1' })).toEqual({
      baseDelayMs: DEFAULT_RETRY_POLICY.baseDelayMs,
      maxDelayMs: DEFAULT_RETRY_POLICY.maxDelayMs,
    });
  });
});
