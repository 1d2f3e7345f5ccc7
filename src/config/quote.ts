// User text inside a diagnostic. A diagnostic is one line (`FILE:LINE:COL: message`) that a
// terminal, a CI log and an editor's problem matcher show as written: line breaks, control and
// invisible characters in the keys and values it quotes are escaped (model/terminal-text.ts),
// never printed raw.
import { terminalLine } from '../model/terminal-text.js';

const showsAsItself = (text: string): boolean => terminalLine(text) === text;

/** A string value as a message shows it: double-quoted, escaped. */
export function quoteValue(text: string): string {
  return terminalLine(JSON.stringify(text));
}

/** A key or written text in backticks; double-quoted and escaped when it holds what backticks cannot show. */
export function quoteCode(text: string): string {
  return text.includes('`') || !showsAsItself(text) ? quoteValue(text) : `\`${text}\``;
}

/** Text as written, unless it holds what would not show as itself: then double-quoted and escaped. */
export function quoteIfUnshown(text: string): string {
  return showsAsItself(text) ? text : quoteValue(text);
}
