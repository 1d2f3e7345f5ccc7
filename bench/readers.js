// Ways to read a large config's YAML, side by side (issue 23: one reader for data, chosen by
// measurement): bench/yaml-read.js in a new process per run, pinned to CPU 0, on the same file;
// the read alone is timed, peak RSS is the process's (GNU time). `loader` is dbform's whole config
// load now and, with the baseline, main's; `event fast path (main)` is main's reader alone.
import { join } from 'node:path';
import { expectExit, median, run } from './measure.js';
import { WAYS } from './yaml-read.js';

const MAIN_ONLY = 'event fast path (main)';

async function runsOf(way, file, dist, runs) {
  const results = [];
  for (let i = 0; i < runs; i++) {
    const r = expectExit(await run(process.execPath, ['bench/yaml-read.js', way, file, dist], { pin: true }), [0], `bench/yaml-read.js ${way}`);
    results.push({ ...JSON.parse(r.stdout), wallMs: r.wallMs, maxRssKb: r.maxRssKb });
  }
  return { readMs: median(results.map((r) => r.readMs)), wallMs: median(results.map((r) => r.wallMs)), maxRssKb: Math.max(...results.map((r) => r.maxRssKb)), check: results[0].check, runs };
}

/** options: { file (shown path), path, runs, base: { dir } | { skipped }, log } */
export async function benchReaders({ file, path, runs, base, log }) {
  const rows = [];
  for (const way of Object.keys(WAYS)) {
    if (way === MAIN_ONLY && !base.dir) continue;
    log(`readers: ${way} (${runs} runs)`);
    const dist = way === MAIN_ONLY ? join(base.dir, 'dist') : 'dist';
    rows.push({ way, now: await runsOf(way, path, dist, runs), ...(way === 'loader' && base.dir ? { before: await runsOf(way, path, join(base.dir, 'dist'), runs) } : {}) });
  }
  return { file, rows };
}
