// Policy files -> compiled rules, or every problem at its FILE:LINE:COL. Each rule's expression is
// parsed and type-checked once, here, for the whole run.
//
// Two reads, one authority. Files are read first with js-yaml (already loaded by the config
// reader, and cheap), checked and compiled; when every file is sound, that is all, and the yaml
// package's Document API is loaded only if a position is ever asked for (a verdict shown, an
// evaluation error). When anything is wrong, every file is read again with the Document API,
// whose view decides: its problems are reported at the key, the value or the character inside
// the expression (scalar-offsets.ts), and if it finds none, its rules are used.
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { ParseError, serialize, type ASTNode, type Environment, type ParseResult } from '@marcbachmann/cel-js';
import { load as loadYaml } from 'js-yaml';
import { closestMatch, inDirectory, type Diagnostic, type Result, type SourceRef } from '../model/index.js';
import { ACTION_VARIABLES, createEnvironments, mentions, PLAN_VARIABLES, walkAst, type AstNodeView, type PolicyEnvironments } from './cel-env.js';
import { checkStructure, RULE_KINDS, type StructureProblem } from './structure.js';
import type { PolicyRuleSource, RuleKind } from './types.js';
import { FileReader, type ExpressionPositions } from './yaml-positions.js';

/**
 * A part of a rule's expression joined to the rest by `&&` that depends on the plan alone
 * (`workspace.startsWith("pr-")`) or on the action's op, kind, risk and reason alone
 * (`action.op == "deleteService"`): evaluate.ts computes it once per plan or per such action,
 * and when it is false the rule is (CEL's `&&` is false when any side is, errors aside).
 */
export interface Guard {
  program: ParseResult;
  scope: 'plan' | 'category';
}

/** One rule, compiled: what evaluate.ts runs. */
export interface CompiledRule extends PolicyRuleSource {
  program: ParseResult;
  /** False when the expression names neither action nor resource: one evaluation serves every action. */
  perAction: boolean;
  guards: readonly Guard[];
  /** Whether the guards are the whole expression (their conjunction is its value). */
  guardsAreAll: boolean;
  /** Where a character of the expression is in the file (an evaluation error's position). */
  positionAt(exprOffset: number): SourceRef;
}

/** A policy file as read: its path and the sha256 of its bytes (files.ts). */
export interface PolicyFileInfo {
  path: string;
  sha256: string;
  rules: number;
}

export interface PolicySet {
  files: PolicyFileInfo[];
  rules: CompiledRule[];
}

/** One file's text, as given (`path` is how it is named in every message). */
export interface PolicyText {
  path: string;
  text: string;
}

const PLAN_KINDS = new Set<RuleKind>(['plan_deny', 'plan_warn']);
const ACTION_NAMES = new Set<string>(ACTION_VARIABLES);
const CATEGORY_FIELDS = new Set(['op', 'kind', 'risk', 'reason']);
const KNOWN_FIELDS = ['id', 'op', 'address', 'kind', 'reason', 'risk', 'changes', 'path', 'before', 'after', 'create', 'update', 'replace', 'delete', 'adopt', 'move', 'unchanged', 'unmanaged', 'settling'];

/**
 * Reads and compiles the files; a file that cannot be read is an error like any other. Relative
 * paths are read from `cwd` when given (the run's directory, model/run-directory.ts).
 */
export async function loadPolicyFiles(paths: readonly string[], cwd?: string): Promise<Result<PolicySet>> {
  const texts: PolicyText[] = [];
  const errors: Diagnostic[] = [];
  for (const path of paths) {
    try {
      texts.push({ path, text: await readFile(inDirectory(cwd, path), 'utf8') });
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      const why = code === 'ENOENT' ? 'no such file' : code === 'EISDIR' ? 'it is a directory' : (err as Error).message;
      errors.push({ severity: 'error', message: `${path}: cannot read the policy file: ${why}`, code: 'policy-file' });
    }
  }
  const compiled = compilePolicies(texts);
  if (errors.length === 0) return compiled;
  return { ok: false, errors: [...errors, ...(compiled.ok ? [] : compiled.errors)] };
}

/** Parses, checks and compiles policy texts; every problem of every file is reported. */
export function compilePolicies(texts: readonly PolicyText[]): Result<PolicySet> {
  const envs = createEnvironments();
  const fast = texts.map((t) => compileSound(t, envs));
  if (fast.every((r) => r !== undefined)) {
    const rules = fast.flat() as CompiledRule[];
    if (new Set(rules.map((r) => r.name)).size === rules.length) return { ok: true, value: { files: texts.map((t, i) => fileInfo(t, fast[i]!.length)), rules }, warnings: [] };
  }
  return compileWithPositions(texts, envs);
}

