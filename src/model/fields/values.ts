// Desired and live values brought to one vocabulary before they are compared, so values the API
// reports differently from how the config spells them never produce a perpetual diff (USERS.md
// item 13).
import { isTimeSeriesType } from '../api-values.js';
import type { Addon, LiveService, ServiceSize, ServiceType } from '../resources.js';

const PAUSED = new Set(['PAUSED', 'PAUSING']);

/** PAUSING ends in PAUSED, so a plan treats both as paused; every other status ends up READY. */
export const isLivePaused = (s: Pick<LiveService, 'status'>): boolean => PAUSED.has(s.status);

export function serviceTypeOf(addons: readonly Addon[]): ServiceType {
  return addons.includes('time-series') ? 'TIMESERIESDB' : 'POSTGRES';
}

/**
 * Whether a live service type satisfies a desired one. `ai` is not reflected in any field, so it
 * never diffs; the legacy VECTOR type is the old spelling of a plain service with AI, and
 * TIMESCALEDB the real service's spelling of TIMESERIESDB (SPEC section 12).
 */
export function typeSatisfies(desired: ServiceType, liveType: string): boolean {
  if (liveType === 'VECTOR') return desired === 'POSTGRES';
  if (isTimeSeriesType(liveType)) return desired === 'TIMESERIESDB';
  return liveType === desired;
}

/** Whether a live service type satisfies the desired addons (see typeSatisfies). */
export const typeMatches = (addons: readonly Addon[], liveType: string): boolean => typeSatisfies(serviceTypeOf(addons), liveType);

export const liveEnvironment = (env: string | undefined): string => env ?? 'DEV';

export function sizeEquals(a: ServiceSize, b: ServiceSize): boolean {
  return a.cpuMillis === b.cpuMillis && a.memoryGbs === b.memoryGbs;
}

export const isShared = (s: ServiceSize): boolean => s.cpuMillis === 'shared' || s.memoryGbs === 'shared';

/** Service sizes travel as digit strings or `shared` (cloud-api.md 4.4). */
export const sizeWire = (v: number | 'shared'): string => String(v);

/** Structural equality of plain values (JSON-like), without allocating. */
export function sameValue(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  const ka = Object.keys(a);
  if (ka.length !== Object.keys(b).length) return false;
  for (const k of ka) if (!sameValue((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k])) return false;
  return true;
}
