import type { Reporter } from '../../executor/events.js';
import type { PlanWhere } from '../../model/index.js';
import { createPaint } from './paint.js';
import { createPlainView } from './plain-view.js';
import { createTtyView } from './tty-view.js';

export interface ProgressView extends Reporter {
  close(): void;
}

/**
 * The live view on a TTY, plain timestamped lines otherwise; both from the same events. `stderr`,
 * when it is the same terminal, is written through the live view so its lines never land inside
 * the redrawn region.
 */
export function createProgressView(
  out: NodeJS.WriteStream,
  options: { color: boolean; verb?: string; tty?: boolean; stderr?: NodeJS.WriteStream; where?: PlanWhere },
): ProgressView {
  const paint = createPaint(options.color);
  const verb = options.verb ?? 'Apply';
  const where = options.where ? { where: options.where } : {};
  if (options.tty ?? out.isTTY === true) return createTtyView({ out, paint, verb, ...where, shared: options.stderr?.isTTY === true ? options.stderr : undefined });
  const lines = batchedWrites(out);
  const plain = createPlainView({ out: lines.stream, paint, verb, ...where });
  return {
    emit: (e) => {
      plain.emit(e);
      // The summary is the last word: on the stream before the command goes on to exit.
      if (e.type === 'summary') lines.flush();
    },
    close: () => lines.flush(),
  };
}

/**
 * The lines written within one turn of the event loop go out as one write: 2,000 creates answered
 * in a burst are a few hundred writes to a pipe, not ten thousand.
 */
function batchedWrites(out: NodeJS.WritableStream): { stream: NodeJS.WritableStream; flush(): void } {
  let pending: string[] = [];
  const flush = () => {
    if (pending.length === 0) return;
    const text = pending.join('');
    pending = [];
    out.write(text);
  };
  const stream = {
    write(chunk: string | Uint8Array): boolean {
      if (pending.length === 0) setImmediate(flush);
      pending.push(typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString());
      return true;
    },
  };
  return { stream: stream as unknown as NodeJS.WritableStream, flush };
}
