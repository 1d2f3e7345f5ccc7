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

/** `apply --ttl`: the expiry it asks for, refused where sweep would never act on it. */
export function parseTtl(text: string | undefined, workspace: string): number | undefined {
  if (text === undefined) return undefined;
  const ms = parseAge(text, '--ttl');
  if (workspace === DEFAULT_WORKSPACE) {
    throw new DbformError('--ttl sets when `dbform sweep` may destroy a workspace, and sweep never destroys the default workspace; apply a preview with --workspace NAME --ttl DURATION');
  }
  return ms;
}
