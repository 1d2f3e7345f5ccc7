// Runs compiled rules over a plan's actions (deny, warn) and over the plan itself (plan_deny,
// plan_warn). Pure apart from the clock the caller put in the input. A rule whose evaluation
// fails (an absent field, a type that does not fit at run time, a result that is not a bool)
// fails closed: a deny then holds and a warn warns, each saying what failed and where.
import type { ParseResult } from '@marcbachmann/cel-js';
import { ActionValue, celValue, PlanValue, runInstant } from './cel-env.js';
import type { CompiledRule, PolicySet } from './load.js';
import type { PolicyAction, PolicyInput, PolicyResult, Verdict } from './types.js';

export interface EvaluateOptions {
  /** Also list the rules that do not hold, as `pass` (`dbform policy test --all`). */
  all?: boolean;
}

type Outcome = { holds: boolean; error?: undefined } | { holds: true; error: { message: string; offset: number | undefined } };

function run(program: ParseResult, vars: object): Outcome {
  let value: unknown;
  try {
    value = program(vars);
  } catch (err) {
    const e = err as { summary?: string; message?: string; range?: { start: number } };
    return { holds: true, error: { message: e.summary ?? String(e.message).split('\n')[0]!, offset: e.range?.start } };
  }
  if (typeof value === 'boolean') return { holds: value };
  return { holds: true, error: { message: `the expression gave ${describe(value)}, not a bool`, offset: undefined } };
}

const describe = (v: unknown): string => (v === null ? 'null' : typeof v === 'bigint' ? `the int ${v}` : typeof v === 'string' ? `the string ${JSON.stringify(v)}` : `a ${typeof v}`);

function verdictOf(rule: CompiledRule, outcome: Outcome): Verdict {
  const effect = !outcome.holds ? 'pass' : rule.kind === 'deny' || rule.kind === 'plan_deny' ? 'deny' : 'warn';
  if (!outcome.error) return { rule: rule.name, effect, message: rule.message, source: rule.source };
  const source = outcome.error.offset === undefined ? rule.source : rule.positionAt(outcome.error.offset);
  const where = `${source.file}:${source.line}:${source.col}`;
  const consequence = effect === 'deny' ? 'so it denies' : 'so it warns';
  return {
    rule: rule.name,
    effect,
    message: `${rule.message} (the rule could not be evaluated, ${consequence}: ${outcome.error.message} at ${where})`,
    source,
    error: outcome.error.message,
  };
}

interface SharedVars {
  workspace: string;
  project_id: string;
  now: Date;
  plan: PlanValue;
}

/**
 * One action's variables. `action` and `resource` are converted to CEL values when a rule first
 * reads them: most actions of a large plan are decided by guards that read neither.
 */
class ActionVars implements SharedVars {
  readonly workspace: string;
  readonly project_id: string;
  readonly now: Date;
  readonly plan: PlanValue;
  readonly #source: PolicyAction;
  #action: ActionValue | undefined;
  #resource: unknown;
  #category: string | undefined;
  constructor(shared: SharedVars, source: PolicyAction) {
    this.workspace = shared.workspace;
    this.project_id = shared.project_id;
    this.now = shared.now;
    this.plan = shared.plan;
    this.#source = source;
  }

  get action(): ActionValue {
    return (this.#action ??= new ActionValue(this.#source));
  }

  get resource(): unknown {
    return (this.#resource ??= celValue(this.#source.resource));
  }

  /** What a category guard depends on. */
  get category(): string {
    const a = this.#source;
    return (this.#category ??= `${a.op}|${a.kind}|${a.risk}|${a.reason}`);
  }
}

/**
 * What the rule's guards decide for this action alone, undefined when they do not: false when one
 * is false, true when they are the whole expression and all true. They read only the plan and the
 * action's category, so the answer holds for every action of that category.
 */
function decideByGuards(rule: CompiledRule, vars: ActionVars): Outcome | undefined {
  let allTrue = true;
  for (const g of rule.guards) {
    const o = run(g.program, vars);
    if (o.error) allTrue = false;
    else if (!o.holds) return { holds: false };
  }
  return rule.guardsAreAll && allTrue ? { holds: true } : undefined;
}

/** A per-action rule over every action, its guards' decision found once per category. */
function outcomesOf(rule: CompiledRule, actions: readonly ActionVars[], shared: SharedVars): Outcome[] {
  if (!rule.perAction) {
    const o = run(rule.program, shared);
    return actions.map(() => o);
  }
  const decided = new Map<string, Outcome | null>();
  return actions.map((vars) => {
    if (rule.guards.length === 0) return run(rule.program, vars);
    let d = decided.get(vars.category);
    if (d === undefined) decided.set(vars.category, (d = decideByGuards(rule, vars) ?? null));
    return d ?? run(rule.program, vars);
  });
}

/**
 * Every rule of `set` over `input`: per action the deny and warn rules, once the plan rules.
 * A rule that names neither `action` nor `resource` gives the same answer for every action and
 * is evaluated once; the guards of the others (load.ts) once per category of action (op, kind,
 * risk, reason), and only the actions they do not decide are evaluated.
 */
export function evaluatePolicies(set: PolicySet, input: PolicyInput, options: EvaluateOptions = {}): PolicyResult {
  const shared: SharedVars = { workspace: input.workspace, project_id: input.projectId, now: runInstant(input.now), plan: new PlanValue(input.summary) };
  const result: PolicyResult = { actions: {}, plan: [], denies: 0, warns: 0 };
  // A verdict is made only when kept: its position is found on first use (load.ts).
  const keep = (rule: CompiledRule, outcome: Outcome, into: Verdict[]) => {
    if (!outcome.holds && !options.all) return;
    const v = verdictOf(rule, outcome);
    into.push(v);
    if (v.effect === 'deny') result.denies++;
    if (v.effect === 'warn') result.warns++;
  };
  const actions = input.actions.map((a) => new ActionVars(shared, a));
  const lists = actions.map((): Verdict[] => []);
  // Rule by rule: each rule's code runs over every action in a row (faster once it is hot).
  for (const r of set.rules) {
    if (r.kind !== 'deny' && r.kind !== 'warn') continue;
    outcomesOf(r, actions, shared).forEach((o, i) => keep(r, o, lists[i]!));
  }
  input.actions.forEach((a, i) => {
    if (lists[i]!.length > 0) result.actions[a.id] = lists[i]!;
  });
  for (const r of set.rules) if (r.kind === 'plan_deny' || r.kind === 'plan_warn') keep(r, run(r.program, shared), result.plan);
  return result;
}

/** The text a denied action is blocked with: `policy NAME: message` of its first deny. */
export function blockedText(verdicts: readonly Verdict[] | undefined): string | undefined {
  const deny = verdicts?.find((v) => v.effect === 'deny');
  return deny ? `policy ${deny.rule}: ${deny.message}` : undefined;
}
