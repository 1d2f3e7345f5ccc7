// Text-level helpers of the event reader (event-yaml.ts): what it checks on the whole text before
// reading, where a block scalar's header is, and strings that do not keep the file's text alive.

/** Characters the `yaml` package refuses or reads differently (controls, a BOM inside, U+2028/9, a lone CR). */
export const FORBIDDEN = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F\uFEFF\u2028\u2029]|\r(?!\n)/;

const DOCUMENT_END = /^\.\.\.(?:[ \t].*)?$/m;
const ONLY_COMMENTS = /^(?:[ \t]*(?:#.*)?(?:\r?\n|$))*$/;

/**
 * One `...` after the content and before nothing but comments ends the one document; the `yaml`
 * package reads any other (`...` before the content, twice) as a second, empty document.
 */
export function endsOneDocument(text: string): boolean {
  const end = DOCUMENT_END.exec(text);
  if (!end) return true;
  return ONLY_COMMENTS.test(text.slice(end.index + end[0].length)) && !ONLY_COMMENTS.test(text.slice(0, end.index).replace(/^---.*$/m, ''));
}

/** `a: |` or `- >-2 # c`: the offset of the indicator on the line before the content (-1: none found). */
export function blockHeaderOffset(text: string, contentStart: number): number {
  const lineEnd = text.lastIndexOf('\n', contentStart - 1);
  const lineStart = text.lastIndexOf('\n', lineEnd - 1) + 1;
  const header = /(?:^|[\s:-])([|>])[0-9+-]*[ \t]*(?:#.*)?\r?$/.exec(text.slice(lineStart, lineEnd));
  return header ? lineStart + header.index + header[0].indexOf(header[1]!) : -1;
}

/**
 * A string cut from the file is a view of the whole file's text in V8 (13 characters or more): the
 * desired state would keep the 5 MB text of a 10,000-service file alive through its values. A
 * concatenation read back is a copy of its own.
 */
export function detach(value: unknown): unknown {
  return typeof value === 'string' && value.length >= 13 ? `${value} `.slice(0, -1) : value;
}
