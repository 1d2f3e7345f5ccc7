// Real HTTP on fake time: the emulator's clock (its `now` option) and the waiting code's Timers
// are one FakeTimers, so a transition ends, and a poll falls due, only when the test moves the
// clock, while every request still goes over HTTP to the real emulator. Between two moves the
// driver lets the requests in flight finish, so what a wait sees at each tick is exact: request
// counts become the schedule's, whatever the load on the machine.
import { FakeTimers, settle } from './fake-timers.js';

export interface InFlight<T> {
  /** The same object, whose methods count the calls still running. */
  api: T;
  busy(): boolean;
}

/** Counts the calls of `target`'s methods that have not settled yet (the object itself is untouched). */
export function countingInFlight<T extends object>(target: T): InFlight<T> {
  let running = 0;
  const api = new Proxy(target, {
    get(obj, name, receiver) {
      const value = Reflect.get(obj, name, receiver) as unknown;
      if (typeof value !== 'function') return value;
      return (...args: unknown[]) => {
        const out = (value as (...a: unknown[]) => unknown).apply(obj, args);
        if (!(out instanceof Promise)) return out;
        running++;
        return out.finally(() => running--);
      };
    },
  });
  return { api, busy: () => running > 0 };
}

/** Waits (in real time) until no call is in flight and the code after them has run. */
async function quiesce(busy: () => boolean): Promise<void> {
  for (;;) {
    while (busy()) await new Promise((r) => setTimeout(r, 1));
    await settle();
    await settle();
    if (!busy()) return;
  }
}

/**
 * Moves the fake clock from timer to timer until `promise` settles, letting the HTTP calls each
 * timer starts finish before the next move; returns the promise (a rejection reaches the caller).
 */
export async function driveUntilSettled<T>(timers: FakeTimers, promise: Promise<T>, busy: () => boolean, limitMs = 3_600_000): Promise<T> {
  let settled = false;
  promise.then(
    () => (settled = true),
    () => (settled = true),
  );
  const end = timers.now() + limitMs;
  for (;;) {
    await quiesce(busy);
    if (settled) return promise;
    const next = timers.pending()[0];
    if (next === undefined) throw new Error('no timer is pending, no call is in flight, and the promise is still not settled');
    if (timers.now() + next > end) throw new Error(`the promise did not settle within ${limitMs} ms of fake time`);
    await timers.advance(next);
  }
}
