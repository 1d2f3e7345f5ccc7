// Bytes -> text. YAML files must be UTF-8; a file saved as UTF-16 (common on Windows) or with a
// stray Latin-1 byte otherwise parses into confusing syntax errors, so say what is wrong instead.
import type { Diagnostic } from '../model/diagnostics.js';

export type DecodeResult = { ok: true; text: string } | { ok: false; error: Diagnostic };

/**
 * The text before the first invalid UTF-8 sequence, and that sequence's byte offset (-1: valid):
 * a lenient decoding's first U+FFFD that the bytes do not spell as EF BF BD.
 */
function validPrefix(bytes: Uint8Array): { text: string; at: number } {
  const lenient = new TextDecoder('utf-8', { ignoreBOM: true }).decode(bytes);
  const encoder = new TextEncoder();
  let at = 0;
  for (let i = 0, next = lenient.indexOf('\uFFFD'); next >= 0; i = next, next = lenient.indexOf('\uFFFD', next + 1)) {
    at += encoder.encode(lenient.slice(i, next)).length;
    if (!(bytes[at] === 0xef && bytes[at + 1] === 0xbf && bytes[at + 2] === 0xbd)) return { text: lenient.slice(0, next), at };
  }
  return { text: lenient, at: -1 };
}

/** Byte offset of the first invalid UTF-8 sequence, or -1 when the bytes are valid UTF-8. */
export const findInvalidUtf8 = (bytes: Uint8Array): number => validPrefix(bytes).at;

const hex = (b: number) => `0x${b.toString(16).toUpperCase().padStart(2, '0')}`;

/** Decodes a config file: UTF-8, with or without a byte order mark. */
export function decodeConfigBytes(bytes: Uint8Array, file: string): DecodeResult {
  const fail = (line: number, col: number, message: string): DecodeResult => ({ ok: false, error: { severity: 'error', message, source: { file, line, col }, code: 'encoding' } });
  const [b0, b1, b2, b3] = bytes;
  if (b0 === 0xff && b1 === 0xfe && b2 === 0 && b3 === 0) return fail(1, 1, 'the file is UTF-32 encoded (byte order mark FF FE 00 00); save it as UTF-8');
  if ((b0 === 0xff && b1 === 0xfe) || (b0 === 0xfe && b1 === 0xff)) return fail(1, 1, `the file is UTF-16 encoded (byte order mark ${hex(b0)} ${hex(b1!)}); save it as UTF-8`);
  const body = bytes.subarray(b0 === 0xef && b1 === 0xbb && b2 === 0xbf ? 3 : 0);
  try {
    return { ok: true, text: new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(body) };
  } catch {
    const { text, at } = validPrefix(body);
    const lines = text.split('\n');
    return fail(lines.length, [...lines.at(-1)!].length + 1, `the file is not valid UTF-8 (invalid byte sequence starting with ${hex(body[at] ?? 0)}); save it as UTF-8`);
  }
}
