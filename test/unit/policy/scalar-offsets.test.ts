// The walk from a scalar's value back to its source characters, for every style the yaml package
// writes (folded at a short line width, so that folding and escapes happen), on random text.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Document, isMap, isScalar, parseDocument, Scalar } from 'yaml';
import { mapScalarOffsets, type ScalarStyle } from '../../../src/policy/scalar-offsets.js';

const STYLES: ScalarStyle[] = ['PLAIN', 'QUOTE_SINGLE', 'QUOTE_DOUBLE', 'BLOCK_LITERAL', 'BLOCK_FOLDED'];

/** The value written in `style` as the yaml package writes it, read back: source, node range, style, value. */
function written(value: string, style: ScalarStyle) {
  const doc = new Document({ deny: value });
  const node = (doc.contents as { items: { value: Scalar }[] }).items[0]!.value;
  node.type = style;
  const src = doc.toString({ lineWidth: 24, minContentWidth: 8 });
  const back = parseDocument(src);
  const map = back.contents;
  const scalar = isMap(map) ? map.items[0]?.value : undefined;
  // The yaml package writes a few texts as plain scalars that read back as something else.
  if (back.errors.length > 0 || !isScalar(scalar) || scalar.value !== value) return undefined;
  return { src, range: scalar.range!, type: (scalar.type ?? 'PLAIN') as ScalarStyle, value: String(scalar.value) };
}

// CEL-looking text: words, operators, quotes, backslashes, spaces, some line breaks and non-ASCII.
const celText = fc
  .array(fc.constantFrom('action.op', ' ', '  ', '==', '"x"', "'y'", '\\', '&&', '(', ')', 'has(resource.ha)', '\n', 'é', '[1, 2]', '#', ':', '-', '\t'), { minLength: 1, maxLength: 30 })
  .map((parts) => parts.join(''));

describe('mapScalarOffsets', () => {
  it('maps every character of a value to a character of the source that writes it, in order', () => {
    fc.assert(
      fc.property(celText, fc.constantFrom(...STYLES), (text, style) => {
        const w = written(text, style);
        fc.pre(w !== undefined);
        if (w === undefined) return;
        const offsets = mapScalarOffsets(w.src, w.range[0], w.range[1], w.type, w.value);
        // The walk may only give up on a shape it does not know; the yaml package writes none.
        expect(offsets, `${w.type}: ${JSON.stringify(w.src)}`).toBeDefined();
        for (let i = 0; i < w.value.length; i++) {
          const at = offsets![i]!;
          if (i > 0) expect(at).toBeGreaterThanOrEqual(offsets![i - 1]!);
          const c = w.value[i]!;
          if (c === ' ' || c === '\n' || c === '\t') continue; // folding and indentation move whitespace
          const written = w.src[at];
          const ok = written === c || (w.type === 'QUOTE_DOUBLE' && written === '\\');
          expect(ok, `${JSON.stringify(w.src)} [${i}] ${JSON.stringify(c)} at ${at}: ${JSON.stringify(written)}`).toBe(true);
        }
      }),
      { numRuns: 400 },
    );
  });

  it('gives up (undefined) when the source does not write the value', () => {
    expect(mapScalarOffsets('deny: abc', 6, 9, 'PLAIN', 'abd')).toBeUndefined();
  });
});