const fileInfo = (t: PolicyText, rules: number): PolicyFileInfo => ({ path: t.path, sha256: createHash('sha256').update(t.text).digest('hex'), rules });

const once = <T>(make: () => T): (() => T) => {
  let value: T | undefined;
  return () => (value ??= make());
};

/** The rules of a file without a single problem; undefined at the first one (the slow read reports them). */
function compileSound(t: PolicyText, envs: PolicyEnvironments): CompiledRule[] | undefined {
  let data: unknown;
  try {
    data = loadYaml(t.text);
  } catch {
    return undefined;
  }
  if (checkStructure(data).length > 0) return undefined;
  const reader = once(() => new FileReader(t.path, t.text));
  const rules: CompiledRule[] = [];
  for (const [i, raw] of ((data as { rules: Record<string, string>[] }).rules ?? []).entries()) {
    const kind = RULE_KINDS.find((k) => k in raw)!;
    const compiled = compileRule(envs, { name: raw.name!, kind, expression: raw[kind]!, message: raw.message! }, once(() => reader().expression(['rules', i, kind], raw[kind]!)));
    if ('error' in compiled) return undefined;
    rules.push(compiled.rule);
  }
  return rules;
}

function compileWithPositions(texts: readonly PolicyText[], envs: PolicyEnvironments): Result<PolicySet> {
  const errors: Diagnostic[] = [];
  const files: PolicyFileInfo[] = [];
  const rules: CompiledRule[] = [];
  for (const t of texts) {
    const read = compileFile(t, envs);
    errors.push(...read.errors);
    rules.push(...read.rules);
    files.push(fileInfo(t, read.rules.length));
  }
  errors.push(...duplicateNames(rules));
  return errors.length > 0 ? { ok: false, errors } : { ok: true, value: { files, rules }, warnings: [] };
}

/** A rule name is unique across every file of the run: `policy NAME` must say which rule. */
function duplicateNames(rules: readonly CompiledRule[]): Diagnostic[] {
  const first = new Map<string, CompiledRule>();
  const out: Diagnostic[] = [];
  for (const r of rules) {
    const earlier = first.get(r.name);
    if (!earlier) first.set(r.name, r);
    else out.push(diagnostic(r.source, `rule ${r.name}: the name is already taken by the rule at ${earlier.source.file}:${earlier.source.line}:${earlier.source.col}; names are unique across the policy files`));
  }
  return out;
}

const diagnostic = (source: SourceRef, message: string): Diagnostic => ({ severity: 'error', message, source, code: 'policy' });

function compileFile(t: PolicyText, envs: PolicyEnvironments): { errors: Diagnostic[]; rules: CompiledRule[] } {
  const reader = new FileReader(t.path, t.text);
  const syntax = reader.syntaxErrors();
  if (syntax.length > 0) return { errors: syntax.map((e) => diagnostic(e.at, `YAML syntax error: ${e.message}`)), rules: [] };
  const data = reader.data();
  const problems = checkStructure(data);
  if (problems.length > 0) return { errors: sortByPosition(problems.map((p: StructureProblem) => diagnostic(reader.position(p.path, p.target), p.message))), rules: [] };
  const errors: Diagnostic[] = [];
  const rules: CompiledRule[] = [];
  ((data as { rules: Record<string, string>[] }).rules ?? []).forEach((raw, i) => {
    const kind = RULE_KINDS.find((k) => k in raw)!;
    const where = reader.expression(['rules', i, kind], raw[kind]!);
    const compiled = compileRule(envs, { name: raw.name!, kind, expression: raw[kind]!, message: raw.message! }, () => where);
    if ('error' in compiled) errors.push(compiled.error);
    else rules.push(compiled.rule);
  });
  return { errors, rules };
}

function sortByPosition(ds: Diagnostic[]): Diagnostic[] {
  return ds.sort((a, b) => a.source!.line - b.source!.line || a.source!.col - b.source!.col);
}

interface RawRule {
  name: string;
  kind: RuleKind;
  expression: string;
  message: string;
}

