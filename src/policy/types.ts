// The plain data the policy engine takes and gives (SPEC section 16). Everything here maps 1:1
// from a Plan (src/model/plan.ts) and its JSON form: see plan-input.ts.
import type { Address, Kind, Risk, SourceRef, Summary } from '../model/index.js';

/** When a rule is evaluated and what it does when it holds. */
export type RuleKind = 'deny' | 'warn' | 'plan_deny' | 'plan_warn';

/** One rule of a policy file, as written. */
export interface PolicyRuleSource {
  name: string;
  kind: RuleKind;
  expression: string;
  message: string;
  /** The file and the position of the expression's first character. */
  source: SourceRef;
}

/** One change line of an action, as the plan lists it (config names: `cpu_millis`, `ha.replicas`). */
export interface PolicyChange {
  path: string;
  before: unknown;
  after: unknown;
}

/** One action of a plan, with the resource it acts on. */
export interface PolicyAction {
  id: string;
  address: Address;
  kind: Kind;
  op: string;
  reason: string;
  risk: Risk;
  changes: readonly PolicyChange[];
  /**
   * The resource in the config's own names (`environment`, `cpu_millis`, `ha: {replicas,
   * sync_replicas}`...): the desired fields, or the live ones for a delete (resource-fields.ts).
   * Absent fields are absent keys: a rule reading one fails unless it guards with has().
   */
  resource: Readonly<Record<string, unknown>>;
}

/** What a plan gives the rules. */
export interface PolicyInput {
  actions: readonly PolicyAction[];
  summary: Summary;
  workspace: string;
  projectId: string;
  /** One instant for the whole run: every rule sees the same `now`. */
  now: Date;
}

/** What one rule says about one action (or about the plan). */
export interface Verdict {
  rule: string;
  /** `pass` only when asked for every outcome (evaluatePolicies' `all`). */
  effect: 'deny' | 'warn' | 'pass';
  /** The rule's message; for a failed evaluation, followed by the error and where. */
  message: string;
  /** Where the rule's expression is (a failed evaluation: where in it the error arose). */
  source: SourceRef;
  /** Set when the evaluation failed (fail closed: a deny then holds, a warn warns). */
  error?: string;
}

export interface PolicyResult {
  /** Action ID -> verdicts, in rule order; actions no rule spoke about are absent. */
  actions: Record<string, Verdict[]>;
  /** The verdicts of plan_deny and plan_warn rules. */
  plan: Verdict[];
  /** Denies that hold, per action and plan-level together. */
  denies: number;
  warns: number;
}
