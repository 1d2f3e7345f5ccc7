// The clock and timers of code that waits (retry backoff, poll ticks, wait timeouts, progress
// redraws), passed in so that tests run on fake time instead of real milliseconds.

export type TimerHandle = unknown;

export interface Timers {
  /** Epoch milliseconds. */
  now(): number;
  setTimeout(callback: () => void, ms: number): TimerHandle;
  clearTimeout(handle: TimerHandle): void;
}

/** Node's clock and timers, looked up at each call. */
export const systemTimers: Timers = {
  now: () => Date.now(),
  setTimeout: (callback, ms) => setTimeout(callback, ms),
  clearTimeout: (handle) => clearTimeout(handle as NodeJS.Timeout),
};
