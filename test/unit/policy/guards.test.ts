// The engine decides most actions by the rules' guards (the parts of an `&&` that read only the
// plan or the action's op, kind, risk and reason), evaluated once per plan or per category of
// action. That must never change an answer: on random plans, every rule's verdict for every
// action is the one evaluating the whole expression for that action gives.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ActionValue, celValue, createEnvironments, PlanValue } from '../../../src/policy/cel-env.js';
import { compilePolicies, evaluatePolicies, type PolicyAction, type PolicyInput } from '../../../src/policy/index.js';

const RULES: Array<[string, string]> = [
  ['deny', 'action.op == "deleteService" && resource.environment == "PROD"'],
  ['deny', 'action.risk == "data-loss" && (!has(resource.environment) || resource.environment == "PROD")'],
  ['warn', 'workspace.startsWith("pr-") && action.op in ["createService", "resizeService"] && int(resource.cpu_millis) > 2000'],
  ['deny', 'action.kind == "service" && action.reason == "changed"'],
  ['warn', 'plan.delete > 1 && action.op.startsWith("delete")'],
  ['deny', 'resource.environment == "PROD" && action.op == "stopService"'],
  ['warn', 'action.op != "createService" && has(resource.ha) && resource.ha.replicas > 1'],
  ['deny', 'workspace == "main" && action.risk != "none" && action.changes.exists(c, c.path == "cpu_millis")'],
  ['warn', 'action.op == "resizeService" && resource.cpu_millis / 0 == 1'],
  ['deny', 'action.kind == "replica_set" || resource.name == "x"'],
  // A guard that fails (int("main")) decides nothing: the whole expression is evaluated.
  ['deny', 'int(workspace) > 3 && resource.environment == "PROD"'],
];

const OPS = ['createService', 'resizeService', 'deleteService', 'stopService', 'createReplicaSet'] as const;

const actionArb = fc.record({
  op: fc.constantFrom(...OPS),
  kind: fc.constantFrom('service', 'replica_set'),
  risk: fc.constantFrom('none', 'data-loss', 'availability'),
  reason: fc.constantFrom('missing', 'changed', 'removed'),
  resource: fc.record(
    {
      name: fc.constantFrom('x', 'db'),
      environment: fc.constantFrom('PROD', 'DEV'),
      cpu_millis: fc.constantFrom(1000, 4000, 'shared'),
      ha: fc.record({ replicas: fc.integer({ min: 0, max: 3 }) }),
    },
    { requiredKeys: [] },
  ),
  changes: fc.array(fc.record({ path: fc.constantFrom('cpu_millis', 'ha.replicas'), before: fc.integer({ min: 0, max: 9 }), after: fc.integer({ min: 0, max: 9 }) }), { maxLength: 2 }),
});

const text = `version: 1\nrules:\n${RULES.map(([kind, expr], i) => `  - name: r${i}\n    ${kind}: '${expr}'\n    message: m${i}\n`).join('')}`;

describe('guards', () => {
  const compiled = compilePolicies([{ path: 'p.yaml', text }]);
  if (!compiled.ok) throw new Error(compiled.errors.map((e) => e.message).join('\n'));
  const set = compiled.value;
  const envs = createEnvironments();
  const whole = RULES.map(([, expr]) => envs.action.parse(expr));

  it('are found in the rules that have them', () => {
    expect(set.rules.map((r) => r.guards.map((g) => g.scope).join('+'))).toEqual(['category', 'category', 'plan+category', 'category+category', 'plan+category', 'category', 'category', 'plan+category', 'category', '', 'plan']);
    expect(set.rules.map((r) => r.guardsAreAll)).toEqual([false, false, false, true, true, false, false, false, false, false, false]);
  });

  it('never change a verdict', () => {
    fc.assert(
      fc.property(fc.array(actionArb, { minLength: 1, maxLength: 12 }), fc.constantFrom('main', 'pr-4', 'default', '7'), fc.integer({ min: 0, max: 3 }), (raw, workspace, deletes) => {
        const actions: PolicyAction[] = raw.map((a, i) => ({ ...a, id: `a${i + 1}`, address: `service.s${i}` }));
        const summary = { create: 1, update: 1, replace: 0, delete: deletes, adopt: 0, move: 0, unchanged: 0, unmanaged: 0, settling: 0 };
        const input: PolicyInput = { actions, summary, workspace, projectId: 'p', now: new Date('2026-05-14T08:00:00Z') };
        const result = evaluatePolicies(set, input, { all: true });
        for (const a of actions) {
          const vars = { workspace, project_id: 'p', now: input.now, plan: new PlanValue(summary), action: new ActionValue(a), resource: celValue(a.resource) };
          const expected = whole.map((program, i) => {
            let value: unknown;
            try {
              value = program(vars);
            } catch {
              return `${RULES[i]![0]} error`;
            }
            return value === true ? RULES[i]![0] : value === false ? 'pass' : `${RULES[i]![0]} error`;
          });
          const got = result.actions[a.id]!.map((v) => (v.error ? `${v.effect} error` : v.effect));
          expect(got, JSON.stringify(a)).toEqual(expected);
        }
      }),
      { numRuns: 150 },
    );
  });
});
