import { randomInt } from 'node:crypto';
import { EmulatorConfigError } from './errors.js';
import { createPrng } from './prng.js';

export interface FaultSettings {
  latencyMs: number;
  faultRate: number;
  throttleRate: number;
  lostResponseRate: number;
}

export type Fault = 'error-500' | 'error-503' | 'throttle' | 'lost-response';

/**
 * Decides each API request's fault from a seeded PRNG, so a chaos test replays exactly. Three
 * draws per request (error, throttle, lost response) whatever the rates, so changing one rate
 * does not shift the others' sequence.
 */
export class FaultInjector {
  private settings: FaultSettings;
  private random: () => number;
  private counts: Record<Fault, number> = { 'error-500': 0, 'error-503': 0, throttle: 0, 'lost-response': 0 };
  readonly seed: number;

  constructor(settings: FaultSettings, seed?: number) {
    this.settings = checkFaults(settings);
    this.seed = seed ?? randomInt(0, 2 ** 31);
    this.random = createPrng(this.seed);
  }

  get latencyMs(): number {
    return this.settings.latencyMs;
  }

  update(partial: Partial<FaultSettings> & { faultSeed?: number }): void {
    this.settings = checkFaults({ ...this.settings, ...withoutUndefined(partial) });
    if (partial.faultSeed !== undefined) this.random = createPrng(partial.faultSeed);
  }

  draw(): Fault | undefined {
    const fault = this.choose();
    if (fault !== undefined) this.counts[fault]++;
    return fault;
  }

  /** How many of each fault were injected so far: a chaos test shows its faults really happened. */
  injected(): Record<Fault, number> {
    return { ...this.counts };
  }

  private choose(): Fault | undefined {
    const error = this.random();
    const throttle = this.random();
    const lost = this.random();
    const s = this.settings;
    if (error < s.faultRate) return error < s.faultRate / 2 ? 'error-500' : 'error-503';
    if (throttle < s.throttleRate) return 'throttle';
    if (lost < s.lostResponseRate) return 'lost-response';
    return undefined;
  }
}

function withoutUndefined<T extends object>(o: T): Partial<FaultSettings> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(o)) if (v !== undefined && k !== 'faultSeed') out[k] = v;
  return out as Partial<FaultSettings>;
}

function checkFaults(s: FaultSettings): FaultSettings {
  for (const key of ['faultRate', 'throttleRate', 'lostResponseRate'] as const) {
    const v = s[key];
    if (typeof v !== 'number' || !(v >= 0 && v <= 1)) throw new EmulatorConfigError(`${key} must be a number from 0 to 1 (got ${v})`);
  }
  if (typeof s.latencyMs !== 'number' || !(s.latencyMs >= 0) || !(s.latencyMs <= 3_600_000)) {
    throw new EmulatorConfigError(`latencyMs must be a number from 0 to 3600000 (one hour; got ${s.latencyMs})`);
  }
  return { ...s };
}
