// How rules read the merged data: through guards that skip a value of the wrong type (the schema
// has already reported it).
import { isRecord, type Entry } from '../merge.js';

export const str = (obj: unknown, key: string): string | undefined => {
  const v = isRecord(obj) ? obj[key] : undefined;
  return typeof v === 'string' ? v : undefined;
};

/** `name`, or the key when it is left out (SPEC section 1). */
export const nameOf = (entry: Entry): string | undefined =>
  entry.value.name === undefined ? entry.key : str(entry.value, 'name');
