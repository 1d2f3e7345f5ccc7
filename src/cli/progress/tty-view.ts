// Progress for a person at a terminal: finished actions scroll up as permanent lines; below
// them, one live line per running action (address, op, status, elapsed), redrawn in place at
// most every 100 ms.
import { formatElapsed } from '../../executor/duration.js';
import type { ActionRef, ApplyEvent, Reporter } from '../../executor/events.js';
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
  size?: () => { columns: number; rows: number };
  now?: () => number;
  /**
   * The stream that shares the screen (stderr: warnings, --debug lines, the Ctrl-C notice). While
   * the view is live, each write to it first erases the live region, so the text lands below the
   * permanent lines and the next redraw starts from the right place.
   */
  shared?: NodeJS.WritableStream;
}

interface Running {
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
  const now = options.now ?? Date.now;
  // A pseudo-terminal may report 0 x 0: treat that as unknown.
  const size = options.size ?? (() => ({ columns: (out as { columns?: number }).columns || 100, rows: (out as { rows?: number }).rows || 30 }));
  const running = new Map<string, Running>();
  let permanent: string[] = [];
  let drawnLines = 0;
  let lastDraw = 0;
  let timer: NodeJS.Timeout | undefined;
  let closed = false;
  const ticker = setInterval(() => draw(), TICK_MS);
  ticker.unref();

  const liveLines = (): string[] => {
    const { columns, rows } = size();
    const width = Math.max(20, columns - 1);
    const max = Math.max(1, rows - 2);
    const entries = [...running.values()];
    const shown = entries.length > max ? entries.slice(0, max - 1) : entries;
    const opWidth = Math.max(0, ...shown.map((r) => r.ref.op.length));
    const rest = shown.map((r) => `  ${r.ref.op.padEnd(opWidth)}  ${r.status}  ${formatElapsed(now() - r.startedAt)}`);
    // The address is the part that never changes: in a narrow terminal it gives up its middle
    // so that the op, status and elapsed time stay in view.
    const addressWidth = Math.min(Math.max(0, ...shown.map((r) => r.ref.address.length)), Math.max(MIN_ADDRESS, width - 2 - Math.max(0, ...rest.map((t) => t.length))));
    const lines = shown.map((r, i) => {
      const text = `  ${cutMiddle(r.ref.address, addressWidth).padEnd(addressWidth)}${rest[i]}`;
      return text.length > width ? `${text.slice(0, width - 1)}…` : text;
    });
    if (shown.length < entries.length) lines.push(`  ... and ${entries.length - shown.length} more running`);
    return lines;
  };

  /** Erases the live region, prints the finished lines, then the live lines unless `withLive` is false. */
  function draw(withLive = true): void {
    if (closed) return;
    if (timer) clearTimeout(timer);
    timer = undefined;
    lastDraw = now();
    let text = drawnLines > 0 ? `${ESC}${drawnLines}A` : '';
    text += `\r${ESC}J`;
    for (const line of permanent) text += `${line}\n`;
    permanent = [];
    const live = withLive ? liveLines() : [];
    for (const line of live) text += `${paint.dim(line)}\n`;
    drawnLines = live.length;
    out.write(text);
  }

  // Writes to the shared stream: erase the live region first, redraw it below them soon after.
  const shared = options.shared;
  const sharedWrite = shared?.write;
  if (shared && sharedWrite) {
    shared.write = function (this: NodeJS.WritableStream, ...args: unknown[]) {
      if (!closed) {
        draw(false);
        scheduleDraw();
      }
      return (sharedWrite as (...a: unknown[]) => boolean).apply(shared, args);
    } as typeof shared.write;
  }

  const scheduleDraw = () => {
    if (closed || timer) return;
    const wait = Math.max(0, lastDraw + REDRAW_MS - now());
    timer = setTimeout(draw, wait);
    timer.unref();
  };

  // The last frame is erased, not left behind: whatever still shows as running (an interrupted
  // run) has its own permanent line or summary entry.
  const close = () => {
    if (closed) return;
    draw(false);
    closed = true;
    clearInterval(ticker);
    if (timer) clearTimeout(timer);
    if (shared && sharedWrite) shared.write = sharedWrite;
  };

  return {
    close,
    emit(event: ApplyEvent) {
      if (closed) return;
      switch (event.type) {
        case 'plan-start':
          permanent.push(paint.bold(`${options.verb ?? 'Apply'}: ${event.actions} action(s), parallelism ${event.parallelism}`));
          break;
        case 'binding':
          permanent.push(`${event.binding.address}: ${event.binding.kind}${event.binding.id ? ` ${event.binding.id}` : ''} (lockfile only)`);
          break;
        case 'warning':
          permanent.push(paint.yellow(`warning: ${event.address ? `${event.address}: ` : ''}${event.message}`));
          break;
        case 'action-start':
          running.set(event.action.id, { ref: event.action, status: 'starting', startedAt: event.at });
          break;
        case 'action-status': {
          const r = running.get(event.action.id);
          if (r) r.status = event.status;
          break;
        }
        case 'action-waiting':
          permanent.push(`${event.action.address} ${event.action.op} ${describeEvent(event, paint) ?? ''}`);
          break;
        case 'action-done':
        case 'action-abandoned':
        case 'action-failed':
        case 'action-skipped':
          running.delete(event.action.id);
          permanent.push(`${event.action.address} ${event.action.op} ${describeEvent(event, paint) ?? ''}`);
          break;
        case 'summary':
          close();
          for (const line of renderSummary(event.result, paint, options.verb)) out.write(`${line}\n`);
          return;
        default:
          return;
      }
      scheduleDraw();
    },
  };
}
