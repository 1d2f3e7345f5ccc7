// main as it was before the change being measured, built once beside the current code, so rows can
// show before and after in the same run where the old behaviour is no longer in src/: `git archive`
// of a ref into bench/out/baseline-<ref>/ (no change to the repository), the current node_modules
// linked in, compiled with the current tsc. Its own bench/plan-work.js and bin/dbform.js then run
// against the same worlds (the planner and the config reader: BASELINE_REF), and its engine runs
// the before-turn-2 apply rows (ENGINE_BASELINE_REF; bench/engine.js).
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { REPO } from './measure.js';

/** main when issue 23 (one YAML reader, linear diagnostics) was measured: its two readers, chunker and bounded heap. */
export const BASELINE_REF = '70a37d6a92983942e5d8e4ce7afc9b521f805cdd';

/**
 * main when issue 17 (performance at scale) started: its engine is the one before turn 2 (waits
 * holding their slots, the x1.5 poll schedule, one services list per tick, each create's
 * bookkeeping before its first poll), which issue 22 took out of src/.
 */
export const ENGINE_BASELINE_REF = '56d3cdde82a81ee9fec6418b153e35aee68925d2';

function sh(command, args, cwd) {
  const r = spawnSync(command, args, { cwd, encoding: 'utf8', maxBuffer: 64 * 2 ** 20 });
  if (r.status !== 0) throw new Error(`${command} ${args.join(' ')} failed (${r.status}): ${(r.stderr || r.stdout).slice(0, 2000)}`);
  return r.stdout;
}

/** The baseline's directory, built if it is not already; `skipped` (with why) when git cannot give it. */
export function baselineBuild(log, ref = BASELINE_REF) {
  const dir = join(REPO, 'bench', 'out', `baseline-${ref.slice(0, 10)}`);
  const done = join(dir, '.built');
  if (existsSync(done)) return { dir, ref };
  try {
    sh('git', ['cat-file', '-e', `${ref}^{commit}`], REPO);
  } catch {
    return { skipped: `the baseline commit ${ref.slice(0, 10)} is not in this repository` };
  }
  log(`baseline: building ${ref.slice(0, 10)} in ${dir} (once)`);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const archive = spawnSync('git', ['archive', '--format=tar', ref], { cwd: REPO, maxBuffer: 512 * 2 ** 20 });
  if (archive.status !== 0) throw new Error(`git archive failed: ${archive.stderr}`);
  const tar = spawnSync('tar', ['-x', '-C', dir], { input: archive.stdout });
  if (tar.status !== 0) throw new Error(`tar failed: ${tar.stderr}`);
  symlinkSync(join(REPO, 'node_modules'), join(dir, 'node_modules'));
  sh(process.execPath, [join(REPO, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', 'tsconfig.json'], dir);
  writeFileSync(done, `${ref}\n`);
  return { dir, ref };
}
