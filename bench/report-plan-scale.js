// The plan-at-scale section (bench/plan-scale.js): 10,000 services under 300 MB and 2 s, and the
// CPU time per service flat from 1,000 to 20,000; each figure beside the baseline's.
import { code, judge, mib, ms, n, table, times } from './report-format.js';

const pair = (now, before, format) => (before === undefined ? format(now) : `${format(now)} (before: ${format(before)})`);

export function planScaleSection(s, v) {
  const base = s.baseline.ref
    ? `Each figure is followed by the baseline's (${s.baseline.ref.slice(0, 10)}, built by bench/baseline.js) on the same files, same run.`
    : `No baseline in this run (${s.baseline.skipped}).`;
  const rows = s.sizes.map((x) => {
    const big = x.services === 10000;
    const cmd = code(`taskset -c 0 node bench/plan-work.js ${x.config} ${x.lockfile} ${x.live}`);
    return [
      n(x.services), n(x.replicaSets), pair(x.now.wallMs, x.before?.wallMs, ms), pair(x.now.cpuMs, x.before?.cpuMs, ms), pair(x.now.maxRssKb, x.before?.maxRssKb, mib),
      big ? judge(v, 'plan 10,000 services: < 300 MB peak (no network)', mib(x.now.maxRssKb), x.now.maxRssKb / 1024 < 300) : '',
      big ? judge(v, 'plan 10,000 services: < 2 s wall on one core (no network)', ms(x.now.wallMs), x.now.wallMs < 2000) : '',
      `loadConfig ${ms(x.now.phases.loadConfig)}, lockfile ${ms(x.now.phases.readLockfile)}, decode ${ms(x.now.phases.decodeLive)}, planChanges ${ms(x.now.phases.planChanges)}`,
      cmd,
    ];
  });
  const first = s.sizes[0];
  const last = s.sizes.at(-1);
  const ratio = last.now.cpuMs / first.now.cpuMs;
  const workRatio = last.now.workMs / first.now.workMs;
  const limit = 22 * (last.services / 20000);
  const lines = [
    `- CPU time ${n(last.services)} / ${n(first.services)} services: ${times(ratio)} (target <= ${limit}x, ${judge(v, `plan CPU ${n(last.services)}/${n(first.services)} services <= ${limit}`, times(ratio), ratio <= limit)}); the planning work alone (no Node start-up or module loading): ${times(workRatio)}${last.before ? `; before: ${times(last.before.cpuMs / first.before.cpuMs)} and ${times(last.before.workMs / first.before.workMs)}` : ''}.`,
  ];
  const cli = s.sizes.find((x) => x.cli);
  if (cli) {
    lines.push(
      `- \`dbform plan\` of ${n(cli.services)} services end to end (network included, latency 0): wall ${pair(cli.cli.now.wallMs, cli.cli.before?.wallMs, ms)}, CPU ${pair(cli.cli.now.cpuMs, cli.cli.before?.cpuMs, ms)}, peak ${pair(cli.cli.now.maxRssKb, cli.cli.before?.maxRssKb, mib)}: ${judge(v, `plan ${n(cli.services)} services: < 300 MB peak (CLI end to end)`, mib(cli.cli.now.maxRssKb), cli.cli.now.maxRssKb / 1024 < 300)}. Command: ${code(`dbform plan -f ${cli.config} --detailed-exitcode`)}.`,
    );
  }
  return [
    '### Plan of 10,000 services and 20,000 replica sets: under 300 MB and 2 s; cost per service flat to 20,000',
    '',
    `Same method as the 1,000-service target: bench/plan-work.js in a new process per run, pinned to CPU 0, on API bodies saved beforehand (median of ${first.now.runs} runs; peak RSS the largest). CPU is user + system time (GNU time). dbform sets no V8 flag (SPEC section 8, revised in turn 3); the baseline bounded the heap of configs of 1 MiB or more. ${base}`,
    '',
    table(['Services', 'Replica sets', 'Wall', 'CPU', 'Peak RSS', 'Memory', 'Wall target', 'Phases (now)', 'Command'], rows),
    '',
    ...lines,
  ].join('\n');
}
