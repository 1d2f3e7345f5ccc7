// Scalars and comments written so that every YAML 1.2 reader (dbform's loader, the `yaml`
// package, editors) reads back exactly the live value: a word stays plain only when no reader
// could take it for anything but that string; everything else is double-quoted with escapes.

const PLAIN_WORD = /^[A-Za-z][A-Za-z0-9_./-]*$/;
const CIDR_SHAPE = /^[0-9]{1,3}(\.[0-9]{1,3}){3}\/[0-9]{1,2}$/;
/** Words some YAML reader resolves to null or a boolean (1.2 core, and 1.1 for older tools). */
const RESERVED_WORDS = /^(null|true|false|yes|no|on|off|y|n)$/i;

/** The loader reads `${env:NAME}` in every string and `$${` as a literal `${`: keep `${` literal. */
const escapeInterpolation = (value: string): string => value.replace(/\$\{/g, () => '$${');

/** A string value: plain when safe, else double-quoted; reads back as exactly `value`. */
export function yamlString(value: string): string {
  if ((PLAIN_WORD.test(value) && !RESERVED_WORDS.test(value)) || CIDR_SHAPE.test(value)) return value;
  return doubleQuoted(escapeInterpolation(value));
}

/** A string value, always double-quoted (for digit strings such as account and VPC IDs). */
export const quotedValue = (value: string): string => doubleQuoted(escapeInterpolation(value));

/**
 * A double-quoted scalar on one line. Characters YAML does not allow raw (C0/C1 controls, DEL,
 * line and paragraph separators, BOM, non-characters, lone surrogates) and the line breaks are
 * escaped; everything else, accents and emoji included, is written as is (UTF-8).
 */
export function doubleQuoted(value: string): string {
  let out = '"';
  for (let i = 0; i < value.length; i++) {
    const code = value.charCodeAt(i);
    const ch = value[i]!;
    if (ch === '"' || ch === '\\') out += `\\${ch}`;
    else if (ch === '\n') out += '\\n';
    else if (ch === '\t') out += '\\t';
    else if (ch === '\r') out += '\\r';
    else if (code >= 0xd800 && code <= 0xdbff && isLow(value.charCodeAt(i + 1))) {
      out += value.slice(i, i + 2);
      i++;
    } else if (needsEscape(code)) out += `\\u${code.toString(16).toUpperCase().padStart(4, '0')}`;
    else out += ch;
  }
  return `${out}"`;
}

const isLow = (code: number): boolean => code >= 0xdc00 && code <= 0xdfff;

function needsEscape(code: number): boolean {
  return (
    code < 0x20 ||
    (code >= 0x7f && code <= 0x9f) ||
    code === 0x2028 ||
    code === 0x2029 ||
    code === 0xfeff ||
    code === 0xfffe ||
    code === 0xffff ||
    (code >= 0xd800 && code <= 0xdfff)
  );
}

/** Comment text on one line: any character that could end or corrupt the line is escaped. */
export function commentText(text: string): string {
  return text.replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029\ufeff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}`);
}

/** A name inside a comment: quoted and escaped like a scalar, so any name reads unambiguously. */
export const quotedName = (name: string): string => commentText(doubleQuoted(name));
