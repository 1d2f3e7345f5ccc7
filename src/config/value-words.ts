// How a schema message says a value and a type: in the words of someone who writes YAML, not
// of JSON Schema (a mapping, a list, a whole number).
import { quoteValue } from './quote.js';

/** A value as a message shows it: a string quoted (and cut at 60 characters), a mapping or list by its kind. */
export function show(v: unknown): string {
  if (typeof v === 'string') {
    const text = quoteValue(v);
    // Cut between characters, never inside an escape such as \u2028.
    return text.length > 60 ? `${text.slice(0, 57).replace(/\\(u[0-9a-f]{0,3}|x[0-9a-f]?)?$/, '')}..."` : text;
  }
  return v === null ? 'null' : Array.isArray(v) ? 'a list' : typeof v === 'object' ? 'a mapping' : String(v);
}

/** What a message says was found instead: `the string "x"`, `the number 3`, `nothing (null)`. */
export const found = (v: unknown): string => (v === null ? 'nothing (null)' : typeof v === 'string' || typeof v === 'number' ? `the ${typeof v} ${show(v)}` : show(v));

const TYPE_WORDS: Record<string, string> = { string: 'a string', integer: 'a whole number', number: 'a number', boolean: 'true or false', object: 'a mapping', array: 'a list', null: 'null' };

/** `a, b or c`. */
export function joinList(items: readonly string[], word: 'or' | 'and'): string {
  return items.length <= 1 ? (items[0] ?? '') : `${items.slice(0, -1).join(', ')} ${word} ${items[items.length - 1]}`;
}
export const orList = (items: readonly string[]) => joinList(items, 'or');

/** The JSON types a field accepts, in words: `a string or null`. */
export function expectedTypes(types: readonly string[]): string {
  if (types.includes('boolean') && types.includes('null') && types.length === 2) return 'true, false or null';
  return orList(types.map((t) => TYPE_WORDS[t] ?? t));
}
