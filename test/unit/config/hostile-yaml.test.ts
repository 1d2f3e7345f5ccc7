// Every diagnostic about a hostile config is one line that starts with FILE:LINE:COL, and quotes
// the user's text escaped instead of printing its line breaks and invisible characters raw.
import { describe, expect, it } from 'vitest';
import { loadConfigInputs } from '../../../src/config/index.js';
import { quoteCode, quoteValue } from '../../../src/config/quote.js';
import { terminalLine } from '../../../src/model/terminal-text.js';
import { formatDiagnostic, type Diagnostic } from '../../../src/model/diagnostics.js';
import { HOSTILE_ENV, HOSTILE_YAML } from '../../support/hostile-yaml.js';

const UNSHOWN = /[\u0000-\u001f\u007f-\u009f\u2028\u2029\ufeff]/;

function diagnosticsOf(name: string): Diagnostic[] {
  const result = loadConfigInputs([{ file: `${name}.yaml`, content: HOSTILE_YAML[name]! }], { env: HOSTILE_ENV });
  return result.ok ? result.warnings : result.errors;
}

describe('hostile YAML: one positioned line per problem', () => {
  it('has a corpus worth the name', () => {
    expect(Object.keys(HOSTILE_YAML).length).toBeGreaterThanOrEqual(50);
  });

  it.each(Object.keys(HOSTILE_YAML))('%s', (name) => {
    for (const d of diagnosticsOf(name)) {
      const line = formatDiagnostic(d);
      expect(line, line).toMatch(new RegExp(`^${name}\\.yaml:[1-9]\\d*:[1-9]\\d*: \\S`));
      expect(UNSHOWN.test(line), JSON.stringify(line)).toBe(false);
      expect(d.code, line).toMatch(/^[a-z0-9-]+$/);
    }
  });

  it('quotes a block scalar holding ${ as one line', () => {
    expect(diagnosticsOf('block-literal-interpolation').map(formatDiagnostic)).toEqual([
      'block-literal-interpolation.yaml:5:11: services.db.name: "${env:NOPE\\nworld}" is not supported; write ${env:NAME} to read an environment variable, or $${ for a literal ${',
    ]);
  });

  it('quotes keys that span lines', () => {
    const [d] = diagnosticsOf('key-multi-line-nested');
    expect(d?.message).toBe('unknown key "cpu\\nmillis" under services.db; did you mean `cpu_millis`?');
    expect(diagnosticsOf('key-duplicate-multi-line').map((x) => x.message)).toEqual(['duplicate key "a\\nb" under x-a (first defined on line 4)']);
  });

  it('escapes line separators and invisible characters in values', () => {
    expect(diagnosticsOf('line-separator-in-value').map((x) => x.message)).toEqual([
      'services.db.environment: "\\u2029" is not an environment tag; use DEV or PROD (null means DEV)',
    ]);
    expect(diagnosticsOf('bom-in-middle')[0]?.message).toContain('"\\ufeffDEV" is not an environment tag');
  });

  it('quotes what was written when ${env:...} text spans lines', () => {
    expect(diagnosticsOf('env-written-multi-line')[0]?.message).toMatch(/^services\.db\.cpu_millis: "\$\{env:NUMBER\}\\n" gives the string "2000\\n"/);
  });
});

describe('quoting helpers', () => {
  it('leaves printable text alone and escapes the rest', () => {
    expect(quoteCode('cpu_millis')).toBe('`cpu_millis`');
    expect(quoteCode('a`b')).toBe('"a`b"');
    expect(quoteCode('a\nb')).toBe('"a\\nb"');
    expect(quoteValue('x\u2028y\u0085z\u202e')).toBe('"x\\u2028y\\x85z\\u202e"');
    expect(quoteCode('zero\u200bwidth')).toBe('"zero\\u200bwidth"');
    expect(terminalLine('tab\there\r\n')).toBe('tab\\there\\r\\n');
    expect(terminalLine('Zürich, 東京')).toBe('Zürich, 東京');
  });
});
