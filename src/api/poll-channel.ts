// One read serving many waiters (see waiters.ts for the public interface). A channel is a source
// of state: the project's services (with what their list carries), the VPCs, or one VPC's own
// list of what belongs to it. Each waiter keeps its own look schedule (poll-schedule.ts) and names what it needs (its
// key); a tick runs when waiters are due, asks the source for a snapshot of the due keys (one
// list, or reads of just those resources: the source chooses), and serves every waiter that
// joined before the read started and whose key the snapshot covers, so N waiters cost one read
// per tick. Two ticks of a channel are never closer than `minSpacingMs` (DBFORM_POLL_MS).
import type { LookSchedule } from './poll-schedule.js';
import type { TimerHandle, Timers } from './timers.js';

export interface Covering {
  /** Whether this snapshot holds the current state of `key` (present or absent). */
  covers(key: string): boolean;
}

/** A list's snapshot: items by ID; it covers every key. */
export interface Snapshot<T> extends Covering {
  items: Map<string, T>;
}

export function listSnapshot<T>(items: Map<string, T>): Snapshot<T> {
  return { items, covers: () => true };
}

export interface ChannelWaiter<S> {
  /** What this waiter needs read; the source decides how. */
  key: string;
  schedule: LookSchedule;
  /**
   * Called with each snapshot that covers its key, read by the tick that started at `at`; returns
   * true when the waiter is finished (else it has moved its schedule on).
   */
  serve(snapshot: S, at: number): boolean;
  /** Called when a read failed for good (the waiter should fail). */
  fail(err: unknown): void;
  /** Called when a read failed but polling goes on. */
  note(err: unknown): void;
}

export interface ChannelOptions {
  timers: Timers;
  /** The shortest time between the starts of two ticks (DBFORM_POLL_MS). */
  minSpacingMs: number;
}

/** What a tick asks of its source: the keys due now, and the keys of every waiter (each once). */
export interface ReadRequest {
  due: string[];
  waiting: string[];
}

export class PollChannel<S extends Covering> {
  private readonly waiters = new Set<ChannelWaiter<S>>();
  private timer: TimerHandle | undefined;
  /** When the armed timer fires, and the latest a tick may wait for a later waiter (see schedule). */
  private armedAt = Infinity;
  private armedDeadline = Infinity;
  private inFlight = false;
  private closed = false;
  private lastTickAt = -Infinity;
  /** Ticks so far (each one list, or one round of per-resource reads). */
  ticks = 0;

  constructor(
    private readonly fetch: (request: ReadRequest) => Promise<S>,
    /** Whether a fetch error ends every wait (else polling goes on until each wait's timeout). */
    private readonly isFatal: (err: unknown) => boolean,
    private readonly options: ChannelOptions,
  ) {}

  get size(): number {
    return this.waiters.size;
  }

  add(waiter: ChannelWaiter<S>): void {
    this.waiters.add(waiter);
    const { dueAt, intervalMs } = waiter.schedule;
    if (this.timer === undefined || dueAt < this.armedAt) return this.schedule();
    // Due at or after the armed tick: the same answer as schedule() gives, without going over the
    // other waiters again (2,000 waits joining one by one would cost 2,000^2 steps).
    if (dueAt > this.armedDeadline) return;
    this.armedDeadline = Math.min(this.armedDeadline, dueAt + intervalMs / 3);
    if (dueAt > this.armedAt) this.arm(dueAt);
  }

  remove(waiter: ChannelWaiter<S>): void {
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
    this.armedAt = Infinity;
    this.armedDeadline = Infinity;
  }

  private arm(fireAt: number): void {
    if (this.timer !== undefined) this.options.timers.clearTimeout(this.timer);
    this.armedAt = fireAt;
    this.timer = this.options.timers.setTimeout(() => void this.tick(), Math.max(0, fireAt - this.options.timers.now()));
  }

  /**
   * (Re)arms the timer; a tick in flight reschedules when it ends. The tick fires at the latest due
   * time that keeps every waiter within a third of its spacing of its own due time, so waits that
   * started a few milliseconds apart (100 resizes answered one by one) share one read per tick
   * instead of drifting into several; and never sooner than minSpacingMs after the last tick.
   */
  private schedule(): void {
    if (this.inFlight || this.closed) return;
    this.clearTimer();
    if (this.waiters.size === 0) return;
    let due = Infinity;
    let deadline = Infinity;
    for (const w of this.waiters) {
      due = Math.min(due, w.schedule.dueAt);
      deadline = Math.min(deadline, w.schedule.dueAt + w.schedule.intervalMs / 3);
    }
    let fireAt = due;
    for (const w of this.waiters) if (w.schedule.dueAt <= deadline && w.schedule.dueAt > fireAt) fireAt = w.schedule.dueAt;
    this.armedDeadline = deadline;
    this.arm(Math.max(fireAt, this.lastTickAt + this.options.minSpacingMs));
  }

  private async tick(): Promise<void> {
    this.timer = undefined;
    this.armedAt = Infinity;
    this.armedDeadline = Infinity;
    this.inFlight = true;
    const at = this.options.timers.now();
    // Waiters joining from here on may need state newer than this read: the next tick serves them.
    const served = [...this.waiters];
    const due = new Set<string>();
    const waiting = new Set<string>();
    for (const w of served) {
      waiting.add(w.key);
      if (w.schedule.dueAt <= at) due.add(w.key);
    }
    if (due.size === 0) {
      // The waiter this tick was for has gone meanwhile.
      this.inFlight = false;
      this.schedule();
      return;
    }
    this.lastTickAt = at;
    this.ticks++;
    let snapshot: S | undefined;
    let error: unknown;
    try {
      snapshot = await this.fetch({ due: [...due], waiting: [...waiting] });
    } catch (err) {
      error = err;
    }
    this.inFlight = false;
    if (this.closed) return;
    for (const w of served) {
      if (!this.waiters.has(w)) continue;
      if (snapshot !== undefined) {
        if (!snapshot.covers(w.key)) continue;
        if (w.serve(snapshot, at)) {
          this.waiters.delete(w);
          continue;
        }
      } else if (this.isFatal(error)) {
        this.waiters.delete(w);
        w.fail(error);
        continue;
      } else {
        w.note(error);
        w.schedule.looked(at, false);
      }
    }
    this.schedule();
  }
}
