// The report's sections on reading and validating config (bench/startup.js): the cost of errors
// (SPEC section 8, revised in turn 3) and the ways to read YAML that issue 23 chose among.
import { code, judge, mib, ms, n, table, times } from './report-format.js';

const before = (b, format) => (b === undefined ? 'not run' : b.timedOut ? `stopped after ${ms(b.afterMs)}` : format(b));

/** validate of 10,000 and 20,000 errors and of the all-invalid file, now and before. */
export function validateErrorsSection(s, v) {
  const base = s.baseline?.ref ? `Beside each, the baseline's (${s.baseline.ref.slice(0, 10)}, built by bench/baseline.js), same files, same run; its runs are stopped after the time shown.` : `No baseline in this run (${s.baseline?.skipped ?? 'not measured'}).`;
  const rows = s.errors.map((e) => [
    code(e.file),
    `${(e.bytes / 2 ** 20).toFixed(1)} MiB`,
    n(e.now.errors),
    `${ms(e.now.wallMs)} (CPU ${ms(e.now.cpuMs)})`,
    mib(e.now.maxRssKb),
    before(e.before, (b) => `${ms(b.wallMs)} (CPU ${ms(b.cpuMs)}), ${mib(b.maxRssKb)}`),
    n(e.now.printed),
    code(`node bin/dbform.js validate -f ${e.file}`),
  ]);
  const [ten, twenty] = s.errors.filter((e) => e.name.startsWith('size-errors-'));
  const all = s.errors.find((e) => e.name.startsWith('all-invalid-'));
  const ratio = twenty && ten ? twenty.now.wallMs / ten.now.wallMs : NaN;
  const beforeRatio = twenty?.before?.wallMs && ten?.before?.wallMs ? `; before: ${times(twenty.before.wallMs / ten.before.wallMs)}` : '';
  const lines = [
    `- ${n(twenty?.now.errors)} errors against ${n(ten?.now.errors)}: ${times(ratio)} the wall time (target <= 2.2x): ${judge(v, 'validate: 20,000 errors within 2.2 x the time of 10,000', times(ratio), ratio <= 2.2)}${beforeRatio}.`,
    `- Every one of ${n(Number(all?.name.split("-").pop()))} services invalid (${n(all?.now.errors)} errors in ${((all?.bytes ?? 0) / 2 ** 20).toFixed(1)} MiB): ${ms(all?.now.wallMs)} (target < 5 s): ${judge(v, 'validate: the 5 MB all-invalid file < 5 s', ms(all?.now.wallMs), all?.now.wallMs < 5000)}.`,
  ];
  return [
    '#### `dbform validate` of files full of errors: linear in the file, errors included',
    '',
    `Wall time spawn to exit, median of ${s.errors[0]?.now.runs} runs; CPU user + system and peak RSS from GNU time. Files from \`bench/invalid-configs.js\`: the generated config with memory_gbs 9 in every service, and with eight settings wrong in every service (nine errors each) and every VPC's region. The CLI prints the first 1,000 diagnostics and \`... and N more errors\` ("lines printed"). ${base}`,
    '',
    table(['File', 'Size', 'Errors', 'Now: wall', 'Now: peak RSS', 'Before: wall, peak RSS', 'Lines printed', 'Command'], rows),
    '',
    ...lines,
  ].join('\n');
}

/** The ways to read the 10,000-service file: read time, process wall and peak RSS. */
export function readersSection(r) {
  const rows = r.rows.map((row) => [
    row.way,
    ms(row.now.readMs),
    ms(row.now.wallMs),
    mib(row.now.maxRssKb),
    row.before ? `${ms(row.before.readMs)}, ${mib(row.before.maxRssKb)}` : '',
    n(row.now.check),
    code(`taskset -c 0 node bench/yaml-read.js '${row.way}' ${r.file}`),
  ]);
  return [
    `#### Ways to read the YAML of ${r.file}`,
    '',
    `bench/yaml-read.js in a new process per way and run, pinned to CPU 0, median of ${r.rows[0]?.now.runs} runs: the read alone ("read"), the whole process ("wall": Node start-up and module loading included) and its peak RSS. \`loader\` is dbform's config load (read, interpolate, schema, rules, desired state); its "before" is main's (the baseline's build). "Check" is the services read (events, for parseEvents alone).`,
    '',
    table(['Way', 'Read', 'Wall', 'Peak RSS', 'Before (main): read, peak RSS', 'Check', 'Command'], rows),
  ].join('\n');
}
