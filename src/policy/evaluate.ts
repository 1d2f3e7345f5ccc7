// Runs compiled rules over a plan's actions (deny, warn) and over the plan itself (plan_deny,
// plan_warn). Pure apart from the clock the caller put in the input. A rule whose evaluation
// fails (an absent field, a type that does not fit at run time, a result that is not a bool)
// fails closed: a deny then holds and a warn warns, each saying what failed and where.
import { ActionValue, celValue, PlanValue, runInstant } from './cel-env.js';
import type { CompiledRule, PolicySet } from './load.js';
import type { PolicyInput, PolicyResult, Verdict } from './types.js';

export interface EvaluateOptions {
  /** Also list the rules that do not hold, as `pass` (`dbform policy test --all`). */
  all?: boolean;
}

type Outcome = { holds: boolean; error?: undefined } | { holds: true; error: { message: string; offset: number | undefined } };

function run(rule: CompiledRule, vars: Record<string, unknown>): Outcome {
  let value: unknown;
  try {
    value = rule.program(vars);
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

/**
 * Every rule of `set` over `input`: per action the deny and warn rules, once the plan rules.
 * A rule that names neither `action` nor `resource` gives the same answer for every action and
 * is evaluated once.
 */
export function evaluatePolicies(set: PolicySet, input: PolicyInput, options: EvaluateOptions = {}): PolicyResult {
  const shared = { workspace: input.workspace, project_id: input.projectId, now: runInstant(input.now), plan: new PlanValue(input.summary) };
  const result: PolicyResult = { actions: {}, plan: [], denies: 0, warns: 0 };
  const keep = (v: Verdict, into: Verdict[]) => {
    if (v.effect === 'pass' && !options.all) return;
    into.push(v);
    if (v.effect === 'deny') result.denies++;
    if (v.effect === 'warn') result.warns++;
  };
  const perAction = set.rules.filter((r) => r.kind === 'deny' || r.kind === 'warn');
  const constant = new Map<CompiledRule, Outcome>();
  for (const r of perAction) if (!r.perAction) constant.set(r, run(r, shared));
  for (const action of input.actions) {
    const vars = { ...shared, action: new ActionValue(action), resource: celValue(action.resource) };
    const verdicts: Verdict[] = [];
    for (const r of perAction) keep(verdictOf(r, constant.get(r) ?? run(r, vars)), verdicts);
    if (verdicts.length > 0) result.actions[action.id] = verdicts;
  }
  for (const r of set.rules) if (r.kind === 'plan_deny' || r.kind === 'plan_warn') keep(verdictOf(r, run(r, shared)), result.plan);
  return result;
}

/** The text a denied action is blocked with: `policy NAME: message` of its first deny. */
export function blockedText(verdicts: readonly Verdict[] | undefined): string | undefined {
  const deny = verdicts?.find((v) => v.effect === 'deny');
  return deny ? `policy ${deny.rule}: ${deny.message}` : undefined;
}
