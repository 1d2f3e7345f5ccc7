// One list request serving many waiters (see waiters.ts for the public interface). A channel is a
// list source: the project's services, or the peerings of one VPC. Each waiter keeps its own
// backoff; a tick runs when the earliest waiter is due and serves every waiter that joined
// before the request started, so N waiters cost one request per tick.
import type { TimerHandle, Timers } from './timers.js';

export interface Snapshot<T> {
  /** Items by ID. */
  items: Map<string, T>;
}

export interface ChannelWaiter<T> {
  /** ms timestamp when this waiter wants fresh data next. */
  dueAt: number;
  intervalMs: number;
  /** Called with each snapshot that may serve it; returns true when the waiter is finished. */
  serve(snapshot: Snapshot<T>): boolean;
  /** Called when a list request failed for good (the waiter should fail). */
  fail(err: unknown): void;
  /** Called when a list request failed but polling goes on. */
  note(err: unknown): void;
}

export interface ChannelOptions {
  factor: number;
  maxIntervalMs: number;
  timers: Timers;
}

export class PollChannel<T> {
  private readonly waiters = new Set<ChannelWaiter<T>>();
  private timer: TimerHandle | undefined;
  private inFlight = false;
  private closed = false;
  /** List requests made so far. */
  requests = 0;

  constructor(
    private readonly fetch: () => Promise<Snapshot<T>>,
    /** Whether a fetch error ends every wait (else polling goes on until each wait's timeout). */
    private readonly isFatal: (err: unknown) => boolean,
    private readonly options: ChannelOptions,
  ) {}

  get size(): number {
    return this.waiters.size;
  }

  add(waiter: ChannelWaiter<T>): void {
    this.waiters.add(waiter);
    this.schedule();
  }

  remove(waiter: ChannelWaiter<T>): void {
    this.waiters.delete(waiter);
    if (this.waiters.size === 0) this.clearTimer();
  }

  close(): void {
    this.closed = true;
    this.clearTimer();
    this.waiters.clear();
  }

  private clearTimer(): void {
    if (this.timer !== undefined) this.options.timers.clearTimeout(this.timer);
    this.timer = undefined;
  }

  /**
   * (Re)arms the timer; a tick in flight reschedules when it ends. The tick fires at the latest due
   * time that keeps every waiter within a third of its next interval (half its current spacing) of
   * its own due time, so waits that started a few milliseconds apart (100 resizes answered one by
   * one) share one request per tick instead of drifting into several. A lone waiter is never late.
   */
  private schedule(): void {
    if (this.inFlight || this.closed) return;
    this.clearTimer();
    if (this.waiters.size === 0) return;
    let due = Infinity;
    let deadline = Infinity;
    for (const w of this.waiters) {
      due = Math.min(due, w.dueAt);
      deadline = Math.min(deadline, w.dueAt + w.intervalMs / 3);
    }
    let fireAt = due;
    for (const w of this.waiters) if (w.dueAt <= deadline && w.dueAt > fireAt) fireAt = w.dueAt;
    this.timer = this.options.timers.setTimeout(() => void this.tick(), Math.max(0, fireAt - this.options.timers.now()));
  }

  private async tick(): Promise<void> {
    this.timer = undefined;
    this.inFlight = true;
    // Waiters joining from here on may need state newer than this request: the next tick serves them.
    const served = [...this.waiters];
    this.requests++;
    let snapshot: Snapshot<T> | undefined;
    let error: unknown;
    try {
      snapshot = await this.fetch();
    } catch (err) {
      error = err;
    }
    this.inFlight = false;
    if (this.closed) return;
    const now = this.options.timers.now();
    for (const w of served) {
      if (!this.waiters.has(w)) continue;
      if (snapshot !== undefined) {
        if (w.serve(snapshot)) {
          this.waiters.delete(w);
          continue;
        }
      } else if (this.isFatal(error)) {
        this.waiters.delete(w);
        w.fail(error);
        continue;
      } else w.note(error);
      w.dueAt = now + w.intervalMs;
      w.intervalMs = Math.min(w.intervalMs * this.options.factor, this.options.maxIntervalMs);
    }
    this.schedule();
  }
}
