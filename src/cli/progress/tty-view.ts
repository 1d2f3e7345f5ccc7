// Progress for a person at a terminal: finished actions scroll up as permanent lines; below
// them, one live line per running action (address, op, status, elapsed), redrawn in place at
// most every 100 ms.
import { systemTimers, type TimerHandle, type Timers } from '../../api/timers.js';
import { formatElapsed } from '../../executor/duration.js';
import type { ActionRef, ApplyEvent, Reporter } from '../../executor/events.js';
import { terminalText } from '../../model/index.js';
import type { Paint } from './paint.js';
import { describeEvent, type ViewOptions } from './plain-view.js';
import { renderSummary } from './summary.js';

const REDRAW_MS = 100;
const TICK_MS = 1000;
const ESC = '\x1b[';
/** The fewest characters of an address a narrow terminal keeps, "service…ica-03". */
const MIN_ADDRESS = 12;

/** `service.analytics-warehouse-replica-03` in 20 columns: `service.ana…eplica-03`. */
export function cutMiddle(text: string, width: number): string {
  if (text.length <= width) return text;
  if (width <= 1) return text.slice(0, width);
  const tail = Math.floor((width - 1) / 2);
  return `${text.slice(0, width - 1 - tail)}…${text.slice(text.length - tail)}`;
}

export interface TtyViewOptions extends ViewOptions {
  /** Terminal width and height; live lines are cut to fit so redrawing never wraps. */
  size?: () => TerminalSize;
  /** The clock of elapsed times; default the timers' clock. */
  now?: () => number;
  /** The clock and timers of redraws; tests pass a fake one. */
  timers?: Timers;
  /**
   * The stream that shares the screen (stderr: warnings, --debug lines, the Ctrl-C notice). While
   * the view is live, each write to it first erases the live region, so the text lands below the
   * permanent lines and the next redraw starts from the right place.
   */
  shared?: NodeJS.WritableStream;
}

export interface TerminalSize {
  columns: number;
  rows: number;
}

export interface Running {
  ref: ActionRef;
  status: string;
  startedAt: number;
}

export interface TtyView extends Reporter {
  /** Stops the timers and leaves the cursor below the output. Safe to call twice. */
  close(): void;
}

export function createTtyView(options: TtyViewOptions): TtyView {
  const { out, paint } = options;
  const timers = options.timers ?? systemTimers;
  const now = options.now ?? (() => timers.now());
  const size = options.size ?? (() => terminalSize(out));
  const running = new Map<string, Running>();
  const region = createLiveRegion(out, paint);
  const redraw = scheduleRedraws(timers, now, (withLive) => region.draw(withLive ? renderLiveLines([...running.values()], size(), now()) : []));
  // Writes to the shared stream: erase the live region first, redraw it below them soon after.
  const restoreShared = options.shared
    ? interleaveWrites(options.shared, () => {
        redraw.now(false);
        redraw.soon();
      })
    : () => {};
  let closed = false;

  // The last frame is erased, not left behind: whatever still shows as running (an interrupted
  // run) has its own permanent line or summary entry.
  const close = () => {
    if (closed) return;
    redraw.stop();
    closed = true;
    restoreShared();
  };

  return {
    close,
    emit(event: ApplyEvent) {
      if (closed) return;
      if (event.type === 'summary') {
        close();
        for (const line of renderSummary(event.result, paint, options.verb, options.where)) out.write(`${line}\n`);
        return;
      }
      if (recordEvent(event, running, region, options)) redraw.soon();
    },
  };
}

/** A pseudo-terminal may report 0 x 0: that counts as unknown. */
function terminalSize(out: NodeJS.WritableStream): TerminalSize {
  const tty = out as { columns?: number; rows?: number };
  return { columns: tty.columns || 100, rows: tty.rows || 30 };
}

/** The frame: one line per running action (address, op, status, elapsed), cut to the terminal. */
export function renderLiveLines(entries: Running[], { columns, rows }: TerminalSize, nowMs: number): string[] {
  const width = Math.max(20, columns - 1);
  const max = Math.max(1, rows - 2);
  const shown = entries.length > max ? entries.slice(0, max - 1) : entries;
  const opWidth = Math.max(0, ...shown.map((r) => r.ref.op.length));
  const rest = shown.map((r) => `  ${r.ref.op.padEnd(opWidth)}  ${r.status}  ${formatElapsed(nowMs - r.startedAt)}`);
  // The address is the part that never changes: in a narrow terminal it gives up its middle
  // so that the op, status and elapsed time stay in view.
  const addressWidth = Math.min(Math.max(0, ...shown.map((r) => r.ref.address.length)), Math.max(MIN_ADDRESS, width - 2 - Math.max(0, ...rest.map((t) => t.length))));
  const lines = shown.map((r, i) => {
    const text = `  ${cutMiddle(r.ref.address, addressWidth).padEnd(addressWidth)}${rest[i]}`;
    return text.length > width ? `${text.slice(0, width - 1)}…` : text;
  });
  if (shown.length < entries.length) lines.push(`  ... and ${entries.length - shown.length} more running`);
  return lines;
}

