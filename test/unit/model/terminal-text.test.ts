import { describe, expect, it } from 'vitest';
import { terminalJson, terminalLine, terminalText } from '../../../src/model/terminal-text.js';

describe('terminal text (SPEC section 13: text from the API is data)', () => {
  it('makes escape sequences, bare CR, C1 and bidi controls visible; keeps tab and newline in multi-line text', () => {
    expect(terminalText('a\u001b]0;t\u0007b\u001b[2Jc\rd\u009be\u202ef\tg\nh\u0000')).toBe('a\\x1b]0;t\\x07b\\x1b[2Jc\\rd\\x9be\\u202ef\tg\nh\\x00');
    expect(terminalLine('one\ntwo\tthree\r')).toBe('one\\ntwo\\tthree\\r');
    expect(terminalLine('plain text, ünïcode ✓')).toBe('plain text, ünïcode ✓');
    // What shows as nothing: a name that looks like another one is told apart.
    expect(terminalLine('db\u200b-prod\u00ad\ufeff')).toBe('db\\u200b-prod\\xad\\ufeff');
  });

  it('JSON keeps the same value, with nothing a terminal acts on left raw', () => {
    const value = { m: 'x\u001b[2J\r\u009b\u202e\u2028\u007f' };
    const text = terminalJson(value, 2);
    // Only the newlines of the indentation are left as themselves.
    expect(text).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u2028\u202e]/);
    expect(JSON.parse(text)).toEqual(value);
    expect(terminalJson('plain')).toBe('"plain"');
  });
});
