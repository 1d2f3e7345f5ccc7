// Evaluating rules over real plans (made by the planner from desired and live states, as plan
// does): deny, warn, plan-level rules, fail closed, has(), now, and marking the plan.
import { describe, expect, it } from 'vitest';
import type { Plan } from '../../../src/model/index.js';
import { blockedText, compilePolicies, evaluatePolicies, markPolicyBlocks, policyDiagnostics, policyInputFromPlan, resourcesFromStates, type PolicySet } from '../../../src/policy/index.js';
import { desiredService, desiredState, liveService, liveState, lockfile, plan } from '../planner/builders.js';

function policies(rules: string): PolicySet {
  const r = compilePolicies([{ path: 'rules.yaml', text: `version: 1\nrules:\n${rules}` }]);
  if (!r.ok) throw new Error(r.errors.map((e) => e.message).join('\n'));
  return r.value;
}

const FRIDAY_4PM_BERLIN = new Date('2026-05-15T14:00:00Z');
const THURSDAY = new Date('2026-05-14T14:00:00Z');

/** A plan that creates service.new (2 CPUs, DEV), resizes service.big (PROD) and deletes service.old (PROD, live). */
function samplePlan(o: { allowDataLoss?: boolean } = {}): { p: Plan; resourceOf: ReturnType<typeof resourcesFromStates> } {
  const desired = desiredState({
    services: [
      desiredService('new', { size: { cpuMillis: 2000, memoryGbs: 8 }, environment: 'DEV', regionCode: 'us-east-1' }),
      desiredService('big', { size: { cpuMillis: 4000, memoryGbs: 16 }, environment: 'PROD' }),
    ],
  });
  const live = liveState({
    services: [
      liveService('big', { size: { cpuMillis: 2000, memoryGbs: 8 }, environment: 'PROD' }),
      liveService('old', { environment: 'PROD', size: { cpuMillis: 1000, memoryGbs: 4 } }),
    ],
  });
  const p = plan(desired, live, lockfile({ 'service.big': 'svc-big', 'service.old': 'svc-old' }), { allowDataLoss: o.allowDataLoss ?? false });
  return { p, resourceOf: resourcesFromStates(desired, live) };
}

function run(set: PolicySet, now = THURSDAY, workspace = 'default', o: { all?: boolean; allowDataLoss?: boolean } = {}) {
  const { p, resourceOf } = samplePlan(o);
  const input = policyInputFromPlan(p, { workspace, now, resourceOf });
  const byAddress = (id: string) => p.actions.find((a) => a.id === id)!;
  const result = evaluatePolicies(set, input, { all: o.all });
  /** `address op: effect rule` for every verdict, in plan order. */
  const lines = p.actions.flatMap((a) => (result.actions[a.id] ?? []).map((v) => `${a.address} ${a.op}: ${v.effect} ${v.rule}`));
  return { p, result, lines, byAddress };
}