interface LiveRegion {
  /** A finished line, printed above the live lines at the next draw. */
  add(line: string): void;
  /** Erases the live lines drawn last, prints the finished lines, then `live` below them. */
  draw(live: string[]): void;
}

function createLiveRegion(out: NodeJS.WritableStream, paint: Paint): LiveRegion {
  let permanent: string[] = [];
  let drawnLines = 0;
  return {
    add: (line) => void permanent.push(line),
    draw(live) {
      let text = drawnLines > 0 ? `${ESC}${drawnLines}A` : '';
      text += `\r${ESC}J`;
      for (const line of permanent) text += `${line}\n`;
      permanent = [];
      for (const line of live) text += `${paint.dim(line)}\n`;
      drawnLines = live.length;
      out.write(text);
    },
  };
}

interface RedrawSchedule {
  /** Draws at once (without the live lines when `withLive` is false). */
  now(withLive?: boolean): void;
  /** Draws once REDRAW_MS have passed since the last draw, however many changes come meanwhile. */
  soon(): void;
  /** Draws the last frame without live lines, and stops every timer. */
  stop(): void;
}

/** When to draw: soon after a change, at most every REDRAW_MS, and every TICK_MS so elapsed times move. */
function scheduleRedraws(timers: Timers, now: () => number, draw: (withLive: boolean) => void): RedrawSchedule {
  let pending: TimerHandle | undefined;
  let ticker: TimerHandle | undefined;
  let lastDraw = 0;
  let stopped = false;
  const drawNow = (withLive = true) => {
    if (stopped) return;
    if (pending !== undefined) timers.clearTimeout(pending);
    pending = undefined;
    lastDraw = now();
    draw(withLive);
  };
  const tick = () => {
    ticker = unref(
      timers.setTimeout(() => {
        drawNow();
        tick();
      }, TICK_MS),
    );
  };
  tick();
  return {
    now: drawNow,
    soon() {
      if (stopped || pending !== undefined) return;
      pending = unref(timers.setTimeout(() => drawNow(), Math.max(0, lastDraw + REDRAW_MS - now())));
    },
    stop() {
      drawNow(false);
      stopped = true;
      timers.clearTimeout(ticker);
      if (pending !== undefined) timers.clearTimeout(pending);
    },
  };
}

/** Progress timers never keep the process alive: the apply they report on does. */
function unref(handle: TimerHandle): TimerHandle {
  (handle as { unref?: () => void }).unref?.();
  return handle;
}

/** Runs `before` ahead of every write to `shared`; returns what puts the stream's own write back. */
function interleaveWrites(shared: NodeJS.WritableStream, before: () => void): () => void {
  const write = shared.write;
  shared.write = function (this: NodeJS.WritableStream, ...args: unknown[]) {
    before();
    return (write as (...a: unknown[]) => boolean).apply(shared, args);
  } as typeof shared.write;
  return () => {
    shared.write = write;
  };
}

/** Updates the running actions and finished lines for an event; false when it changes nothing shown. */
function recordEvent(event: ApplyEvent, running: Map<string, Running>, region: LiveRegion, options: TtyViewOptions): boolean {
  const { paint } = options;
  switch (event.type) {
    case 'plan-start':
      region.add(paint.bold(`${options.verb ?? 'Apply'}: ${event.actions} action(s), parallelism ${event.parallelism}`));
      return true;
    case 'binding':
      region.add(`${event.binding.address}: ${event.binding.kind}${event.binding.id ? ` ${event.binding.id}` : ''} (state only)`);
      return true;
    case 'warning':
      region.add(paint.yellow(`warning: ${event.address ? `${event.address}: ` : ''}${terminalText(event.message)}`));
      return true;
    case 'action-start':
      running.set(event.action.id, { ref: event.action, status: 'starting', startedAt: event.at });
      return true;
    case 'action-status': {
      const r = running.get(event.action.id);
      if (r) r.status = event.status;
      return true;
    }
    case 'action-waiting':
      region.add(`${event.action.address} ${event.action.op} ${describeEvent(event, paint) ?? ''}`);
      return true;
    case 'action-done':
    case 'action-abandoned':
    case 'action-failed':
    case 'action-skipped':
      running.delete(event.action.id);
      region.add(`${event.action.address} ${event.action.op} ${describeEvent(event, paint) ?? ''}`);
      return true;
    default:
      return false;
  }
}
