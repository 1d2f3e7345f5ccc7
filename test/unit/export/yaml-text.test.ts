import fc from 'fast-check';
import { parse } from 'yaml';
import { describe, expect, it } from 'vitest';
import { loadConfigText } from '../../../src/config/index.js';
import { commentText, quotedValue, yamlString } from '../../../src/export/yaml-text.js';

/** Reads a value back the way `dbform plan` does: through the config loader (its YAML reader + interpolation). */
function readBack(scalar: string): string | undefined {
  const text = `version: 1\nproject_id: p\nvpcs:\n  main:\n    name: ${scalar}\n    cidr: 10.0.0.0/16\n    region_code: us-east-1\n`;
  const loaded = loadConfigText(text, 'x.yaml', { env: {} });
  return loaded.ok ? loaded.value.vpcs[0]!.name : undefined;
}

describe('yamlString', () => {
  it.each([
    ['main', 'main'],
    ['us-east-1', 'us-east-1'],
    ['10.10.0.0/16', '10.10.0.0/16'],
    ['vpc-eu.1', 'vpc-eu.1'],
    ['true', '"true"'],
    ['null', '"null"'],
    ['No', '"No"'],
    ['y', '"y"'],
    ['1234567890', '"1234567890"'],
    ['12e4567890', '"12e4567890"'],
    ['0x1f', '"0x1f"'],
    ['Billing DB', '"Billing DB"'],
    ['a: b # c', '"a: b # c"'],
    ['-dash', '"-dash"'],
    ['', '""'],
    ['${env:HOME}', '"$${env:HOME}"'],
    ['line\nbreak', '"line\\nbreak"'],
    ['tab\there', '"tab\\there"'],
    ['bell\u0007', '"bell\\u0007"'],
    ['nel\u0085', '"nel\\u0085"'],
    ['sep\u2028', '"sep\\u2028"'],
    ['bom\ufeff', '"bom\\uFEFF"'],
    ['q"b\\', '"q\\"b\\\\"'],
    ['Données 🚀', '"Données 🚀"'],
  ])('%j is written %s', (value, written) => {
    expect(yamlString(value)).toBe(written);
  });

  it('reads back exactly through the config loader and the yaml package (property)', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme', minLength: 1, maxLength: 40 }), (value) => {
        const scalar = yamlString(value);
        expect(readBack(scalar)).toBe(value);
        expect(scalar.includes('\n')).toBe(false);
      }),
      { numRuns: 1000 },
    );
    fc.assert(
      fc.property(fc.string({ unit: 'binary', minLength: 1, maxLength: 20 }), fc.constantFrom('${', '$${', '$', '}', '"', '\\', '#', ': '), (value, insert) => {
        const v = `${value}${insert}${value}`;
        expect(readBack(yamlString(v))).toBe(v);
      }),
      { numRuns: 1000 },
    );
  });

  it('keeps digit IDs strings when always quoted', () => {
    expect(quotedValue('123456789012')).toBe('"123456789012"');
    expect(parse(`a: ${quotedValue('0123')}`)).toEqual({ a: '0123' });
  });
});

describe('commentText', () => {
  it('never lets a comment span lines', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 40 }), (text) => {
        const doc = `# ${commentText(text)}\na: 1\n`;
        expect(parse(doc)).toEqual({ a: 1 });
      }),
      { numRuns: 1000 },
    );
  });
});
