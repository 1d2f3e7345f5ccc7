// Text from the API is data (SPEC section 13). Log lines, API error messages and the names and IDs
// of live resources are written with their control characters made visible: an escape sequence
// (`ESC]0;title BEL` retitles a terminal, `ESC[2J` clears it), a bare carriage return (which
// overwrites what a CI log shows of the line), C1 controls and bidirectional overrides (which
// reorder what a reader sees) never reach a terminal or a log as themselves. JSON output keeps
// them as JSON escapes, which decode to the same string.

/**
 * What shows as nothing or reorders what a reader sees: soft hyphen, Arabic letter mark, Mongolian
 * vowel separator, zero-width and bidi controls, line and paragraph separators, word joiners,
 * byte order mark, interlinear annotations.
 */
const INVISIBLE = '\\u00ad\\u061c\\u180e\\u200b-\\u200f\\u2028-\\u202e\\u2060-\\u206f\\ufeff\\ufff9-\\ufffb';
/** Controls other than tab and newline, DEL, C1, and the invisible characters. */
const CONTROLS = new RegExp(`[\\u0000-\\u0008\\u000b-\\u001f\\u007f-\\u009f${INVISIBLE}]`, 'g');
/** The same, and tab and newline: for text that must stay one line. */
const LINE_CONTROLS = new RegExp(`[\\u0000-\\u001f\\u007f-\\u009f${INVISIBLE}]`, 'g');
/** What JSON.stringify leaves as itself but a terminal would act on, or a reader would not see. */
const JSON_CONTROLS = new RegExp(`[\\u007f-\\u009f${INVISIBLE}]`, 'g');

const NAMED: Record<string, string> = { '\n': '\\n', '\r': '\\r', '\t': '\\t' };

const hex = (c: string, width: number) => c.charCodeAt(0).toString(16).padStart(width, '0');

/** `\x1b`, `\r`, `\u202e`: how an escaped character shows. */
function visible(c: string): string {
  return NAMED[c] ?? (c.charCodeAt(0) < 0x100 ? `\\x${hex(c, 2)}` : `\\u${hex(c, 4)}`);
}

/** Text that may span lines (an error message): every control but tab and newline made visible. */
export function terminalText(text: string): string {
  return text.replace(CONTROLS, visible);
}

/** Text that must stay on its line (a log line, a name, an ID, a diagnostic): tab and newline made visible too. */
export function terminalLine(text: string): string {
  return text.replace(LINE_CONTROLS, visible);
}

/** JSON.stringify, with what it leaves raw but a terminal acts on written as `\uXXXX`: the same JSON value. */
export function terminalJson(value: unknown, space?: number): string {
  return JSON.stringify(value, null, space).replace(JSON_CONTROLS, (c) => `\\u${hex(c, 4)}`);
}
