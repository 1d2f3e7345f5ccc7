// The emulator counts the faults it injects, so a chaos test can show that its faults happened.
import { describe, expect, it } from 'vitest';
import { startEmulator } from '../../../src/emulator/index.js';
import { apiOf, P } from './helpers.js';

describe('faults injected', () => {
  it('are counted by kind, each counted request answered as its fault says', async () => {
    const em = await startEmulator({ timeScale: 0, faultRate: 0.3, throttleRate: 0.3, lostResponseRate: 0.3, faultSeed: 11 });
    try {
      expect(em.faultsInjected()).toEqual({ 'error-500': 0, 'error-503': 0, throttle: 0, 'lost-response': 0 });
      const api = apiOf(() => em);
      const seen = { 'error-500': 0, 'error-503': 0, throttle: 0, 'lost-response': 0 };
      for (let i = 0; i < 60; i++) {
        const status = await api('GET', `${P}/services`).then(
          (res) => res.status,
          () => 0, // the connection was destroyed: a lost response
        );
        if (status === 500) seen['error-500']++;
        if (status === 503) seen['error-503']++;
        if (status === 429) seen.throttle++;
        if (status === 0) seen['lost-response']++;
      }
      expect(em.faultsInjected()).toEqual(seen);
      for (const n of Object.values(seen)) expect(n).toBeGreaterThan(0);
    } finally {
      await em.close();
    }
  });
});
