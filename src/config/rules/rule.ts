// What every rule sees and returns. Rules run on the merged data even when the schema found
// problems (so that all errors come at once), so they read values through these guards and
// skip whatever has the wrong type: the schema has already said so.
import type { Diagnostic } from '../../model/diagnostics.js';
import { isRecord, type Entry, type MergedConfig } from '../merge.js';

export interface Rule {
  /** Code of the diagnostics it produces, e.g. `duplicate-name`. */
  code: string;
  check(config: MergedConfig): Diagnostic[];
}

export const str = (obj: unknown, key: string): string | undefined => {
  const v = isRecord(obj) ? obj[key] : undefined;
  return typeof v === 'string' ? v : undefined;
};

/** `name`, or the key when it is left out (SPEC section 1). */
export const nameOf = (entry: Entry): string | undefined =>
  entry.value.name === undefined ? entry.key : str(entry.value, 'name');
