// The tiger dialect with its own SPEC section 15 behaviours (30 s backup delay, eventual teardown,
// moving endpoints, or manual peering acceptance): what the client meets on the real service.
// These files start it explicitly, whichever dialect the vitest project runs, so they run once.
import { DIALECTS } from '../../../src/emulator/dialect.js';
import type { EmulatorOptions } from '../../../src/emulator/index.js';

/** The tiger dialect as it starts by default (its switches spelled out, whatever a harness holds back). */
export const TIGER: EmulatorOptions = { dialect: 'tiger', ...DIALECTS.tiger.switches };

/** POST to one of the emulator's test controls (no auth): its status. */
export async function control(origin: string, path: string): Promise<number> {
  const res = await fetch(`${origin}${path}`, { method: 'POST' });
  await res.text();
  return res.status;
}