/** A compiled rule whose positions are found when first asked for. */
class Rule implements CompiledRule {
  constructor(
    readonly name: string,
    readonly kind: RuleKind,
    readonly expression: string,
    readonly message: string,
    readonly program: ParseResult,
    readonly perAction: boolean,
    readonly guards: readonly Guard[],
    readonly guardsAreAll: boolean,
    private readonly where: () => ExpressionPositions,
  ) {}

  get source(): SourceRef {
    return this.where().start;
  }

  positionAt(exprOffset: number): SourceRef {
    return this.where().at(exprOffset);
  }
}

function compileRule(envs: PolicyEnvironments, raw: RawRule, where: () => ExpressionPositions): { rule: CompiledRule } | { error: Diagnostic } {
  const planLevel = PLAN_KINDS.has(raw.kind);
  const env = planLevel ? envs.plan : envs.action;
  const fail = (offset: number | undefined, message: string) => ({
    error: diagnostic(offset === undefined ? where().start : where().at(offset), `rule ${raw.name} (${raw.kind}): ${message}`),
  });
  let program: ParseResult;
  try {
    program = env.parse(raw.expression);
  } catch (err) {
    if (!(err instanceof ParseError)) throw err;
    return fail(err.range?.start, `CEL syntax error: ${err.summary}`);
  }
  const checked = program.check();
  if (!checked.valid) {
    const e = checked.error!;
    const syntax = e instanceof ParseError;
    return fail(e.range?.start, `${syntax ? 'CEL syntax error' : 'CEL type error'}: ${explainTypeError(e.summary, planLevel)}`);
  }
  if (checked.type !== 'bool' && checked.type !== 'dyn') {
    return fail(0, `the expression gives a ${checked.type}, not a bool (true when the rule holds)`);
  }
  const ast = program.ast as ASTNode;
  const perAction = !planLevel && mentions(ast, ACTION_NAMES);
  const { guards, all } = perAction ? guardsOf(env, ast) : { guards: [], all: false };
  return { rule: new Rule(raw.name, raw.kind, raw.expression, raw.message, program, perAction, guards, all, where) };
}

/** The operands of a chain of `&&`, left to right. */
function conjuncts(ast: ASTNode): ASTNode[] {
  if (ast.op !== '&&') return [ast];
  const [left, right] = ast.args as [ASTNode, ASTNode];
  return [...conjuncts(left), ...conjuncts(right)];
}

/** 'plan', 'category' (action only as action.op/kind/risk/reason) or undefined (anything else). */
function scopeOf(ast: ASTNode): Guard['scope'] | undefined {
  let category = false;
  const readsAction = walkAst(ast, (n) => {
    if (n.op === '.' && Array.isArray(n.args)) {
      const [object, field] = n.args as [AstNodeView, string];
      if (object.op === 'id' && object.args === 'action' && CATEGORY_FIELDS.has(field)) {
        category = true;
        return 'skip';
      }
    }
    return n.op === 'id' && typeof n.args === 'string' && ACTION_NAMES.has(n.args) ? 'stop' : undefined;
  });
  if (readsAction) return undefined;
  return category ? 'category' : 'plan';
}

/** The guards of a per-action rule (see Guard); a part that does not compile on its own is left unguarded. */
function guardsOf(env: Environment, ast: ASTNode): { guards: Guard[]; all: boolean } {
  const parts = conjuncts(ast);
  const guards: Guard[] = [];
  for (const part of parts) {
    const scope = scopeOf(part);
    if (scope === undefined) continue;
    try {
      guards.push({ program: env.parse(serialize(part)), scope });
    } catch {
      // Never expected: the part was parsed once already. Unguarded is merely slower.
    }
  }
  return { guards, all: guards.length === parts.length };
}

/** The library's words, with what dbform knows beside them. */
function explainTypeError(summary: string, planLevel: boolean): string {
  const unknown = /^Unknown variable: (\S+)$/.exec(summary);
  if (unknown) {
    const names = planLevel ? PLAN_VARIABLES : [...ACTION_VARIABLES, ...PLAN_VARIABLES];
    const near = closestMatch(unknown[1]!, names);
    const seen = planLevel ? `plan_deny and plan_warn see ${PLAN_VARIABLES.join(', ')} (no action or resource)` : `rules see ${names.join(', ')}`;
    return `${summary}; ${near ? `did you mean ${near}? ` : ''}${seen}`;
  }
  const key = /^No such key: (\S+)$/.exec(summary);
  if (key) {
    const near = closestMatch(key[1]!, KNOWN_FIELDS);
    return near ? `${summary}; did you mean ${near}?` : summary;
  }
  return summary;
}
