export { applyPlan, type ApplyOptions } from './apply-plan.js';
export { parseDuration, formatElapsed } from './duration.js';
export { ActionError } from './errors.js';
export type { ActionRef, ApplyEvent, Reporter, SkipReason } from './events.js';
export { resolvePgpassPath } from './pgpass.js';
export type { ExecutorApi, ExecutorPoller, ExecutorWaits, PollOptions, StateBindings, WaitOptions } from './ports.js';
export { isSuccess, type ApplyResult } from './result.js';
