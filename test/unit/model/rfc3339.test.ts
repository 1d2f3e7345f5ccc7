import { describe, expect, it } from 'vitest';
import { parseRfc3339 } from '../../../src/model/rfc3339.js';

describe('parseRfc3339 (config target_time, logs --since/--until, the emulator)', () => {
  it('reads offsets, fractions and leap seconds', () => {
    expect(parseRfc3339('2026-01-02T03:04:05.123+02:00')).toBe(Date.parse('2026-01-02T01:04:05.123Z'));
    expect(parseRfc3339('2026-01-02 03:04:05z')).toBe(Date.parse('2026-01-02T03:04:05Z'));
    expect(parseRfc3339('2016-12-31T23:59:60Z')).toBe(Date.parse('2017-01-01T00:00:00Z'));
    expect(parseRfc3339('2024-02-29T12:00:00Z')).toBe(Date.parse('2024-02-29T12:00:00Z'));
    expect(new Date(parseRfc3339('0050-06-01T00:00:00Z')!).toISOString()).toBe('0050-06-01T00:00:00.000Z');
  });

  it('refuses a space for the T only when asked', () => {
    expect(parseRfc3339('2026-01-02 03:04:05Z', { space: false })).toBeUndefined();
    expect(parseRfc3339('2026-01-02T03:04:05Z', { space: false })).toBe(Date.parse('2026-01-02T03:04:05Z'));
  });

  it('refuses impossible dates and times instead of rolling them over', () => {
    for (const text of ['2026-02-30T00:00:00Z', '2025-02-29T00:00:00Z', '2026-04-31T00:00:00Z', '2026-01-01T24:00:00Z', '2026-01-01T00:60:00Z', '2026-01-01T00:00:61Z', '2026-00-10T00:00:00Z', '2026-01-01T00:00:00+24:00', '2026-01-01', 'yesterday']) {
      expect(parseRfc3339(text), text).toBeUndefined();
    }
  });
});
