// The shape of a policy file: schemas/policy.schema.json, checked by ajv's code generated from it
// (./generated/policy-validator.ts, `npm run schema`), and what a schema cannot say (exactly one
// of deny/warn/plan_deny/plan_warn per rule; names unique across files, see load.ts). Each problem
// names the key or value to fix; load.ts turns its path into FILE:LINE:COL.
import { closestMatch, type KeywordError } from '../model/index.js';
import { validate } from './generated/policy-validator.js';
import type { RuleKind } from './types.js';

export type PathSeg = string | number;

export interface StructureProblem {
  path: PathSeg[];
  /** `key`: point at the key of the last segment (an unknown key); `value`: at its value. */
  target: 'key' | 'value';
  message: string;
}

type Validator = ((data: unknown) => boolean) & { errors?: KeywordError[] | null };

export const RULE_KINDS: readonly RuleKind[] = ['deny', 'warn', 'plan_deny', 'plan_warn'];
const RULE_KEYS = ['name', ...RULE_KINDS, 'message'];
const FILE_KEYS = ['version', 'rules'];
const NAME_RULE = 'a lowercase letter, then up to 62 lowercase letters, digits, hyphens or underscores';

const pathOf = (pointer: string): PathSeg[] =>
  pointer === '' ? [] : pointer.slice(1).split('/').map((s) => (/^\d+$/.test(s) ? Number(s) : s.replace(/~1/g, '/').replace(/~0/g, '~')));

export function formatPath(path: readonly PathSeg[]): string {
  return path.map((s, i) => (typeof s === 'number' ? `[${s}]` : i === 0 ? s : `.${s}`)).join('');
}

const describeValue = (v: unknown): string =>
  v === null ? 'nothing' : Array.isArray(v) ? 'a list' : typeof v === 'object' ? 'a mapping' : typeof v === 'string' ? `the string ${JSON.stringify(v)}` : `${typeof v} ${String(v)}`;

const expectedOf = (path: readonly PathSeg[]): string => {
  if (path.length === 0) return 'a mapping with version: 1 and rules:';
  if (path.length === 1 && path[0] === 'rules') return 'a list of rules';
  if (path.length === 2) return 'a rule: a mapping with name, one of deny, warn, plan_deny or plan_warn, and message';
  const key = path[path.length - 1];
  return key === 'name' || key === 'message' ? 'a string' : 'a string holding a CEL expression';
};

function describe(e: KeywordError): StructureProblem | undefined {
  const path = pathOf(e.instancePath);
  const at = path.length === 0 ? '' : `${formatPath(path)}: `;
  switch (e.keyword) {
    case 'type':
      return { path, target: 'value', message: `${at}expected ${expectedOf(path)}, found ${describeValue(e.data)}` };
    case 'const':
      return { path, target: 'value', message: `${at}this dbform reads policy files of version 1, found ${describeValue(e.data)}` };
    case 'required': {
      const missing = String(e.params.missingProperty);
      const what = path.length === 0 ? 'the file' : `${formatPath(path)}`;
      return { path, target: 'value', message: `${what} has no ${missing}${missing === 'message' ? ' (what a reviewer reads when the rule holds)' : ''}` };
    }
    case 'additionalProperties': {
      const key = String(e.params.additionalProperty);
      const allowed = path.length === 0 ? FILE_KEYS : RULE_KEYS;
      const near = closestMatch(key, allowed);
      const hint = near ? `did you mean ${near}?` : `${path.length === 0 ? 'a policy file' : 'a rule'} has ${allowed.join(', ')}`;
      return { path: [...path, key], target: 'key', message: `${at}unknown key ${JSON.stringify(key)}; ${hint}` };
    }
    case 'pattern':
      return { path, target: 'value', message: `${at}${JSON.stringify(e.data)} is not a rule name: ${NAME_RULE}` };
    case 'minLength':
      return { path, target: 'value', message: `${at}is empty` };
    case 'oneOf':
      return undefined; // checkRuleKinds says it in its own words
    default:
      return { path, target: 'value', message: `${at}${e.message ?? e.keyword}` };
  }
}

/** A wrong type says everything about a value: nothing else is said about it or below it. */
function dropShadowed(errors: readonly KeywordError[]): KeywordError[] {
  const typed = errors.filter((e) => e.keyword === 'type').map((e) => e.instancePath);
  return errors.filter((e) => e.keyword === 'type' || !typed.some((p) => e.instancePath === p || e.instancePath.startsWith(`${p}/`)));
}

/** Every rule names exactly one of deny, warn, plan_deny and plan_warn. */
function checkRuleKinds(data: unknown): StructureProblem[] {
  const rules = (data as { rules?: unknown } | null)?.rules;
  if (!Array.isArray(rules)) return [];
  const problems: StructureProblem[] = [];
  rules.forEach((rule: unknown, i) => {
    if (rule === null || typeof rule !== 'object' || Array.isArray(rule)) return;
    const kinds = RULE_KINDS.filter((k) => k in rule);
    const name = typeof (rule as { name?: unknown }).name === 'string' ? ` (${(rule as { name: string }).name})` : '';
    if (kinds.length === 0) problems.push({ path: ['rules', i], target: 'value', message: `rules[${i}]${name} has none of deny, warn, plan_deny and plan_warn; give exactly one` });
    if (kinds.length > 1) problems.push({ path: ['rules', i, kinds[1]!], target: 'key', message: `rules[${i}]${name} has ${kinds.join(' and ')}; give exactly one of deny, warn, plan_deny and plan_warn (write two rules)` });
  });
  return problems;
}

/** Every problem with the shape of one file's data, in document order. */
export function checkStructure(data: unknown): StructureProblem[] {
  const run = validate as Validator;
  const errors = run(data) ? [] : dropShadowed(run.errors ?? []).filter((e) => !e.schemaPath.includes('/oneOf/'));
  const problems = errors.map(describe).filter((p): p is StructureProblem => p !== undefined);
  return [...problems, ...checkRuleKinds(data)];
}
