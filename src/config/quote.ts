// User text inside a diagnostic. A diagnostic is one line (`FILE:LINE:COL: message`) that a
// terminal, a CI log and an editor's problem matcher show as written: line breaks, control and
// invisible characters in the keys and values it quotes are escaped, never printed raw.

/** Line breaks (also U+0085, U+2028, U+2029), controls, and characters that show as nothing or reorder text. */
const UNSHOWN = /[\u0000-\u001f\u007f-\u009f\u00ad\u061c\u180e\u200b-\u200f\u2028-\u202e\u2060-\u206f\ufeff\ufff9-\ufffb]/g;
const HAS_UNSHOWN = new RegExp(UNSHOWN.source);
const NAMED: Record<string, string> = { '\n': '\\n', '\r': '\\r', '\t': '\\t' };

/** `text` with every character that would not show as itself written as an escape (`\n`, `\u2028`). */
export function escapeUnshown(text: string): string {
  return text.replace(UNSHOWN, (c) => NAMED[c] ?? `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/** A string value as a message shows it: double-quoted, escaped. */
export function quoteValue(text: string): string {
  return escapeUnshown(JSON.stringify(text));
}

/** A key or written text in backticks; double-quoted and escaped when it holds what backticks cannot show. */
export function quoteCode(text: string): string {
  return text.includes('`') || HAS_UNSHOWN.test(text) ? quoteValue(text) : `\`${text}\``;
}

/** Text as written, unless it holds what would not show as itself: then double-quoted and escaped. */
export function quoteIfUnshown(text: string): string {
  return HAS_UNSHOWN.test(text) ? quoteValue(text) : text;
}

/** A message on one line, whatever the text it quotes (the loader's last word on every diagnostic). */
export function oneLine(message: string): string {
  return escapeUnshown(message);
}
