// Start-up benchmarks (SPEC section 8): `dbform --version` and `dbform validate` of a
// 1,000-service file, each in a new process every run (cold: nothing is cached in the process),
// median of several runs; `node -e 0` alongside, as the floor Node itself sets. `dbform validate`
// is also measured on the same config written in each YAML style (scripts/gen-large-config.js:
// block, block scalars, flow, anchors and merges, comments), the runs of the styles interleaved
// so that a busy machine weighs on each alike. With hyperfine installed, the version and validate
// commands are also measured by it.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { join as joinPath } from 'node:path';
import { CLI, expectExit, hasHyperfine, median, run, runCli } from './measure.js';
import { benchReaders } from './readers.js';
import { benchValidateErrors } from './validate-errors.js';
import { generateLargeConfig, STYLES } from '../scripts/gen-large-config.js';
import { scratchDir, shown, vpcCountFor, worldConfig } from './world.js';

async function coldRuns(runs, start) {
  const results = [];
  for (let i = 0; i < runs; i++) results.push(await start());
  const walls = results.map((r) => r.wallMs);
  const cpu = results.map((r) => r.cpuMs).filter((x) => x !== undefined);
  return { medianMs: median(walls), minMs: Math.min(...walls), maxMs: Math.max(...walls), cpuMedianMs: cpu.length ? median(cpu) : undefined, runs };
}

async function hyperfine(command, runs, dir) {
  const out = join(dir, 'hyperfine.json');
  const r = await run('hyperfine', ['--warmup', '1', '--runs', String(runs), '--export-json', out, command], { memory: false });
  expectExit(r, [0], `hyperfine ${command}`);
  const result = JSON.parse(readFileSync(out, 'utf8')).results[0];
  return { medianMs: result.median * 1000, meanMs: result.mean * 1000, stddevMs: result.stddev * 1000 };
}

const cold = (results, runs, extra = {}) => {
  const walls = results.map((r) => r.wallMs);
  const cpu = results.map((r) => r.cpuMs).filter((x) => x !== undefined);
  return { medianMs: median(walls), minMs: Math.min(...walls), maxMs: Math.max(...walls), cpuMedianMs: cpu.length ? median(cpu) : undefined, runs, ...extra };
};

/**
 * `dbform validate` of the same config in every YAML style, runs interleaved, with the baseline's
 * beside each when there is one: { style: { medianMs, ..., file, before } }.
 */
async function styleRuns(dir, runs, services, base) {
  const files = Object.fromEntries(
    STYLES.map((style) => {
      const file = join(dir, `dbform-${style}.yaml`);
      writeFileSync(file, generateLargeConfig(services, vpcCountFor(services), style));
      return [style, file];
    }),
  );
  const results = Object.fromEntries(STYLES.map((style) => [style, { now: [], before: [] }]));
  const baseCli = base.dir ? joinPath(base.dir, 'bin', 'dbform.js') : undefined;
  for (let i = 0; i < runs; i++) {
    for (const style of STYLES) {
      results[style].now.push(expectExit(await runCli(['validate', '-f', files[style]]), [0], `dbform validate (${style})`));
      if (baseCli) results[style].before.push(expectExit(await run(process.execPath, [baseCli, 'validate', '-f', files[style]]), [0], `baseline dbform validate (${style})`));
    }
  }
  return Object.fromEntries(
    STYLES.map((style) => [style, cold(results[style].now, runs, { file: shown(files[style]), ...(baseCli ? { before: cold(results[style].before, runs) } : {}) })]),
  );
}

/**
 * options: { runs, services (of the validated file), base (bench/baseline.js), errors (for
 * bench/validate-errors.js), readers: { services, runs }, log }
 */
export async function benchStartup({ runs, services, base, errors, readers, log }) {
  const dir = scratchDir('startup');
  const file = join(dir, 'dbform.yaml');
  writeFileSync(file, worldConfig(services));
  log(`startup: node -e 0, dbform --version, dbform validate (${services} services), ${runs} runs each`);
  const out = {
    services,
    file: shown(file),
    node: await coldRuns(runs, () => run(process.execPath, ['-e', '0'])),
    version: await coldRuns(runs, async () => expectExit(await runCli(['--version']), [0], 'dbform --version')),
    validate: await coldRuns(runs, async () => expectExit(await runCli(['validate', '-f', file]), [0], 'dbform validate')),
  };
  log(`startup: dbform validate of ${services} services in each YAML style (${STYLES.join(', ')}), ${runs} runs each, interleaved`);
  out.styles = await styleRuns(dir, runs, services, base);
  out.baseline = base.dir ? { ref: base.ref } : { skipped: base.skipped };
  out.errors = await benchValidateErrors({ dir, ...errors, base, log });
  const readerFile = joinPath(dir, `dbform-${readers.services}.yaml`);
  writeFileSync(readerFile, worldConfig(readers.services));
  out.readers = await benchReaders({ file: shown(readerFile), path: readerFile, runs: readers.runs, base, log });
  if (hasHyperfine) {
    log('startup: hyperfine');
    out.hyperfine = {
      version: await hyperfine(`${process.execPath} ${CLI} --version`, runs, dir),
      validate: await hyperfine(`${process.execPath} ${CLI} validate -f ${file}`, runs, dir),
    };
  }
  return out;
}
