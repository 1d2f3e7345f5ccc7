// The policy engine (SPEC section 16): rules no reviewer can forget, in CEL, over every plan.
// A self-contained layer: it imports only src/model and its libraries (@marcbachmann/cel-js,
// js-yaml, and yaml when a position is needed), touches no process, prints nothing; the CLI
// reads the flags and prints the verdicts.
//
// Load it lazily (`await import('../policy/index.js')`) and only when a policy is given: the CEL
// library costs ~22 ms of CPU that a run without policies should not pay. Start loadPolicyFiles
// before reading the live state and await it after: the ~30 ms of loading and compiling then
// hide behind the network (10 rules on a 1,000-service plan: BENCHMARKS.md).
//
// How plan and apply use it, in order:
//
//   const paths = policyPaths(opts.policy, env.DBFORM_POLICY);      // --policy (repeatable) + env
//   const loaded = await loadPolicyFiles(paths);                    // once per run: parse,
//   if (!loaded.ok) throw new DiagnosticsError(loaded.errors);      //   type-check, compile;
//   const policies = loaded.value;                                  //   errors are FILE:LINE:COL (exit 1)
//   const policiesHash = hashPolicies(policies.files);              // saved plans record it as
//                                                                   //   policies_hash (absent: none)
//   ... planChanges(desired, live, lock, shape) -> plan ...
//   const input = policyInputFromPlan(plan, {
//     workspace, now: new Date(),                                   // one instant per run
//     resourceOf: resourcesFromStates(desired, live),               // desired; live for deletes
//   });
//   const verdicts = evaluatePolicies(policies, input);             // pure, no I/O; `now` the only clock
//   const policed = markPolicyBlocks(plan, verdicts);               // blocked: "policy NAME: message"
//   // render verdicts.actions[action.id] beside each action (deny and warn), verdicts.plan once;
//   // exit 3 when verdicts.denies > 0 (markPolicyBlocks has then marked at least one action).
//
// `apply PLAN` re-evaluates: it loads the policies it is given, refuses the saved plan when
// hashPolicies(...) differs from the plan's policies_hash (either absent counts as different from
// present), then evaluates them on the plan it makes again, like `plan`.
//
// `dbform policy test FILE... --plan PLAN.json` uses the same calls with
// resourcesFromSavedPlan(plan, desired?) (src/cli/policy/run-policy-test.ts).
export { evaluatePolicies, blockedText, type EvaluateOptions } from './evaluate.js';
export { hashPolicies, policyPaths } from './files.js';
export { compilePolicies, loadPolicyFiles, type CompiledRule, type PolicyFileInfo, type PolicySet, type PolicyText } from './load.js';
export { markPolicyBlocks, policyDiagnostics } from './mark.js';
export { policyActions, policyInputFromPlan, resourcesFromSavedPlan, resourcesFromStates, type InputContext, type ResourceLookup } from './plan-input.js';
export { desiredResourceFields, fieldsFromChanges, liveResourceFields, type DesiredResource, type LiveResource, type ResourceFields } from './resource-fields.js';
export type { PolicyAction, PolicyChange, PolicyInput, PolicyResult, PolicyRuleSource, RuleKind, Verdict } from './types.js';
