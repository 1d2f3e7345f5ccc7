// The CEL side of the engine: the variables a rule sees, their types, and the values they are
// bound to. The library is @marcbachmann/cel-js (bench/cel-compare.js and BENCHMARKS.md say why:
// the only candidate with a public type checker, positioned errors, no dependencies and the
// fastest load and evaluation).
//
// `action` and `plan` are declared types, so that a misspelt field (`action.rsik`) or a compare of
// a string with a number is a type error when the file loads, at its position. `resource` is a
// map: its fields depend on the kind and on what the config manages, so an absent one is found
// only at evaluation (`has(resource.environment)` guards it) and fails the rule closed.
import { Environment, type ASTNode } from '@marcbachmann/cel-js';
import type { Summary } from '../model/index.js';
import type { PolicyAction, PolicyChange } from './types.js';

/**
 * A JSON-like value as CEL sees it: the library's ints are bigints, so whole numbers become ints
 * and others doubles; undefined is null. Plain loops: it runs for every resource a rule reads.
 */
export function celValue(v: unknown): unknown {
  switch (typeof v) {
    case 'number':
      return Number.isInteger(v) ? BigInt(v) : v;
    case 'undefined':
      return null;
    case 'object': {
      if (v === null) return null;
      if (Array.isArray(v)) {
        const list = new Array<unknown>(v.length);
        for (let i = 0; i < v.length; i++) list[i] = celValue(v[i]);
        return list;
      }
      const out: Record<string, unknown> = {};
      for (const k in v) {
        const x = (v as Record<string, unknown>)[k];
        if (x !== undefined) out[k] = celValue(x);
      }
      return out;
    }
    default:
      return v;
  }
}

export class ChangeValue {
  readonly path: string;
  readonly before: unknown;
  readonly after: unknown;
  constructor(c: PolicyChange) {
    this.path = c.path;
    this.before = celValue(c.before);
    this.after = celValue(c.after);
  }
}

export class ActionValue {
  readonly id: string;
  readonly op: string;
  readonly address: string;
  readonly kind: string;
  readonly reason: string;
  readonly risk: string;
  readonly changes: ChangeValue[];
  constructor(a: PolicyAction) {
    this.id = a.id;
    this.op = a.op;
    this.address = a.address;
    this.kind = a.kind;
    this.reason = a.reason;
    this.risk = a.risk;
    this.changes = a.changes.map((c) => new ChangeValue(c));
  }
}

const SUMMARY_KEYS = ['create', 'update', 'replace', 'delete', 'adopt', 'move', 'unchanged', 'unmanaged', 'settling'] as const;

export class PlanValue {
  readonly create: bigint;
  readonly update: bigint;
  readonly replace: bigint;
  readonly delete: bigint;
  readonly adopt: bigint;
  readonly move: bigint;
  readonly unchanged: bigint;
  readonly unmanaged: bigint;
  readonly settling: bigint;
  constructor(s: Summary) {
    this.create = BigInt(s.create);
    this.update = BigInt(s.update);
    this.replace = BigInt(s.replace);
    this.delete = BigInt(s.delete);
    this.adopt = BigInt(s.adopt);
    this.move = BigInt(s.move);
    this.unchanged = BigInt(s.unchanged);
    this.unmanaged = BigInt(s.unmanaged);
    this.settling = BigInt(s.settling);
  }
}

const TIMESTAMP = 'google.protobuf.Timestamp';

/** The variables of every rule, and those only per-action rules have. */
export const PLAN_VARIABLES = ['workspace', 'project_id', 'now', 'plan'] as const;
export const ACTION_VARIABLES = ['action', 'resource'] as const;

export interface PolicyEnvironments {
  /** deny and warn: every variable. */
  action: Environment;
  /** plan_deny and plan_warn: no action and no resource, so naming one is a type error. */
  plan: Environment;
}

/** Built once per run (the library says an Environment is costly to make). */
export function createEnvironments(): PolicyEnvironments {
  const base = new Environment({ homogeneousAggregateLiterals: false })
    .registerType('dbform.Change', { ctor: ChangeValue, fields: { path: 'string', before: 'dyn', after: 'dyn' } })
    .registerType('dbform.Action', {
      ctor: ActionValue,
      fields: { id: 'string', op: 'string', address: 'string', kind: 'string', reason: 'string', risk: 'string', changes: 'list<dbform.Change>' },
    })
    .registerType('dbform.PlanSummary', { ctor: PlanValue, fields: Object.fromEntries(SUMMARY_KEYS.map((k) => [k, 'int'])) })
    .registerVariable('workspace', 'string')
    .registerVariable('project_id', 'string')
    .registerVariable('now', TIMESTAMP)
    .registerVariable('plan', 'dbform.PlanSummary');
  const action = base.clone().registerVariable('action', 'dbform.Action').registerVariable('resource', 'map<string, dyn>');
  return { action, plan: base.clone() };
}

/** An expression's node as the library's AST holds it: an operator and its arguments. */
export interface AstNodeView {
  op: string;
  args: unknown;
}

/**
 * Visits the operators of an expression, depth first; a literal's arguments are data, never
 * visited. `visit` answers 'skip' (not this node's arguments) or 'stop' (no more nodes); returns
 * whether it was stopped.
 */
export function walkAst(ast: ASTNode, visit: (node: AstNodeView) => 'skip' | 'stop' | undefined): boolean {
  const stack: unknown[] = [ast];
  while (stack.length > 0) {
    const node = stack.pop();
    if (Array.isArray(node)) {
      stack.push(...node);
      continue;
    }
    if (node === null || typeof node !== 'object' || !('op' in node)) continue;
    const n = node as AstNodeView;
    if (n.op === 'value') continue;
    const answer = visit(n);
    if (answer === 'stop') return true;
    if (answer !== 'skip') stack.push(n.args);
  }
  return false;
}

/** Whether the expression names any of `names` (a macro's own variable of that name counts too: harmless). */
export function mentions(ast: ASTNode, names: ReadonlySet<string>): boolean {
  return walkAst(ast, (n) => (n.op === 'id' && typeof n.args === 'string' && names.has(n.args) ? 'stop' : undefined));
}

/**
 * `now` for a run. One instant is read many times (once per action by a freeze rule), and the
 * library computes a time zone's wall clock through Date#toLocaleString, which builds a
 * formatter each call (about 0.4 ms: 1,000 actions took 400 ms). The answers for this one
 * instant are kept, so each zone costs once per run; the value is still a plain Date.
 */
export function runInstant(at: Date): Date {
  const now = new Date(at.getTime());
  const seen = new Map<string, string>();
  const toLocaleString = now.toLocaleString.bind(now);
  Object.defineProperty(now, 'toLocaleString', {
    value: (locales?: Intl.LocalesArgument, options?: Intl.DateTimeFormatOptions) => {
      const key = JSON.stringify([locales, options]);
      let text = seen.get(key);
      if (text === undefined) seen.set(key, (text = toLocaleString(locales, options)));
      return text;
    },
  });
  return now;
}
