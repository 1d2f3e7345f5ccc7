// Fake time for code that takes a Timers (src/api/timers.ts): nothing fires until the test moves
// the clock, so a test asserts "not before 1000 ms, then at once" without waiting or racing a load.
import type { TimerHandle, Timers } from '../../src/api/timers.js';

interface Pending {
  id: number;
  at: number;
  callback: () => void;
}

/** Lets promise callbacks and I/O callbacks that are already due run. */
export const settle = () => new Promise<void>((resolve) => setImmediate(resolve));

export class FakeTimers implements Timers {
  private clock: number;
  private nextId = 1;
  private queue: Pending[] = [];

  constructor(start = Date.parse('2026-01-01T00:00:00Z')) {
    this.clock = start;
  }

  now(): number {
    return this.clock;
  }

  setTimeout(callback: () => void, ms: number): TimerHandle {
    const id = this.nextId++;
    this.queue.push({ id, at: this.clock + Math.max(0, ms), callback });
    return id;
  }

  clearTimeout(handle: TimerHandle): void {
    this.queue = this.queue.filter((t) => t.id !== handle);
  }

  /** Delays of the timers still pending, from now, soonest first. */
  pending(): number[] {
    return this.queue.map((t) => t.at - this.clock).sort((a, b) => a - b);
  }

  /**
   * Moves the clock forward by `ms`, firing every timer that falls due in order, at its own time,
   * and letting the promise callbacks each one starts run before the next.
   */
  async advance(ms: number): Promise<void> {
    const end = this.clock + ms;
    await settle();
    for (;;) {
      const due = this.queue.filter((t) => t.at <= end).sort((a, b) => a.at - b.at || a.id - b.id)[0];
      if (due === undefined) break;
      this.queue = this.queue.filter((t) => t !== due);
      this.clock = due.at;
      due.callback();
      await settle();
    }
    this.clock = end;
    await settle();
  }

  /**
   * Moves the clock from timer to timer until `promise` settles, and returns it (so a rejection
   * still reaches the caller's assertion). Fails when no timer is left to move on to.
   */
  async runUntilSettled<T>(promise: Promise<T>, limitMs = 3_600_000): Promise<T> {
    let settled = false;
    promise.then(
      () => (settled = true),
      () => (settled = true),
    );
    const end = this.clock + limitMs;
    await settle();
    while (!settled) {
      const next = Math.min(...this.queue.map((t) => t.at));
      if (next === Infinity) throw new Error('no timer is pending, and the promise is still not settled');
      if (next > end) throw new Error(`the promise did not settle within ${limitMs} ms of fake time`);
      await this.advance(next - this.clock);
    }
    return promise;
  }

  /** Waits (in real time) until a timer is pending, e.g. the backoff after an HTTP answer. */
  async untilPending(limitMs = 10_000): Promise<void> {
    const started = Date.now();
    while (this.queue.length === 0) {
      if (Date.now() - started > limitMs) throw new Error(`no timer was set within ${limitMs} ms`);
      await new Promise((r) => setTimeout(r, 1));
    }
  }
}
