// The built-in end states of the waits in waiters.ts: when a resource can never reach what is
// waited for. Statuses are read by meaning (src/model/api-values.ts), so both the emulator's seed
// dialect and the real service's spellings end a wait the same way.
import { isPeeringFailed } from '../kinds/peering/kind.js';
import type { LivePeering, LiveReplicaSet, LiveService, LiveVpc } from '../model/resources.js';
import { ApiError } from './errors.js';

const SERVICE_GONE = new Set(['DELETED', 'DELETING']);

export function serviceTerminal(svc: LiveService | undefined): string | undefined {
  if (svc === undefined) return 'is gone (deleted while waiting for it)';
  if (SERVICE_GONE.has(svc.status)) return `is being deleted (status ${svc.status}) while waiting for it`;
  return undefined;
}

export function replicaSetTerminal(rs: LiveReplicaSet | undefined): string | undefined {
  if (rs === undefined) return 'is gone (deleted while waiting for it)';
  if (rs.status === 'error') return 'is in error state';
  if (rs.status === 'deleting') return 'is being deleted while waiting for it';
  return undefined;
}

export function peeringTerminal(p: LivePeering | undefined): string | undefined {
  if (p === undefined) return 'is gone (deleted while waiting for it)';
  if (isPeeringFailed(p.status)) return `failed: ${p.errorMessage ?? `status ${p.status}, no error message`}`;
  return undefined;
}

export function vpcTerminal(v: LiveVpc | undefined): string | undefined {
  return v === undefined ? 'is gone (deleted while waiting for it)' : undefined;
}

/** Errors after which polling cannot succeed: the credentials or the project are not valid any more. */
export function isFatalListError(err: unknown): boolean {
  return err instanceof ApiError && (err.status === 401 || err.status === 403 || err.status === 404 || err.code === 'INVALID_RESPONSE');
}
