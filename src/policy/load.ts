// Policy files -> compiled rules, or every problem at its FILE:LINE:COL. Each file is read with
// the yaml package's Document API (positions of every node), its shape checked (structure.ts),
// and each rule's expression parsed and type-checked once, here, for the whole run. A CEL error
// points at the character inside the expression, mapped to the file (scalar-offsets.ts).
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { ParseError, type ASTNode, type ParseResult } from '@marcbachmann/cel-js';
import { isAlias, isMap, isPair, isScalar, isSeq, LineCounter, parseDocument, type Document, type Node } from 'yaml';
import { closestMatch, type Diagnostic, type Result, type SourceRef } from '../model/index.js';
import { ACTION_VARIABLES, createEnvironments, mentions, PLAN_VARIABLES, type PolicyEnvironments } from './cel-env.js';
import { mapScalarOffsets, type ScalarStyle } from './scalar-offsets.js';
import { checkStructure, RULE_KINDS, type PathSeg, type StructureProblem } from './structure.js';
import type { PolicyRuleSource, RuleKind } from './types.js';

/** One rule, compiled: what evaluate.ts runs. */
export interface CompiledRule extends PolicyRuleSource {
  program: ParseResult;
  /** False when the expression names neither action nor resource: one evaluation serves every action. */
  perAction: boolean;
  /** Where a character of the expression is in the file (an evaluation error's position). */
  positionAt(exprOffset: number): SourceRef;
}

/** A policy file as read: its path and the sha256 of its bytes (hash.ts). */
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
const KNOWN_FIELDS = ['id', 'op', 'address', 'kind', 'reason', 'risk', 'changes', 'path', 'before', 'after', 'create', 'update', 'replace', 'delete', 'adopt', 'move', 'unchanged', 'unmanaged', 'settling'];

/** Reads and compiles the files; a file that cannot be read is an error like any other. */
export async function loadPolicyFiles(paths: readonly string[]): Promise<Result<PolicySet>> {
  const texts: PolicyText[] = [];
  const errors: Diagnostic[] = [];
  for (const path of paths) {
    try {
      texts.push({ path, text: await readFile(path, 'utf8') });
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
  const errors: Diagnostic[] = [];
  const files: PolicyFileInfo[] = [];
  const rules: CompiledRule[] = [];
  for (const t of texts) {
    const read = compileFile(t, envs);
    errors.push(...read.errors);
    rules.push(...read.rules);
    files.push({ path: t.path, sha256: createHash('sha256').update(t.text).digest('hex'), rules: read.rules.length });
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

class FileReader {
  readonly lines = new LineCounter();
  readonly doc: Document;
  constructor(
    readonly path: string,
    readonly text: string,
  ) {
    this.doc = parseDocument(text, { lineCounter: this.lines, prettyErrors: false, uniqueKeys: true, version: '1.2' });
  }

  at(offset: number): SourceRef {
    const { line, col } = this.lines.linePos(offset);
    return { file: this.path, line, col };
  }

  /** The node at `path` (or the deepest one reached), following aliases; a key when asked. */
  node(path: readonly PathSeg[], target: 'key' | 'value'): Node | undefined {
    let node: unknown = this.doc.contents;
    for (let i = 0; i < path.length; i++) {
      if (isAlias(node)) node = node.resolve(this.doc);
      const seg = path[i];
      let next: unknown;
      if (isMap(node)) {
        const pair = node.items.find((p) => isScalar(p.key) && String(p.key.value) === String(seg));
        next = pair && i === path.length - 1 && target === 'key' ? pair.key : pair?.value;
      } else if (isSeq(node) && typeof seg === 'number') next = node.items[seg];
      if (next === undefined || next === null) return node as Node | undefined;
      node = next;
    }
    return isPair(node) ? undefined : (node as Node | undefined);
  }

  position(path: readonly PathSeg[], target: 'key' | 'value' = 'value'): SourceRef {
    return this.at(this.node(path, target)?.range?.[0] ?? 0);
  }
}

function compileFile(t: PolicyText, envs: PolicyEnvironments): { errors: Diagnostic[]; rules: CompiledRule[] } {
  const reader = new FileReader(t.path, t.text);
  if (reader.doc.errors.length > 0) {
    return { errors: reader.doc.errors.map((e) => diagnostic(reader.at(e.pos[0]), `YAML syntax error: ${e.message.split('\n')[0]!.replace(/ at line \d+, column \d+:?$/, '')}`)), rules: [] };
  }
  const data: unknown = reader.doc.toJS({ maxAliasCount: 100 });
  const problems = checkStructure(data);
  if (problems.length > 0) return { errors: sortByPosition(problems.map((p) => structureDiagnostic(reader, p))), rules: [] };
  const errors: Diagnostic[] = [];
  const rules: CompiledRule[] = [];
  ((data as { rules: Record<string, string>[] }).rules ?? []).forEach((raw, i) => {
    const kind = RULE_KINDS.find((k) => k in raw)!;
    const compiled = compileRule(reader, envs, { index: i, name: raw.name!, kind, expression: raw[kind]!, message: raw.message! });
    if ('error' in compiled) errors.push(compiled.error);
    else rules.push(compiled.rule);
  });
  return { errors, rules };
}

function structureDiagnostic(reader: FileReader, p: StructureProblem): Diagnostic {
  return diagnostic(reader.position(p.path, p.target), p.message);
}

function sortByPosition(ds: Diagnostic[]): Diagnostic[] {
  return ds.sort((a, b) => a.source!.line - b.source!.line || a.source!.col - b.source!.col);
}

interface RawRule {
  index: number;
  name: string;
  kind: RuleKind;
  expression: string;
  message: string;
}

/** exprOffset -> file position: exact through the scalar's mapping, else the scalar's first character. */
function positionMapper(reader: FileReader, path: PathSeg[], expression: string): { start: SourceRef; at(offset: number): SourceRef } {
  const node = reader.node(path, 'value');
  const range = node?.range;
  const start = reader.at(range?.[0] ?? 0);
  if (!range || !isScalar(node)) return { start, at: () => start };
  const offsets = mapScalarOffsets(reader.text, range[0], range[1], (node.type ?? 'PLAIN') as ScalarStyle, expression);
  if (!offsets) return { start, at: () => start };
  return { start: reader.at(offsets[0]!), at: (o) => (o >= 0 && o < offsets.length ? reader.at(offsets[o]!) : start) };
}

function compileRule(reader: FileReader, envs: PolicyEnvironments, raw: RawRule): { rule: CompiledRule } | { error: Diagnostic } {
  const where = positionMapper(reader, ['rules', raw.index, raw.kind], raw.expression);
  const planLevel = PLAN_KINDS.has(raw.kind);
  const env = planLevel ? envs.plan : envs.action;
  const fail = (offset: number | undefined, message: string) => ({ error: diagnostic(offset === undefined ? where.start : where.at(offset), `rule ${raw.name} (${raw.kind}): ${message}`) });
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
  const rule: CompiledRule = {
    name: raw.name,
    kind: raw.kind,
    expression: raw.expression,
    message: raw.message,
    source: where.start,
    program,
    perAction: !planLevel && mentions(program.ast as ASTNode, ACTION_NAMES),
    positionAt: where.at,
  };
  return { rule };
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
