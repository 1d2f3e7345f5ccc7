// Durations of the preview lifecycle (SPEC section 11): `apply --ttl` and `sweep --older-than`.
import { parseDuration } from '../executor/duration.js';
import { DbformError } from '../model/index.js';
import { DEFAULT_WORKSPACE } from '../state/index.js';

/** A positive duration with a unit (`72h`, `3d`, `90m`, `1d12h`); bare digits are refused here, they would read as milliseconds. */
export function parseAge(text: string, flag: string): number {
  const ms = /^\s*\d+\s*$/.test(text) ? undefined : parseDuration(text);
  if (ms === undefined) throw new DbformError(`${flag} must be a duration such as 72h, 3d, 90m or 1d12h (got "${text}")`);
  return ms;
}

const TTL_UNIT_MS: Record<string, number> = { m: 60_000, h: 3_600_000, d: 86_400_000 };
/** The longest TTL: a year (and a leap day). A preview meant to live longer is not one. */
export const MAX_TTL_MS = 366 * TTL_UNIT_MS.d!;

/**
 * `apply --ttl`: whole minutes, hours or days (`30m`, `72h`, `7d`, `1d12h`), from 1 minute to 366
 * days, checked before any lock is taken (SPEC section 13). Refused where sweep would never act on it.
 */
export function parseTtl(text: string | undefined, workspace: string): number | undefined {
  if (text === undefined) return undefined;
  const trimmed = text.trim();
  if (!/^(?:\d+[mhd])+$/.test(trimmed)) {
    throw new DbformError(`--ttl must be a whole number of minutes, hours or days, such as 30m, 72h, 7d or 1d12h (got "${text}")`);
  }
  let ms = 0;
  for (const [, n, unit] of trimmed.matchAll(/(\d+)([mhd])/g)) ms += Number(n) * TTL_UNIT_MS[unit!]!;
  if (ms < TTL_UNIT_MS.m!) throw new DbformError(`--ttl must be at least 1m (got "${text}")`);
  if (ms > MAX_TTL_MS) throw new DbformError(`--ttl must be at most 366 days (got "${text}"); leave --ttl out for a workspace that is not swept`);
  if (workspace === DEFAULT_WORKSPACE) {
    throw new DbformError('--ttl sets when `dbform sweep` may destroy a workspace, and sweep never destroys the default workspace; apply a preview with --workspace NAME --ttl DURATION');
  }
  return ms;
}
