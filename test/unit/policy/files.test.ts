// Which policy files a run uses, and the hash a saved plan records of them.
import { describe, expect, it } from 'vitest';
import { compilePolicies, hashPolicies, policyPaths } from '../../../src/policy/index.js';

const text = (name: string) => `version: 1\nrules:\n  - name: ${name}\n    deny: action.op == "deleteService"\n    message: m\n`;

function files(...texts: Array<[string, string]>) {
  const r = compilePolicies(texts.map(([path, t]) => ({ path, text: t })));
  if (!r.ok) throw new Error('invalid');
  return r.value.files;
}

describe('policyPaths', () => {
  it('takes DBFORM_POLICY (split on :) and then every --policy, each once', () => {
    expect(policyPaths(['b.yaml', 'c.yaml', 'a.yaml'], 'a.yaml::ops/d.yaml:')).toEqual(['a.yaml', 'ops/d.yaml', 'b.yaml', 'c.yaml']);
    expect(policyPaths(undefined, undefined)).toEqual([]);
    expect(policyPaths([], '')).toEqual([]);
  });
});

describe('hashPolicies', () => {
  it('does not depend on the files\' paths or order', () => {
    const one = hashPolicies(files(['a.yaml', text('a')], ['b.yaml', text('b')]));
    expect(one).toMatch(/^sha256:[0-9a-f]{64}$/);
    expect(hashPolicies(files(['x/b.yaml', text('b')], ['y/a.yaml', text('a')]))).toBe(one);
  });

  it('changes with any byte of any file, a comment included', () => {
    const one = hashPolicies(files(['a.yaml', text('a')], ['b.yaml', text('b')]));
    expect(hashPolicies(files(['a.yaml', `${text('a')}# why\n`], ['b.yaml', text('b')]))).not.toBe(one);
    expect(hashPolicies(files(['a.yaml', text('a')]))).not.toBe(one);
  });

  it('is undefined without files: no policy is not any policy', () => {
    expect(hashPolicies([])).toBeUndefined();
  });
});
