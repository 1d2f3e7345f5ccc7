// Both sides are brought to one vocabulary before comparing, so values the API reports
// differently from how the config spells them never produce a perpetual diff (USERS.md item 13).
import { isTimeSeriesType, type Addon, type LiveReplicaSet, type LiveService, type ServiceSize, type ServiceType } from '../model/index.js';

const PAUSED = new Set(['PAUSED', 'PAUSING']);
// The emulator never reports DELETED itself, but a real API may: both mean the service is going.
const GONE_SERVICE = new Set(['DELETING', 'DELETED']);
const GONE_REPLICA_SET = new Set(['deleting']);

export const isServiceGone = (s: LiveService): boolean => GONE_SERVICE.has(s.status);
export const isReplicaSetGone = (r: LiveReplicaSet): boolean => GONE_REPLICA_SET.has(r.status);

/** PAUSING ends in PAUSED, so a plan treats both as paused; every other status ends up READY. */
export const isLivePaused = (s: LiveService): boolean => PAUSED.has(s.status);

export function serviceTypeOf(addons: readonly Addon[]): ServiceType {
  return addons.includes('time-series') ? 'TIMESERIESDB' : 'POSTGRES';
}

/**
 * Whether a live service type satisfies the desired addons. `ai` is not reflected in any field,
 * so it never diffs; the legacy VECTOR type is the old spelling of a plain service with AI, and
 * TIMESCALEDB the real service's spelling of TIMESERIESDB (SPEC section 12).
 */
export function typeMatches(addons: readonly Addon[], liveType: string): boolean {
  const desired = serviceTypeOf(addons);
  if (liveType === 'VECTOR') return desired === 'POSTGRES';
  if (isTimeSeriesType(liveType)) return desired === 'TIMESERIESDB';
  return liveType === desired;
}

export const liveEnvironment = (env: string | undefined): string => env ?? 'DEV';

export function sizeEquals(a: ServiceSize, b: ServiceSize): boolean {
  return a.cpuMillis === b.cpuMillis && a.memoryGbs === b.memoryGbs;
}

export const isShared = (s: ServiceSize): boolean => s.cpuMillis === 'shared' || s.memoryGbs === 'shared';

/** Service sizes travel as digit strings or `shared` (cloud-api.md 4.4). */
export const sizeWire = (v: number | 'shared'): string => String(v);
