// The policy section of the generated part of BENCHMARKS.md (bench/policy.js).
import { code, judge, ms, n, table, times } from './report-format.js';

const TARGET = 0.1;

const pct = (x) => `${(x * 100).toFixed(1)}%`;

export function policySection(p, v) {
  const pin = p.pinned ? 'taskset -c 0 ' : '';
  const rows = p.shapes.map((s) => {
    // Judged on CPU time: one thread pinned to one core, where it equals the wall time of a quiet
    // machine; on the shared machine the wall time also carries the other processes' turns on CPU 0.
    const added = s.with.cpuMs / s.without.cpuMs - 1;
    const addedWall = s.with.wallMs / s.without.wallMs - 1;
    const verdict = s.with.verdicts;
    return [
      s.rules,
      s.name,
      n(s.actions),
      `${ms(s.without.cpuMs)} (wall ${ms(s.without.wallMs)})`,
      `${ms(s.with.cpuMs)} (wall ${ms(s.with.wallMs)})`,
      `${pct(added)} (wall ${pct(addedWall)})`,
      `<= ${pct(TARGET)}`,
      times(added / TARGET),
      s.reference ? `(reference${added <= TARGET ? '' : ': over'})` : judge(v, `10 policy rules add <= 10% to a plan of 1,000 services (${s.rules}, ${s.name})`, pct(added), added <= TARGET),
      `load ${ms(s.with.phases.policyLoad)}, evaluate ${ms(s.with.phases.policyEval)} (wall); ${n(verdict.actions)} actions, ${verdict.denies} denies, ${verdict.warns} warnings`,
      code(`${pin}node bench/plan-work.js ${s.config} ${s.lockfile} ${s.live} [${s.policyArgs}]`),
    ];
  });
  return [
    '### Policies add at most 10% to a plan of 1,000 services with 10 rules (SPEC sections 8 and 16)',
    '',
    `bench/plan-work.js (the planning work of \`dbform plan\` without the network, a new process per run${p.pinned ? ', pinned to CPU 0' : ''}) without and with ten rules, ${p.runs} runs each way, alternating; medians of the process's CPU time (user + system, GNU time; Node start-up and module loading included), which is judged, and of its wall time. With the rules the process also loads the policy engine, compiles the files and evaluates them as plan will (src/policy/index.ts), and renders the marked plan. The world is the plan family's 1,000 services and 2,000 replica sets, as it is (no actions: the rules cost their loading) and with every service resized (1,000 actions). The rules: the ten of examples/policies, scoped by op, risk or workspace as real rules are (most actions are then decided by the rules' guards, src/policy/load.ts), and, as a reference that is not judged, ten that read every action's resource (bench/policy.js), so that each is evaluated for each action: what rules that no guard can scope cost. \`now\` is fixed (a Thursday morning) so the freeze rule never holds.`,
    '',
    table(['Rules', 'Plan', 'Actions', 'Without policies: CPU', 'With the rules: CPU', 'Added', 'Target', 'vs target', 'Result', 'Policy phases (median)', 'Command (with: the bracketed flags)'], rows),
  ].join('\n');
}
