// One reading of a pgpass line for the writer, the state's password lookup and `dbform output`.
import { describe, expect, it } from 'vitest';
import { formatPgpassLine, parsePgpassLine, splitPgpassLine } from '../../../src/model/index.js';

describe('a pgpass line', () => {
  it('is five fields with backslash escapes undone', () => {
    expect(splitPgpassLine('h:5432:db:u:p\\:w\\\\d')).toEqual(['h', '5432', 'db', 'u', 'p:w\\d']);
  });

  it('keeps the colons of the password after the fourth, as libpq does', () => {
    expect(splitPgpassLine('h:5432:db:u:pa:ss:word')).toEqual(['h', '5432', 'db', 'u', 'pa:ss:word']);
    expect(parsePgpassLine('h:5432:db:u:pa:ss')).toEqual({ host: 'h', port: 5432, database: 'db', user: 'u', password: 'pa:ss' });
  });

  it('is nothing for a comment, a blank or fewer than five fields', () => {
    for (const line of ['', '   ', '# h:1:d:u:p', 'h:1:d:u', 'not a line']) expect(splitPgpassLine(line), line).toBeUndefined();
  });

  it('with a wildcard port is read for lookups but never taken for a line dbform may rewrite', () => {
    expect(splitPgpassLine('*:*:*:u:secret')).toEqual(['*', '*', '*', 'u', 'secret']);
    expect(parsePgpassLine('*:*:*:u:secret')).toBeUndefined();
  });

  it('reads back what is written, whatever the password holds', () => {
    const entry = { host: 'h.example', port: 6543, database: 'tsdb', user: 'tsdbadmin', password: 'a:b\\c:' };
    expect(parsePgpassLine(formatPgpassLine(entry))).toEqual(entry);
  });
});
