// The API layer's errors are model types (src/model/api-errors.ts), so that the engine can tell a
// 409 or a lost create apart without importing the client; the API code names them from here.
export { AmbiguousCreateError, ApiError, describeLastStatus, formatDuration, WaitFailedError, WaitTimeoutError, type ApiErrorInit } from '../model/api-errors.js';
