import { describe, expect, it } from 'vitest';
import { formatElapsed, parseDuration } from '../../../src/executor/duration.js';

describe('parseDuration', () => {
  it.each([
    ['30m', 1_800_000],
    ['90s', 90_000],
    ['1h', 3_600_000],
    ['1h30m', 5_400_000],
    ['250ms', 250],
    ['1500', 1500],
    ['1.5s', 1500],
    ['3d', 259_200_000],
    ['1d12h', 129_600_000],
  ])('%s -> %i ms', (text, ms) => {
    expect(parseDuration(text)).toBe(ms);
  });

  it.each(['', 'soon', '10x', '-5m', 'm', '0s', '5 m', '0.1ms', '0.4ms', '99999999999d'])('rejects %j', (text) => {
    expect(parseDuration(text)).toBeUndefined();
  });
});

describe('formatElapsed', () => {
  it('reads naturally at every scale', () => {
    expect(formatElapsed(850)).toBe('850ms');
    expect(formatElapsed(12_400)).toBe('12s');
    expect(formatElapsed(185_000)).toBe('3m05s');
    expect(formatElapsed(3_720_000)).toBe('1h02m');
  });
});
