// The built-in end states of the waits in waiters.ts: when a resource can never reach what is
// waited for. Gone is gone for every kind; the rest each kind says (src/kinds/<kind>:
// `waits.terminal`), reading statuses by meaning, so both the emulator's seed dialect and the
// real service's spellings end a wait the same way.
import { kindDef } from '../kinds/index.js';
import type { Kind } from '../model/address.js';
import { ApiError } from './errors.js';

/** Why a wait on a resource of `kind` can never succeed, or undefined while it may. */
export function terminalOf(kind: Kind, live: unknown): string | undefined {
  if (live === undefined) return 'is gone (deleted while waiting for it)';
  return kindDef(kind).waits.terminal?.(live);
}

/** Errors after which polling cannot succeed: the credentials or the project are not valid any more. */
export function isFatalListError(err: unknown): boolean {
  return err instanceof ApiError && (err.status === 401 || err.status === 403 || err.status === 404 || err.code === 'INVALID_RESPONSE');
}
