export { applyPlan, type ApplyOptions } from './apply-plan.js';
export { acquireApplyLock, applyLockPath, forceUnlock, type ApplyLock, type LockHolder } from './apply-lock.js';
export { parseDuration, formatElapsed } from './duration.js';
export { ActionError, ApplyLockHeldError } from './errors.js';
export type { ActionRef, ApplyEvent, Reporter, SkipReason } from './events.js';
export { LockStore } from './lock-store.js';
export { resolvePgpassPath } from './pgpass.js';
export type { ExecutorApi, ExecutorPoller, ExecutorWaits, PollOptions, WaitOptions } from './ports.js';
export { isSuccess, type ApplyResult } from './result.js';
