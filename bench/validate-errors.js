// `dbform validate` of files full of errors (SPEC section 8, revised in turn 3): 10,000 and
// 20,000 services with a wrong size each, and the 5 MB file in which every service is invalid;
// each with the current build and the baseline's (bench/baseline.js), runs interleaved. The
// baseline was quadratic in its errors: its runs stop after `baselineTimeoutMs`.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { allInvalidConfig, sizeErrorConfig } from './invalid-configs.js';
import { CLI, median, run } from './measure.js';
import { shown } from './world.js';

/** The files for `sizes` (services with a wrong size each) and `allInvalid` services all invalid. */
const filesFor = ({ sizes, allInvalid }) => [
  ...sizes.map((n) => ({ name: `size-errors-${n}`, write: () => sizeErrorConfig(n) })),
  { name: `all-invalid-${allInvalid}`, write: () => allInvalidConfig(allInvalid) },
];

async function validate(cli, file, timeoutMs) {
  const r = await run(process.execPath, [cli, 'validate', '-f', file], { timeoutMs });
  if (r.timedOut) return { timedOut: true, wallMs: r.wallMs };
  const count = /^(\d+) errors?/m.exec(r.stderr.split('\n').at(-2) ?? '');
  if (r.code !== 1 || !count) throw new Error(`dbform validate -f ${file} (${cli}) exited ${r.code}: ${r.stderr.slice(-500)}`);
  return { wallMs: r.wallMs, cpuMs: r.cpuMs, maxRssKb: r.maxRssKb, errors: Number(count[1]), printed: r.stderr.split('\n').length - 1 };
}

const summary = (results) => ({
  wallMs: median(results.map((r) => r.wallMs)),
  cpuMs: median(results.map((r) => r.cpuMs)),
  maxRssKb: Math.max(...results.map((r) => r.maxRssKb)),
  errors: results[0].errors,
  printed: results[0].printed,
  runs: results.length,
});

/** options: { dir, sizes, allInvalid, runs, baselineRuns, baselineTimeoutMs, base: { dir } | { skipped }, log } */
export async function benchValidateErrors({ dir, sizes, allInvalid, runs, baselineRuns, baselineTimeoutMs, base, log }) {
  const out = [];
  for (const f of filesFor({ sizes, allInvalid })) {
    const file = join(dir, `${f.name}.yaml`);
    const text = f.write();
    writeFileSync(file, text);
    log(`validate errors: ${f.name} (${runs} runs${base.dir ? `, the baseline's ${baselineRuns}` : ''})`);
    const now = [];
    const before = [];
    for (let i = 0; i < runs; i++) {
      now.push(await validate(CLI, file));
      if (base.dir && i < baselineRuns && !before.some((b) => b.timedOut)) before.push(await validate(join(base.dir, 'bin', 'dbform.js'), file, baselineTimeoutMs));
    }
    const entry = { name: f.name, file: shown(file), bytes: Buffer.byteLength(text), now: summary(now) };
    if (before.some((b) => b.timedOut)) entry.before = { timedOut: true, afterMs: baselineTimeoutMs };
    else if (before.length > 0) entry.before = summary(before);
    out.push(entry);
  }
  return out;
}
