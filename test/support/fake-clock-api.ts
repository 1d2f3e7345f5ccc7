// Real HTTP on fake time: the emulator's clock (its `now` option) and the waiting code's Timers
// are one FakeTimers, so a transition ends, and a poll falls due, only when the test moves the
// clock, while every request still goes over HTTP to the real emulator. Between two moves the
// driver lets the requests in flight finish, so what a wait sees at each tick is exact: request
// counts become the schedule's, whatever the load on the machine.
import { FakeTimers, settle } from './fake-timers.js';

/** Counts the promises of the code under test that have not settled yet: its API calls, its file writes. */
export class InFlightCounter {
  private running = 0;
  /** The most that were in flight at once. */
  max = 0;

  readonly busy = (): boolean => this.running > 0;

  readonly track = <T>(promise: Promise<T>): Promise<T> => {
    this.max = Math.max(this.max, ++this.running);
    return promise.finally(() => this.running--);
  };

  /** The same object, whose methods that return a promise are tracked (the object itself is untouched). */
  wrap<T extends object>(target: T): T {
    return new Proxy(target, {
      get: (obj, name, receiver) => {
        const value = Reflect.get(obj, name, receiver) as unknown;
        if (typeof value !== 'function') return value;
        return (...args: unknown[]) => {
          const out = (value as (...a: unknown[]) => unknown).apply(obj, args);
          return out instanceof Promise ? this.track(out) : out;
        };
      },
    });
  }
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
