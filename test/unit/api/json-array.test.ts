// A list body parsed item by item as it arrives must give exactly what JSON.parse of the whole
// body gives (as the transport decodes it: a leading BOM dropped), and fail exactly when it fails,
// however the bytes are cut into chunks.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { JsonArrayReader } from '../../../src/api/json-array.js';

type Outcome = { ok: true; value: unknown } | { ok: false };

/** What the transport gave before: undici's text() (a whole leading BOM dropped), then JSON.parse; empty: undefined. */
function whole(bytes: Buffer): Outcome {
  const text = (bytes.subarray(0, 3).equals(Buffer.from([0xef, 0xbb, 0xbf])) ? bytes.subarray(3) : bytes).toString('utf8');
  if (text.trim() === '') return { ok: true, value: undefined };
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch {
    return { ok: false };
  }
}

function streamed(bytes: Buffer, cuts: number[]): Outcome {
  const reader = new JsonArrayReader();
  let at = 0;
  for (const cut of [...new Set(cuts.map((c) => c % (bytes.length + 1)))].sort((a, b) => a - b)) {
    reader.write(bytes.subarray(at, cut));
    at = cut;
  }
  reader.write(bytes.subarray(at));
  try {
    return { ok: true, value: reader.end() };
  } catch {
    return { ok: false };
  }
}

const cuts = fc.array(fc.nat(), { maxLength: 12 });

describe('a JSON list body parsed as it arrives', () => {
  it.each([
    ['an empty array', '[]'],
    ['an empty array with spaces', ' [ \n ] \n'],
    ['objects with brackets, commas and escapes inside strings', '[{"a":"x,]}[{\\"","b":[1,{"c":"\\\\"}]},{"d":null}]'],
    ['scalars', '[1, -2.5e3, "s", true, false, null]'],
    ['multi-byte characters', '[{"name":"Zürich ☃ 𝄞"},"日本"]'],
    ['a BOM before the array', '\uFEFF[1,2]'],
    ['an object (not a list)', '{"error":"x"}'],
    ['a trailing comma', '[1,2,]'],
    ['a leading comma', '[,1]'],
    ['two commas', '[1,,2]'],
    ['a missing comma', '[1 2]'],
    ['text after the array', '[1] x'],
    ['a second array', '[1][2]'],
    ['an unterminated array', '[1,2'],
    ['an unterminated string', '["abc]'],
    ['mismatched brackets', '[{"a":1]}, 2]'],
    ['a stray closing brace', '[1, 2} , 3]'],
    ['nothing', ''],
    ['only spaces', '  \n'],
  ])('%s: as JSON.parse of the whole body, whatever the chunks', (_what, body) => {
    const bytes = Buffer.from(body, 'utf8');
    const expected = whole(bytes);
    for (let size = 1; size <= bytes.length + 1; size++) {
      const reader = new JsonArrayReader();
      for (let i = 0; i < bytes.length; i += size) reader.write(bytes.subarray(i, i + size));
      let got: Outcome;
      try {
        got = { ok: true, value: reader.end() };
      } catch {
        got = { ok: false };
      }
      expect(got, `chunks of ${size} bytes`).toStrictEqual(expected);
    }
  });

  it('a part of a BOM is not dropped (the body fails, as its text does)', () => {
    expect(streamed(Buffer.from([0xef, 0xbb, 0x5b, 0x5d]), [])).toStrictEqual({ ok: false });
    expect(whole(Buffer.from([0xef, 0xbb, 0x5b, 0x5d]))).toStrictEqual({ ok: false });
  });

  it('agrees with JSON.parse on random arrays cut into random chunks (seeded)', () => {
    fc.assert(
      fc.property(fc.array(fc.jsonValue(), { maxLength: 8 }), fc.constantFrom('', ' ', '\n  '), cuts, (items, space, at) => {
        const body = Buffer.from(`${space}${JSON.stringify(items, null, space.length > 0 ? 1 : undefined)}${space}`, 'utf8');
        const got = streamed(body, at);
        expect(got).toStrictEqual(whole(body));
        expect(got.ok).toBe(true);
      }),
      { seed: 17, numRuns: 1500 },
    );
  });

  it('agrees with JSON.parse on random near-JSON texts, valid or not (seeded)', () => {
    const token = fc.constantFrom('[', ']', '{', '}', ',', ':', '"a"', '"\\""', '"]"', '1', 'null', ' ', '\n', 'x', '"', '\\', 'é', '\uFEFF');
    fc.assert(
      fc.property(fc.array(token, { maxLength: 16 }), cuts, (tokens, at) => {
        const body = Buffer.from(tokens.join(''), 'utf8');
        expect(streamed(body, at)).toStrictEqual(whole(body));
      }),
      { seed: 17, numRuns: 4000 },
    );
  });
});