describe('evaluatePolicies', () => {
  it('gives the plan\'s actions and the resources in the config\'s names, the live one for a delete', () => {
    const { p, resourceOf } = samplePlan();
    const input = policyInputFromPlan(p, { workspace: 'pr-7', now: THURSDAY, resourceOf });
    const byAddress = Object.fromEntries(input.actions.map((a) => [`${a.address} ${a.op}`, a]));
    expect(Object.keys(byAddress).sort()).toEqual(['service.big resizeService', 'service.new createService', 'service.old deleteService']);
    expect(byAddress['service.new createService']!.resource).toMatchObject({ key: 'new', name: 'new', cpu_millis: 2000, memory_gbs: 8, environment: 'DEV', region_code: 'us-east-1' });
    expect(byAddress['service.old deleteService']!.resource).toMatchObject({ key: 'old', id: 'svc-old', status: 'READY', environment: 'PROD', cpu_millis: 1000 });
    expect(byAddress['service.big resizeService']!.changes).toEqual([
      { path: 'cpu_millis', before: 2000, after: 4000 },
      { path: 'memory_gbs', before: 8, after: 16 },
    ]);
    expect(input.projectId).toBe('proj-demo');
  });

  it('a deny holds for the actions it is true for, a warn warns, the others pass', () => {
    const set = policies(`
  - name: no-prod-data-loss
    deny: action.risk == "data-loss" && resource.environment == "PROD"
    message: PROD services are never deleted
  - name: big-ones
    warn: action.kind == "service" && has(resource.cpu_millis) && resource.cpu_millis >= 2000
    message: that is a big service
`);
    const { lines, result } = run(set);
    expect(lines).toEqual(['service.big resizeService: warn big-ones', 'service.new createService: warn big-ones', 'service.old deleteService: deny no-prod-data-loss']);
    expect([result.denies, result.warns]).toEqual([1, 2]);
    const old = Object.values(result.actions).flat().find((v) => v.effect === 'deny')!;
    expect(old).toEqual({ rule: 'no-prod-data-loss', effect: 'deny', message: 'PROD services are never deleted', source: { file: 'rules.yaml', line: 5, col: 11 } });
  });

  it('lists every rule with `all`, those that do not hold as pass', () => {
    const set = policies(`
  - name: deletes
    deny: action.op == "deleteService"
    message: m
`);
    expect(run(set, THURSDAY, 'default', { all: true }).lines).toEqual([
      'service.big resizeService: pass deletes',
      'service.new createService: pass deletes',
      'service.old deleteService: deny deletes',
    ]);
  });

  it('plan rules see the summary counts once per plan, without action or resource', () => {
    const set = policies(`
  - name: few-deletes
    plan_deny: plan.delete > 0 && plan.create > 0
    message: no deletes beside creates
  - name: quiet
    plan_warn: plan.update > 5
    message: many updates
`);
    const { result, lines } = run(set);
    expect(lines).toEqual([]);
    expect(result.plan.map((v) => [v.rule, v.effect])).toEqual([['few-deletes', 'deny']]);
    expect(result.denies).toBe(1);
  });

  describe('fails closed', () => {
    it('a deny whose evaluation fails holds, saying what failed and where in the file', () => {
      const set = policies(`
  - name: prod-region
    deny: resource.environment == "PROD" && resource.region_code != "us-east-1"
    message: PROD stays in us-east-1
`);
      // service.big sets no region_code (unmanaged): the field is absent.
      const { result, p } = run(set);
      const big = p.actions.find((a) => a.address === 'service.big')!;
      expect(result.actions[big.id]).toEqual([
        {
          rule: 'prod-region',
          effect: 'deny',
          message: 'PROD stays in us-east-1 (the rule could not be evaluated, so it denies: No such key: region_code at rules.yaml:5:54)',
          source: { file: 'rules.yaml', line: 5, col: 54 },
          error: 'No such key: region_code',
        },
      ]);
      expect(blockedText(result.actions[big.id])).toBe('policy prod-region: PROD stays in us-east-1 (the rule could not be evaluated, so it denies: No such key: region_code at rules.yaml:5:54)');
    });

    it('a warn whose evaluation fails warns with the error', () => {
      const set = policies(`
  - name: cpu
    warn: int(resource.cpu_millis) > 1000 && resource.ha.replicas == 0
    message: m
`);
      const { result, p } = run(set);
      const created = p.actions.find((a) => a.op === 'createService')!;
      expect(result.actions[created.id]).toEqual([expect.objectContaining({ rule: 'cpu', effect: 'warn', error: 'No such key: ha' })]);
      expect(result.denies).toBe(0);
    });

    it('an expression that gives no bool at run time fails closed', () => {
      const set = policies(`
  - name: dyn
    deny: resource.name
    message: m
`);
      // dyn type-checks; a string at run time is not a bool.
      const { result } = run(set);
      expect(Object.values(result.actions).flat().map((v) => v.error)).toEqual(['the expression gave the string "big", not a bool', 'the expression gave the string "new", not a bool', 'the expression gave the string "old", not a bool']);
    });

    it('has() guards an optional field, so the rule does not fail', () => {
      const set = policies(`
  - name: prod-region
    deny: has(resource.region_code) && resource.region_code != "us-east-1"
    message: m
`);
      expect(run(set).result.denies).toBe(0);
    });
  });

  it('now is a timestamp: a freeze window in a time zone', () => {
    const set = policies(`
  - name: friday-freeze
    deny: now.getDayOfWeek("Europe/Berlin") == 5 && now.getHours("Europe/Berlin") >= 15 && action.risk != "none"
    message: no risky changes on Friday afternoon
`);
    expect(run(set, FRIDAY_4PM_BERLIN).lines).toEqual(['service.old deleteService: deny friday-freeze']);
    expect(run(set, THURSDAY).lines).toEqual([]);
    expect(run(set, new Date('2026-05-15T12:59:00Z')).lines).toEqual([]); // 14:59 in Berlin
  });

  it('a rule that names neither action nor resource gives the same answer for every action', () => {
    const set = policies(`
  - name: previews-only
    deny: '!workspace.startsWith("pr-")'
    message: this project is planned from preview workspaces only
`);
    expect(run(set, THURSDAY, 'pr-12').lines).toEqual([]);
    expect(run(set, THURSDAY, 'main').lines).toHaveLength(3);
  });

  it('the action has its op, address, kind, reason, risk, id and changes', () => {
    const set = policies(`
  - name: fields
    warn: >-
      action.id.startsWith("a") && action.address == "service.big" && action.kind == "service" &&
      action.reason == "changed" && action.op == "resizeService" && action.risk == "none" &&
      action.changes.exists(c, c.path == "cpu_millis" && c.before == 2000 && c.after == 4000)
    message: m
`);
    expect(run(set).lines).toEqual(['service.big resizeService: warn fields']);
  });
});

describe('the plan with the verdicts on it', () => {
  const set = policies(`
  - name: no-resize
    deny: action.op == "resizeService"
    message: sizes are frozen
  - name: deletes
    warn: action.op == "deleteService"
    message: a delete
`);

  it('marks each denied action blocked with `policy NAME: message` and leaves an earlier block as it was', () => {
    const { p, result } = run(set);
    const marked = markPolicyBlocks(p, result);
    expect(marked.actions.map((a) => [a.address, a.blocked])).toEqual([
      ['service.big', 'policy no-resize: sizes are frozen'],
      ['service.new', undefined],
      ['service.old', 'data-loss: deleteService destroys service.old and its data; re-run with --allow-data-loss to allow it'],
    ]);
    expect(policyDiagnostics(p, result)).toEqual([{ severity: 'warning', address: 'service.old', message: 'policy deletes: a delete', code: 'policy' }]);
  });

  it('a plan_deny blocks every action', () => {
    const planDeny = policies(`
  - name: frozen
    plan_deny: plan.create > 0
    message: the project is frozen
`);
    const { p, result } = run(planDeny, THURSDAY, 'default', { allowDataLoss: true });
    expect(markPolicyBlocks(p, result).actions.map((a) => a.blocked)).toEqual(['policy frozen: the project is frozen', 'policy frozen: the project is frozen', 'policy frozen: the project is frozen']);
  });

  it('leaves a plan without denies as it was', () => {
    const { p, result } = run(policies(`
  - name: none
    deny: "false"
    message: m
`));
    expect(markPolicyBlocks(p, result)).toBe(p);
  });
});
