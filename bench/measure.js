// Timing helpers shared by the bench families: spawning the CLI (never blocking the event loop:
// the emulator answering it may live in this very process), peak memory through /usr/bin/time,
// medians, and the machine description that goes into BENCHMARKS.md.
import { spawn } from 'node:child_process';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { cpus, loadavg, tmpdir, totalmem } from 'node:os';
import { join } from 'node:path';

export const REPO = new URL('..', import.meta.url).pathname.replace(/\/$/, '');
export const CLI = join(REPO, 'bin', 'dbform.js');
const TIME = '/usr/bin/time';
const TASKSET = '/usr/bin/taskset';

export const hasGnuTime = existsSync(TIME);
export const hasTaskset = existsSync(TASKSET);
export const hasHyperfine = (process.env.PATH ?? '').split(':').some((dir) => dir && existsSync(join(dir, 'hyperfine')));

export function median(values) {
  if (values.length === 0) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

/**
 * Runs a command; resolves with { code, stdout, stderr, wallMs, cpuMs, maxRssKb, timedOut }. CPU
 * time (user + system) and peak memory come from `/usr/bin/time -f '%U %S %M'` when that exists
 * (the command's own figures: its maximum resident set size in KiB).
 * `pin` runs it on CPU 0 with taskset when available; `memory: false` skips /usr/bin/time;
 * `timeoutMs` kills it (SIGKILL) after that long, with `timedOut: true`.
 */
export function run(command, args, { env = {}, cwd = REPO, pin = false, input, memory = true, timeoutMs } = {}) {
  let argv = [command, ...args];
  if (pin && hasTaskset) argv = [TASKSET, '-c', '0', ...argv];
  let timeFile;
  if (hasGnuTime && memory) {
    timeFile = join(tmpdir(), `dbform-bench-time-${process.pid}-${Math.random().toString(36).slice(2)}`);
    argv = [TIME, '-f', '%U %S %M', '-o', timeFile, ...argv];
  }
  return new Promise((resolve, reject) => {
    const started = performance.now();
    // With a timeout, a process group of its own: the kill must reach the command under GNU time.
    const child = spawn(argv[0], argv.slice(1), { cwd, env: cleanEnv(env), stdio: ['pipe', 'pipe', 'pipe'], detached: timeoutMs !== undefined });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('error', reject);
    child.stdin.end(input ?? '');
    let timedOut = false;
    const timer = timeoutMs === undefined ? undefined : setTimeout(() => ((timedOut = true), process.kill(-child.pid, 'SIGKILL')), timeoutMs);
    child.on('close', (code) => {
      clearTimeout(timer);
      const wallMs = performance.now() - started;
      let maxRssKb;
      let cpuMs;
      if (timeFile) {
        const text = existsSync(timeFile) ? readFileSync(timeFile, 'utf8') : '';
        rmSync(timeFile, { force: true });
        // A non-zero exit makes GNU time prepend "Command exited with non-zero status N".
        const m = /^([\d.]+) ([\d.]+) (\d+)$/m.exec(text.trim().split('\n').pop() ?? '');
        if (m) {
          cpuMs = (Number(m[1]) + Number(m[2])) * 1000;
          maxRssKb = Number(m[3]);
        }
      }
      resolve({ code, stdout, stderr, wallMs, cpuMs, maxRssKb, timedOut });
    });
  });
}

/** The bench's environment without the caller's DBFORM_* settings and colour forcing, plus `extra`. */
function cleanEnv(extra) {
  const env = {};
  for (const [k, v] of Object.entries(process.env)) if (!k.startsWith('DBFORM_') && k !== 'FORCE_COLOR') env[k] = v;
  return { ...env, NO_COLOR: '1', ...extra };
}

/** Runs the dbform CLI (node bin/dbform.js ARGS). */
export function runCli(args, options = {}) {
  return run(process.execPath, [CLI, ...args], options);
}

/** Throws with the command's stderr when the exit code is not one of `codes`. */
export function expectExit(result, codes, what) {
  if (!codes.includes(result.code)) {
    throw new Error(`${what} exited ${result.code} (expected ${codes.join(' or ')}):\n${result.stderr.slice(0, 2000)}`);
  }
  return result;
}

/** Lines of a command's output, without the final newline's empty remainder. */
export function lineCount(text) {
  if (text === '') return 0;
  return text.endsWith('\n') ? text.split('\n').length - 1 : text.split('\n').length;
}

export function machine() {
  const cpu = cpus();
  const model = (() => {
    try {
      const m = /^model name\s*:\s*(.+)$/m.exec(readFileSync('/proc/cpuinfo', 'utf8'));
      if (m) return m[1].trim();
    } catch {
      // not Linux: os.cpus() is enough
    }
    return cpu[0]?.model ?? 'unknown';
  })();
  return {
    cpu: model,
    cores: cpu.length,
    memoryGb: Math.round((totalmem() / 2 ** 30) * 10) / 10,
    node: process.version,
    platform: `${process.platform} ${process.arch}`,
    loadAvg: loadavg().map((x) => Math.round(x * 100) / 100),
    tools: { gnuTime: hasGnuTime, taskset: hasTaskset, hyperfine: hasHyperfine },
  };
}

export const round = (x, digits = 0) => (Number.isFinite(x) ? Math.round(x * 10 ** digits) / 10 ** digits : x);
