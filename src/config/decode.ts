// Bytes -> text. YAML files must be UTF-8; a file saved as UTF-16 (common on Windows) or with a
// stray Latin-1 byte otherwise parses into confusing syntax errors, so say what is wrong instead.
import type { Diagnostic } from '../model/diagnostics.js';

export type DecodeResult = { ok: true; text: string } | { ok: false; error: Diagnostic };

/** Byte offset of the first invalid UTF-8 sequence, or -1 when the bytes are valid UTF-8. */
export function findInvalidUtf8(bytes: Uint8Array): number {
  let i = 0;
  while (i < bytes.length) {
    const b = bytes[i]!;
    if (b < 0x80) {
      i += 1;
      continue;
    }
    let need: number;
    let min: number;
    if (b >= 0xc2 && b <= 0xdf) [need, min] = [1, 0x80];
    else if (b >= 0xe0 && b <= 0xef) [need, min] = [2, 0x800];
    else if (b >= 0xf0 && b <= 0xf4) [need, min] = [3, 0x10000];
    else return i;
    if (i + need >= bytes.length) return i;
    let cp = b & (need === 1 ? 0x1f : need === 2 ? 0x0f : 0x07);
    for (let k = 1; k <= need; k++) {
      const c = bytes[i + k]!;
      if ((c & 0xc0) !== 0x80) return i;
      cp = (cp << 6) | (c & 0x3f);
    }
    // Overlong forms, UTF-16 surrogates and code points past U+10FFFF are not UTF-8.
    if (cp < min || (cp >= 0xd800 && cp <= 0xdfff) || cp > 0x10ffff) return i;
    i += need + 1;
  }
  return -1;
}

function positionOfByte(bytes: Uint8Array, offset: number): { line: number; col: number } {
  let line = 1;
  let lineStart = 0;
  for (let i = 0; i < offset; i++) {
    if (bytes[i] === 0x0a) {
      line += 1;
      lineStart = i + 1;
    }
  }
  // The prefix of the line is valid UTF-8 (the first invalid byte is at `offset`): count characters.
  const col = [...new TextDecoder().decode(bytes.subarray(lineStart, offset))].length + 1;
  return { line, col };
}

const hex = (b: number) => `0x${b.toString(16).toUpperCase().padStart(2, '0')}`;

/** Decodes a config file: UTF-8, with or without a byte order mark. */
export function decodeConfigBytes(bytes: Uint8Array, file: string): DecodeResult {
  const fail = (line: number, col: number, message: string): DecodeResult => ({
    ok: false,
    error: { severity: 'error', message, source: { file, line, col }, code: 'encoding' },
  });
  const [b0, b1, b2, b3] = [bytes[0], bytes[1], bytes[2], bytes[3]];
  if (b0 === 0xff && b1 === 0xfe && b2 === 0 && b3 === 0) {
    return fail(1, 1, 'the file is UTF-32 encoded (byte order mark FF FE 00 00); save it as UTF-8');
  }
  if ((b0 === 0xff && b1 === 0xfe) || (b0 === 0xfe && b1 === 0xff)) {
    return fail(1, 1, `the file is UTF-16 encoded (byte order mark ${hex(b0)} ${hex(b1!)}); save it as UTF-8`);
  }
  const start = b0 === 0xef && b1 === 0xbb && b2 === 0xbf ? 3 : 0;
  const body = bytes.subarray(start);
  try {
    return { ok: true, text: new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(body) };
  } catch {
    const bad = Math.max(0, findInvalidUtf8(body));
    const { line, col } = positionOfByte(body, bad);
    return fail(line, col, `the file is not valid UTF-8 (invalid byte sequence starting with ${hex(body[bad] ?? 0)}); save it as UTF-8`);
  }
}
