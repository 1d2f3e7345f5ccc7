// A clock for the in-process emulator (its `now` option) that a test can stop and move: while it
// stands, no transition ends, so a command that waits for one cannot finish, however slow or fast
// the machine (a lock stays held, a signal lands mid-apply, a service is still QUEUED). Moved by
// hand, a transition ends exactly when the test says.
export class EmulatorClock {
  private frozenAt: number | undefined;
  private offset = 0;

  /** Pass as the emulator's `now`. */
  readonly now = (): number => this.frozenAt ?? Date.now() + this.offset;

  /** Stops the clock where it is now. */
  freeze(): void {
    this.frozenAt = this.now();
  }

  /** Runs again, from where it stood (no time passed while it was frozen). */
  thaw(): void {
    if (this.frozenAt === undefined) return;
    this.offset = this.frozenAt - Date.now();
    this.frozenAt = undefined;
  }

  /** Moves it forward by `ms`, frozen or not. */
  advance(ms: number): void {
    if (this.frozenAt !== undefined) this.frozenAt += ms;
    else this.offset += ms;
  }
}
