import type { Reporter } from '../../executor/events.js';
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
  options: { color: boolean; verb?: string; tty?: boolean; stderr?: NodeJS.WriteStream },
): ProgressView {
  const paint = createPaint(options.color);
  const verb = options.verb ?? 'Apply';
  if (options.tty ?? out.isTTY === true) return createTtyView({ out, paint, verb, shared: options.stderr?.isTTY === true ? options.stderr : undefined });
  const plain = createPlainView({ out, paint, verb });
  return { emit: (e) => plain.emit(e), close: () => undefined };
}
