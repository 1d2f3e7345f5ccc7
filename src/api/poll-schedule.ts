// When one wait looks at its resource next (SPEC section 5, amended in turn 2): the first look
// DBFORM_POLL_MS after the wait starts, then looks spaced by a fifth of the time since the
// observed status last changed (the wait's start until the first change), never less than
// DBFORM_POLL_MS and never more than 10 x that, counted from the tick that last served the wait.
// A wait ends at most a fifth of its own length (or one interval at the start) after the status
// change: for operations of seconds one poll interval, for operations of minutes about 10% on
// average; BENCHMARKS.md gives the requests. (The x1.5 schedule of before turn 2 is kept by the
// bench alone: bench/critical-path.js.)

/** The share of the time since the last status change that the next interval may be. */
export const ELAPSED_FRACTION = 0.2;
/** The longest interval, in DBFORM_POLL_MS. */
export const MAX_INTERVAL_FACTOR = 10;

export class LookSchedule {
  /** When this wait wants fresh data next (epoch ms). */
  dueAt: number;
  /** The spacing around the next look; the channel lets a tick wait up to a third of it to share. */
  intervalMs: number;
  /** When the observed status last changed (the wait's start until the first change). */
  private since: number;

  constructor(
    private readonly pollMs: number,
    start: number,
    immediate: boolean,
  ) {
    this.since = start;
    this.dueAt = start + (immediate ? 0 : pollMs);
    this.intervalMs = pollMs;
  }

  /** The wait was served by the tick that started at `at` and is not finished; `changed`: it saw a new status. */
  looked(at: number, changed: boolean): void {
    if (changed) this.since = at;
    // Counted from the tick that served it, even one another wait asked for a little before its own
    // time: waits that started apart then share every later tick.
    this.dueAt = at + this.spacingAt(at);
    this.intervalMs = this.spacingAt(this.dueAt);
  }

  private spacingAt(t: number): number {
    const grown = (t - this.since) * ELAPSED_FRACTION;
    return Math.min(Math.max(this.pollMs, grown), this.pollMs * MAX_INTERVAL_FACTOR);
  }
}

/**
 * Looks a wait makes until an operation of `durationMs` is seen finished, and when it is seen
 * (ms after the wait starts), when no status changes on the way and nothing else shares its
 * ticks: what a schedule costs in requests and in lateness (bench/critical-path.js, BENCHMARKS.md).
 */
export function simulateLooks(pollMs: number, durationMs: number): { looks: number; seenAt: number } {
  const s = new LookSchedule(pollMs, 0, false);
  let looks = 0;
  for (;;) {
    const at = s.dueAt;
    looks++;
    if (at >= durationMs) return { looks, seenAt: at };
    s.looked(at, false);
  }
}
