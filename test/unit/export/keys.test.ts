import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { deriveKeys, passwordEnvName, slugKey, suffixedKey } from '../../../src/export/keys.js';
import { KEY_PATTERN } from '../../../src/model/address.js';

const items = (...names: string[]) => names.map((name, i) => ({ id: `id${String(i).padStart(3, '0')}`, name }));
const keysOf = (list: Array<{ id: string; name: string }>, prefix = 'svc', reserved?: Map<string, string>) => {
  const keys = deriveKeys(list, prefix, reserved);
  return list.map((i) => keys.get(i.id));
};

describe('slugKey', () => {
  it.each([
    ['billing-db', 'billing-db'],
    ['Billing DB', 'billing-db'],
    ['billing_db', 'billing-db'],
    ['  Billing   DB  ', 'billing-db'],
    ['a--b__c..d', 'a-b-c-d'],
    ['-leading-and-trailing-', 'leading-and-trailing'],
    ['UPPER', 'upper'],
    ['2fa', 'svc-2fa'],
    ['42', 'svc-42'],
    ['-7', 'svc-7'],
    ['Données clients', 'donnees-clients'],
    ['Ærøskøbing', 'r-sk-bing'],
    ['ﬁle', 'file'],
    ['ＡＢＣ', 'abc'],
    ['İstanbul', 'istanbul'],
    ['rocket 🚀 db', 'rocket-db'],
    ['数据库', 'svc'],
    ['', 'svc'],
    ['---', 'svc'],
    ['a: b # c', 'a-b-c'],
    ['${env:HOME}', 'env-home'],
  ])('%j -> %s', (name, key) => {
    expect(slugKey(name, 'svc')).toBe(key);
  });

  it('uses the prefix of the kind', () => {
    expect(slugKey('9net', 'vpc')).toBe('vpc-9net');
    expect(slugKey('1st', 'rs')).toBe('rs-1st');
  });

  it('truncates to 63 characters without a trailing hyphen', () => {
    expect(slugKey('x'.repeat(200), 'svc')).toBe('x'.repeat(63));
    expect(slugKey(`${'a'.repeat(62)} b`, 'svc')).toBe('a'.repeat(62));
    expect(slugKey(`9${'a'.repeat(100)}`, 'svc')).toBe(`svc-9${'a'.repeat(58)}`);
  });

  it('always gives a valid key (property)', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 200 }), fc.constantFrom('svc', 'vpc', 'rs'), (name, prefix) => {
        expect(slugKey(name, prefix)).toMatch(KEY_PATTERN);
      }),
      { numRuns: 2000 },
    );
  });
});

describe('suffixedKey', () => {
  it('keeps the whole within 63 characters', () => {
    expect(suffixedKey('billing-db', 2)).toBe('billing-db-2');
    expect(suffixedKey('a'.repeat(63), 2)).toBe(`${'a'.repeat(61)}-2`);
    expect(suffixedKey('a'.repeat(63), 10)).toBe(`${'a'.repeat(60)}-10`);
    expect(suffixedKey(`${'a'.repeat(60)}-bc`, 2)).toBe(`${'a'.repeat(60)}-2`);
  });
});

describe('deriveKeys', () => {
  it('gives names that collide after slugging -2, -3 in name order; a name that is its own slug keeps it', () => {
    expect(keysOf(items('billing_db', 'Billing DB', 'billing-db'))).toEqual(['billing-db-3', 'billing-db-2', 'billing-db']);
    expect(keysOf(items('Billing DB', 'billing_db'))).toEqual(['billing-db', 'billing-db-2']);
  });

  it('breaks ties between equal names by ID', () => {
    const list = [{ id: 'zzz', name: 'db' }, { id: 'aaa', name: 'db' }];
    const keys = deriveKeys(list, 'svc');
    expect(keys.get('aaa')).toBe('db');
    expect(keys.get('zzz')).toBe('db-2');
  });

  it('never lets a suffix take another name\'s own slug', () => {
    expect(keysOf(items('db', 'DB', 'db-2'))).toEqual(['db', 'db-3', 'db-2']);
    expect(keysOf(items('db', 'Db', 'DB', 'db-3'))).toEqual(['db', 'db-4', 'db-2', 'db-3']);
  });

  it('suffixes truncated keys and keeps them within 63 characters', () => {
    const a = `${'a'.repeat(70)}-one`;
    const b = `${'a'.repeat(70)}-two`;
    expect(keysOf(items(a, b))).toEqual(['a'.repeat(63), `${'a'.repeat(61)}-2`]);
  });

  it('gives names without any letter or digit the bare prefix, then suffixes', () => {
    // Code-unit order: データ (U+30C7) < 数据库 (U+6570) < 🚀 (U+D83D...).
    expect(keysOf(items('数据库', 'データ', '🚀'), 'svc')).toEqual(['svc-2', 'svc', 'svc-3']);
  });

  it('keeps reserved keys (from a lockfile) and derives around them', () => {
    const list = items('Billing DB', 'billing-db');
    const reserved = new Map([['id000', 'billing-db']]);
    expect(keysOf(list, 'svc', reserved)).toEqual(['billing-db', 'billing-db-2']);
    expect(keysOf(list, 'svc', new Map([['id001', 'legacy']]))).toEqual(['billing-db', 'legacy']);
  });

  it('ignores reserved keys that are invalid or taken twice', () => {
    expect(keysOf(items('a', 'b'), 'svc', new Map([['id000', 'Not Valid'], ['id001', 'a']]))).toEqual(['a-2', 'a']);
  });

  it('is deterministic: independent of input order, unique and valid (property)', () => {
    const names = fc.array(fc.oneof(fc.constantFrom('db', 'DB', 'db-2', 'Billing DB', 'billing_db', 'billing-db', '42', '数据', 'café', 'cafe', 'x'.repeat(80)), fc.string({ maxLength: 12 })), { maxLength: 30 });
    fc.assert(
      fc.property(names, fc.integer(), (list, seed) => {
        const withIds = list.map((name, i) => ({ id: `i${i}`, name }));
        const shuffled = [...withIds].sort((a, b) => ((a.id.length * 31 + seed) % 7) - ((b.id.length * 17 + seed) % 5) || (a.id < b.id ? 1 : -1));
        const one = deriveKeys(withIds, 'svc');
        const two = deriveKeys(shuffled, 'svc');
        expect([...two.entries()].sort()).toEqual([...one.entries()].sort());
        const keys = [...one.values()];
        expect(new Set(keys).size).toBe(keys.length);
        for (const k of keys) expect(k).toMatch(KEY_PATTERN);
      }),
      { numRuns: 500 },
    );
  });
});

describe('passwordEnvName', () => {
  it('is a valid environment variable name', () => {
    expect(passwordEnvName('billing-db-2')).toBe('BILLING_DB_2_PASSWORD');
    expect(passwordEnvName('svc')).toMatch(/^[A-Za-z_][A-Za-z0-9_]*$/);
  });
});
