// Loading policy files: every problem is one line at FILE:LINE:COL, CEL errors at the character
// inside the expression, for every way YAML can write the expression.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { renderPolicyValidatorSource } from '../../../src/codegen/validators.js';
import { formatDiagnostic } from '../../../src/model/index.js';
import { compilePolicies, loadPolicyFiles } from '../../../src/policy/index.js';
import { removeTempDirs, tempDir } from '../../support/temp-dir.js';

afterAll(removeTempDirs);

/** The lines `dbform` prints for these files, or `ok: N rules`. */
function load(...texts: string[]): string[] {
  const r = compilePolicies(texts.map((text, i) => ({ path: `p${i + 1}.yaml`, text })));
  return r.ok ? [`ok: ${r.value.rules.length} rules`] : r.errors.map(formatDiagnostic);
}

const rule = (body: string, name = 'r') => `version: 1\nrules:\n  - name: ${name}\n${body}\n    message: m\n`;

describe('loading policy files', () => {
  it('compiles a valid file, each rule once, with the position of its expression', () => {
    const r = compilePolicies([{ path: 'a.yaml', text: rule('    deny: action.op == "deleteService"') }]);
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.value.rules.map((x) => [x.name, x.kind, x.source])).toEqual([['r', 'deny', { file: 'a.yaml', line: 4, col: 11 }]]);
    expect(r.value.files).toEqual([{ path: 'a.yaml', sha256: expect.stringMatching(/^[0-9a-f]{64}$/), rules: 1 }]);
  });

  it('accepts a file without rules', () => {
    expect(load('version: 1\nrules: []\n')).toEqual(['ok: 0 rules']);
  });

  describe('a CEL syntax error points inside the expression', () => {
    it.each([
      ['plain', '    deny: action.op == && true', 'p1.yaml:4:24'],
      ['double-quoted with escapes', '    deny: "action.op == \\"x\\" && )"', 'p1.yaml:4:34'],
      ['single-quoted with a doubled quote', "    deny: 'action.op == ''x'' && )'", 'p1.yaml:4:34'],
      ['plain over two lines', '    deny: action.op == "x" &&\n      )', 'p1.yaml:5:7'],
      ['literal block', '    deny: |\n      action.op == "x" &&\n        )', 'p1.yaml:6:9'],
      ['folded block', '    deny: >-\n      action.op == "x"\n      && )', 'p1.yaml:6:10'],
      ['double-quoted over two lines', '    deny: "action.op == \\"x\\"\n      && )"', 'p1.yaml:5:10'],
    ])('%s', (_style, body, at) => {
      const [line] = load(rule(body));
      expect(line).toMatch(new RegExp(`^${at}: rule r \\(deny\\): CEL syntax error: `));
    });
  });

  describe('a CEL type error points at the offending part', () => {
    it('a misspelt field of action, with the field it resembles', () => {
      expect(load(rule('    deny: action.rsik == "data-loss"'))).toEqual(['p1.yaml:4:18: rule r (deny): CEL type error: No such key: rsik; did you mean risk?']);
    });

    it('a string compared with a number', () => {
      expect(load(rule('    warn: workspace.startsWith("pr-") && action.risk == 3'))).toEqual(['p1.yaml:4:42: rule r (warn): CEL type error: no such overload: string == int']);
    });

    it('a plan rule naming action', () => {
      expect(load(rule('    plan_deny: plan.delete > 3 && action.op == "x"'))).toEqual([
        'p1.yaml:4:35: rule r (plan_deny): CEL type error: Unknown variable: action; plan_deny and plan_warn see workspace, project_id, now, plan (no action or resource)',
      ]);
    });

    it('an unknown variable, with the one it resembles', () => {
      expect(load(rule('    deny: resorce.environment == "PROD"'))).toEqual([
        'p1.yaml:4:11: rule r (deny): CEL type error: Unknown variable: resorce; did you mean resource? rules see action, resource, workspace, project_id, now, plan',
      ]);
    });

    it('an expression that is not a bool', () => {
      expect(load(rule('    deny: action.op'))).toEqual(['p1.yaml:4:11: rule r (deny): the expression gives a string, not a bool (true when the rule holds)']);
    });

    it('in a literal block, on its own line', () => {
      expect(load(rule('    deny: |\n      action.risk == "data-loss" &&\n      plan.delte > 0'))).toEqual(['p1.yaml:6:12: rule r (deny): CEL type error: No such key: delte; did you mean delete?']);
    });
  });

  it('a YAML syntax error is positioned', () => {
    const [line] = load('version: 1\nrules:\n  - name: r\n    deny: "unclosed\n');
    // The yaml package finds the missing quote where the file ends.
    expect(line).toBe('p1.yaml:5:1: YAML syntax error: Missing closing "quote');
  });

  it('a key written twice is an error at the second', () => {
    const [line] = load(rule('    deny: "true"\n    deny: "false"'));
    expect(line).toMatch(/^p1\.yaml:5:5: YAML syntax error: Map keys must be unique/);
  });

  it('structure problems, each at the key or value to fix, in file order', () => {
    const text = [
      'version: 2',
      'rules:',
      '  - name: Bad Name',
      '    dney: action.op == "x"',
      '    message: m',
      '  - name: two',
      '    deny: "true"',
      '    warn: "false"',
      '    message: m',
      '  - name: none',
      '    message: m',
      '  - deny: "true"',
      'extra: 1',
      '',
    ].join('\n');
    expect(load(text)).toEqual([
      'p1.yaml:1:10: version: this dbform reads policy files of version 1, found number 2',
      'p1.yaml:3:5: rules[0] (Bad Name) has none of deny, warn, plan_deny and plan_warn; give exactly one',
      'p1.yaml:3:11: rules[0].name: "Bad Name" is not a rule name: a lowercase letter, then up to 62 lowercase letters, digits, hyphens or underscores',
      'p1.yaml:4:5: rules[0]: unknown key "dney"; did you mean deny?',
      'p1.yaml:8:5: rules[1] (two) has deny and warn; give exactly one of deny, warn, plan_deny and plan_warn (write two rules)',
      'p1.yaml:10:5: rules[2] (none) has none of deny, warn, plan_deny and plan_warn; give exactly one',
      'p1.yaml:12:5: rules[3] has no name',
      'p1.yaml:12:5: rules[3] has no message (what a reviewer reads when the rule holds)',
      'p1.yaml:13:1: unknown key "extra"; a policy file has version, rules',
    ]);
  });

  it('wrong types and empty values', () => {
    expect(load('version: 1\nrules:\n  name: r\n')).toEqual(['p1.yaml:3:3: rules: expected a list of rules, found a mapping']);
    expect(load(rule('    deny: 42'))).toEqual(['p1.yaml:4:11: rules[0].deny: expected a string holding a CEL expression, found number 42']);
    expect(load(rule('    deny: ""'))).toEqual(['p1.yaml:4:11: rules[0].deny: is empty']);
    expect(load('')).toEqual(['p1.yaml:1:1: expected a mapping with version: 1 and rules:, found nothing']);
  });

  it('a rule name is unique across files, and the second says where the first is', () => {
    expect(load(rule('    deny: "true"', 'same'), rule('    warn: "true"', 'same'))).toEqual([
      'p2.yaml:4:12: rule same: the name is already taken by the rule at p1.yaml:4:12; names are unique across the policy files',
    ]);
  });

  it('reports every file\'s problems, and a file that cannot be read', async () => {
    const dir = tempDir('dbform-policy-');
    writeFileSync(join(dir, 'bad.yaml'), rule('    deny: action.op =='));
    mkdirSync(join(dir, 'a-dir'));
    const r = await loadPolicyFiles([join(dir, 'missing.yaml'), join(dir, 'a-dir'), join(dir, 'bad.yaml')]);
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.errors.map(formatDiagnostic)).toEqual([
      `${join(dir, 'missing.yaml')}: cannot read the policy file: no such file`,
      `${join(dir, 'a-dir')}: cannot read the policy file: it is a directory`,
      expect.stringMatching(new RegExp(`^${join(dir, 'bad.yaml').replace(/[.]/g, '\\.')}:4:23: rule r \\(deny\\): CEL syntax error`)),
    ]);
  });

  it('checks the structure with the validator ajv compiles from schemas/policy.schema.json, committed as generated', () => {
    expect(readFileSync(join(import.meta.dirname, '../../../src/policy/generated/policy-validator.ts'), 'utf8')).toBe(renderPolicyValidatorSource());
  });
});
