// Progress for logs (CI, pipes): one timestamped line per state change, nothing redrawn.
// `2026-11-22T10:00:00Z service.db createService QUEUED`
import { formatElapsed } from '../../executor/duration.js';
import type { ApplyEvent, Reporter } from '../../executor/events.js';
import { terminalLine, terminalText, type PlanWhere } from '../../model/index.js';
import type { Paint } from './paint.js';
import { failureText, renderSummary } from './summary.js';

export interface ViewOptions {
  out: NodeJS.WritableStream;
  paint: Paint;
  /** "Apply" or "Destroy": the summary's first word. */
  verb?: string;
  /** The workspace and state of the run, named by the summary. */
  where?: PlanWhere;
}

export function timestamp(at: number): string {
  return new Date(at).toISOString().replace(/\.\d{3}Z$/, 'Z');
}

/** The text after the address and op for an event, or undefined when it prints nothing. */
export function describeEvent(event: ApplyEvent, paint: Paint): string | undefined {
  switch (event.type) {
    case 'action-start':
      // A settle step sends nothing: it starts by showing the status it waits out.
      return event.action.op === 'settle' ? undefined : 'started';
    case 'action-status':
      return event.status;
    case 'action-waiting': {
      const seen = event.status === undefined ? 'no status seen yet' : `status ${event.status}${event.knownStatus ? '' : ' (a status dbform does not know)'}`;
      return paint.yellow(`still waiting for ${event.waitingFor}: ${seen} for ${formatElapsed(event.forMs)}; waiting up to --timeout`);
    }
    case 'action-done': {
      if (event.action.op === 'settle') return paint.green(`settled (${formatElapsed(event.elapsedMs)})`);
      const id = event.resourceId ? `${event.adopted ? 'adopted ' : 'id '}${event.resourceId}, ` : '';
      const note = event.note ? `${terminalLine(event.note)}, ` : '';
      return paint.green(`done (${id}${note}${formatElapsed(event.elapsedMs)})`);
    }
    case 'action-failed':
      return paint.red(`failed after ${formatElapsed(event.elapsedMs)}: ${failureText(event.action.address, event.action.op, event.message)}`);
    case 'action-abandoned': {
      if (event.action.op === 'settle') return paint.yellow(`wait abandoned (interrupted after ${formatElapsed(event.elapsedMs)}; the next apply waits again)`);
      const id = event.resourceId ? `id ${event.resourceId}, ` : '';
      return paint.yellow(`sent; wait abandoned (${id}interrupted after ${formatElapsed(event.elapsedMs)})`);
    }
    case 'action-skipped':
      if (event.reason === 'interrupted') return paint.yellow(event.started ? 'interrupted before any change was made' : 'not started (interrupted)');
      if (event.root) return paint.yellow(`skipped: upstream ${event.root.op} ${event.root.address} ${event.reason === 'upstream-blocked' ? 'is blocked' : 'failed'}`);
      return paint.yellow('skipped');
    default:
      return undefined;
  }
}

export function createPlainView(options: ViewOptions): Reporter {
  const { out, paint } = options;
  const lastStatus = new Map<string, string>();
  const write = (at: number, text: string) => out.write(`${timestamp(at)} ${text}\n`);
  return {
    emit(event) {
      switch (event.type) {
        case 'plan-start':
          write(
            event.at,
            `${(options.verb ?? 'Apply').toLowerCase()} started: ${event.actions} action(s), ${event.bindings} state binding(s), ` +
              `${event.settling ? `${event.settling} settling resource(s) to wait for, ` : ''}parallelism ${event.parallelism}`,
          );
          return;
        case 'binding': {
          const b = event.binding;
          const detail = b.kind === 'move' ? `from ${b.from}` : b.kind === 'protect' ? `protect=${b.protect}` : (b.id ?? '');
          write(event.at, `${b.address} ${b.kind} ${detail}`.trimEnd());
          return;
        }
        case 'warning':
          write(event.at, paint.yellow(`warning: ${event.address ? `${event.address}: ` : ''}${terminalText(event.message)}`));
          return;
        case 'lockfile-written':
          return;
        case 'summary':
          for (const line of renderSummary(event.result, paint, options.verb, options.where)) out.write(`${line}\n`);
          return;
        case 'action-status':
          // The same status seen on consecutive polls is not a state change.
          if (lastStatus.get(event.action.id) === event.status) return;
          lastStatus.set(event.action.id, event.status);
          break;
        default:
          break;
      }
      const text = describeEvent(event, paint);
      if (text !== undefined && 'action' in event) write(event.at, `${event.action.address} ${event.action.op} ${text}`);
    },
  };
}
