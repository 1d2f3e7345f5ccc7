// The environment's say in how waits behave: DBFORM_POLL_MS (SPEC section 5) and, for tests,
// DBFORM_STALL_NOTICE_MS. Checked before an apply starts, so a bad value never stops one half-way.
// The CLI passes its environment; without one, the defaults apply.
import { DbformError } from '../model/errors.js';

/** DBFORM_POLL_MS, checked; 1000 when unset. */
export function pollMsFromEnv(env: NodeJS.ProcessEnv = {}): number {
  const raw = env.DBFORM_POLL_MS;
  if (raw === undefined || raw === '') return 1000;
  const ms = Number(raw);
  if (!Number.isFinite(ms) || ms <= 0) throw new DbformError(`DBFORM_POLL_MS must be a positive number of milliseconds (found "${raw}")`);
  return ms;
}

/** DBFORM_STALL_NOTICE_MS (for tests): after how long an unchanged status is reported; 60 s when unset. */
export function stallNoticeMsFromEnv(env: NodeJS.ProcessEnv = {}): number {
  const raw = env.DBFORM_STALL_NOTICE_MS;
  if (raw === undefined || raw === '') return 60_000;
  const ms = Number(raw);
  if (!Number.isFinite(ms) || ms <= 0) throw new DbformError(`DBFORM_STALL_NOTICE_MS must be a positive number of milliseconds (found "${raw}")`);
  return ms;
}
