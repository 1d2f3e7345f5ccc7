// The small pure helpers behind the rules and the decoder.
import { describe, expect, it } from 'vitest';
import { decodeConfigBytes, findInvalidUtf8 } from '../../../src/config/decode.js';
import { isRfc3339 } from '../../../src/kinds/service/config-rules.js';
import { closestMatch, editDistance, suggester } from '../../../src/model/suggest.js';
import { loadConfigText } from '../../../src/config/index.js';

describe('cidr rule', () => {
  it('lets adjacent blocks be, and catches a block inside another', () => {
    const vpcs = (a: string, b: string) =>
      `version: 1\nproject_id: p\nvpcs:\n  a: {cidr: ${a}, region_code: us-east-1}\n  b: {cidr: ${b}, region_code: us-east-1}\n`;
    expect(loadConfigText(vpcs('10.0.0.0/24', '10.0.1.0/24'), 'f', { env: {} }).ok).toBe(true);
    expect(loadConfigText(vpcs('10.0.0.0/8', '10.200.0.0/16'), 'f', { env: {} }).ok).toBe(false);
    expect(loadConfigText(vpcs('10.200.0.0/16', '10.0.0.0/8'), 'f', { env: {} }).ok).toBe(false);
  });
});

describe('isRfc3339', () => {
  it.each(['2026-11-01T00:00:00Z', '2024-02-29T23:59:59.123456z', '2026-11-01t10:00:00+05:30', '2026-12-31T23:59:60-00:00'])('accepts %s', (t) =>
    expect(isRfc3339(t)).toBe(true),
  );
  it.each(['2026-11-01', '2026-11-01T00:00:00', '2026-02-29T00:00:00Z', '2026-13-01T00:00:00Z', '2026-11-01 00:00:00Z', '2026-11-01T24:00:00Z', '2026-11-01T00:00:00+2400', 'now'])(
    'refuses %s',
    (t) => expect(isRfc3339(t)).toBe(false),
  );
});

describe('suggestions', () => {
  it('measures edits, counting a swap of neighbours as one', () => {
    expect(editDistance('replicas', 'replcas')).toBe(1);
    expect(editDistance('pooler', 'poolre')).toBe(1);
    expect(editDistance('', 'abc')).toBe(3);
  });

  it('suggests only close matches, ignoring case and _ versus -', () => {
    expect(closestMatch('sync-replicas', ['replicas', 'sync_replicas'])).toBe('sync_replicas');
    expect(closestMatch('Prod', ['DEV', 'PROD'])).toBe('PROD');
    expect(closestMatch('storage', ['name', 'pooler', 'vpc'])).toBeUndefined();
  });

  it('suggests among 10,000 keys through an index what a comparison with each finds one typo away', () => {
    const keys = Array.from({ length: 10_000 }, (_, i) => `svc-${i}`);
    const suggest = suggester(keys);
    for (const typo of ['svc-123', 'svc-1234x', 'svc_42', 'scv-7', 'sv-99', 'SVC-5000', 'svc-12345', 'db-main', 'svc-']) {
      expect(suggest(typo), typo).toBe(closestMatch(typo, keys));
    }
    expect(suggest('scv-7')).toBe('svc-7');
  });

  it('names ten keys and how many more when a reference among many matches none', () => {
    const services = Array.from({ length: 250 }, (_, i) => `  svc-${i}: {}`).join('\n');
    const result = loadConfigText(`version: 1\nproject_id: p\nservices:\n${services}\n  fork-me:\n    fork: { from: nowhere-near, strategy: NOW }\n`, 'f', { env: {} });
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.errors.map((d) => d.message)).toEqual([
      'services.fork-me.fork.from: no service `nowhere-near` under services: (defined services: svc-0, svc-1, svc-2, svc-3, svc-4, svc-5, svc-6, svc-7, svc-8, svc-9 and 241 more); for a service dbform does not manage write { service_id: "<service id>" }',
    ]);
  });
});

describe('UTF-8 checks', () => {
  const bytes = (...b: number[]) => new Uint8Array(b);
  it('finds the first invalid sequence', () => {
    expect(findInvalidUtf8(new TextEncoder().encode('ok é 😀'))).toBe(-1);
    expect(findInvalidUtf8(bytes(0x61, 0xc0, 0x80))).toBe(1); // overlong
    expect(findInvalidUtf8(bytes(0x61, 0xed, 0xa0, 0x80))).toBe(1); // UTF-16 surrogate
    expect(findInvalidUtf8(bytes(0x61, 0x62, 0xe2, 0x82))).toBe(2); // truncated
    expect(findInvalidUtf8(bytes(0xf4, 0x90, 0x80, 0x80))).toBe(0); // past U+10FFFF
  });

  it('points at the line and column of the bad byte, and strips a UTF-8 byte order mark', () => {
    const bad = decodeConfigBytes(bytes(0x61, 0x0a, 0xc3, 0xa9, 0xff), 'f.yaml');
    expect(bad).toEqual({
      ok: false,
      error: { severity: 'error', message: 'the file is not valid UTF-8 (invalid byte sequence starting with 0xFF); save it as UTF-8', source: { file: 'f.yaml', line: 2, col: 2 }, code: 'encoding' },
    });
    expect(decodeConfigBytes(bytes(0xef, 0xbb, 0xbf, 0x61), 'f.yaml')).toEqual({ ok: true, text: 'a' });
    expect(decodeConfigBytes(bytes(0xfe, 0xff, 0, 0x61), 'f.yaml').ok).toBe(false);
  });
});
