// The API layer: typed client, errors, live-state reader, waiters. Import from here.
export { ApiClient, type ApiClientOptions, type CallOptions } from './client.js';
export type { ApiCredentials } from './credentials.js';
export { AmbiguousCreateError, ApiError, WaitFailedError, WaitTimeoutError } from './errors.js';
export { isLoopback } from './base-url.js';
export type { ApiLogger } from './http.js';
export { fetchLiveState, listOf, type FetchLiveStateOptions, type LiveReader } from './live-state.js';
export { iterateServiceLogs, linesOf, nextCursorOf, type LogLine } from './logs.js';
export { backoffAtTimeScale, DEFAULT_RETRY_POLICY, type RetryPolicy, type Safety } from './retry.js';
export { systemTimers, type TimerHandle, type Timers } from './timers.js';
export { pollMsFromEnv, stallNoticeMsFromEnv, StatusPoller, type StatusPollerOptions, type WaitCheck, type WaitOptions, type WaitVerdict } from './waiters.js';
