// Running the example GitHub Actions workflows' shell steps here, as a runner would: each job's
// `run:` scripts in order, in bash with the runner's flags, with the env the workflow, the job and
// the step set (their `${{ }}` expressions evaluated from a given context), a fresh $GITHUB_OUTPUT
// per step, and `dbform` on PATH running this checkout's build. Steps that `uses:` an action and the
// pinned-install step (test/e2e/cli/ci-example.test.ts covers it) are not run.
import { spawn } from 'node:child_process';
import { chmodSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { BIN } from './cli.js';

export interface WorkflowStep {
  name?: string;
  run?: string;
  uses?: string;
  id?: string;
  env?: Record<string, string>;
}

export interface WorkflowJob {
  if?: string;
  env?: Record<string, string>;
  steps: WorkflowStep[];
}

export interface Workflow {
  on: Record<string, unknown>;
  env: Record<string, string>;
  jobs: Record<string, WorkflowJob>;
}

export const readWorkflow = (path: string): Workflow => parse(readFileSync(path, 'utf8')) as Workflow;

/** What `${{ }}` expressions read: vars.*, secrets.* and github.*. */
export interface ExpressionContext {
  vars: Record<string, string>;
  secrets: Record<string, string>;
  github: Record<string, string>;
}

/** Replaces each `${{ path }}`; an expression this harness does not know fails the test. */
export function expand(text: string, ctx: ExpressionContext): string {
  return text.replace(/\$\{\{\s*([^}]+?)\s*\}\}/g, (_m, expr: string) => {
    const [scope, ...rest] = expr.split('.');
    const key = rest.join('.');
    const table = scope === 'vars' ? ctx.vars : scope === 'secrets' ? ctx.secrets : scope === 'github' ? ctx.github : undefined;
    const value = table?.[key];
    if (value === undefined) throw new Error(`the workflow uses \${{ ${expr} }}, which this test gives no value`);
    return value;
  });
}

export interface StepResult {
  step: string;
  status: number | null;
  stdout: string;
  stderr: string;
  githubOutput: string;
}

export interface RunJobOptions {
  cwd: string;
  ctx: ExpressionContext;
  /** Added to the job's environment (HOME, TMPDIR, the emulator's time scale...). */
  env: NodeJS.ProcessEnv;
}

const isInstall = (s: WorkflowStep) => s.run?.includes('npm install') === true;

/** A directory holding a `dbform` that runs this checkout's bin/dbform.js. */
export function dbformShim(dir: string): string {
  const bin = join(dir, 'shim-bin');
  mkdirSync(bin, { recursive: true });
  writeFileSync(join(bin, 'dbform'), `#!/bin/sh\nexec "${process.execPath}" "${BIN}" "$@"\n`);
  chmodSync(join(bin, 'dbform'), 0o755);
  return bin;
}

/** bash as the runner starts it; async, so an emulator in this process keeps answering. */
function runBash(script: string, cwd: string, env: NodeJS.ProcessEnv): Promise<{ status: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    // GitHub's default shell on Linux: bash --noprofile --norc -eo pipefail {0}.
    const child = spawn('bash', ['--noprofile', '--norc', '-eo', 'pipefail', '-c', script], { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    child.on('error', reject);
    child.on('close', (status) => resolve({ status, stdout, stderr }));
  });
}

/** Runs the job's shell steps in order; stops after the first that fails, as a runner does. */
export async function runJob(workflow: Workflow, jobName: string, o: RunJobOptions): Promise<StepResult[]> {
  const job = workflow.jobs[jobName];
  if (!job) throw new Error(`the workflow has no job ${jobName}`);
  const shim = dbformShim(o.cwd);
  const results: StepResult[] = [];
  for (const [i, step] of job.steps.entries()) {
    if (!step.run || isInstall(step)) continue;
    const env: NodeJS.ProcessEnv = { PATH: `${shim}:${process.env.PATH}`, ...o.env };
    for (const layer of [workflow.env, job.env ?? {}, step.env ?? {}]) for (const [k, v] of Object.entries(layer)) env[k] = expand(String(v), o.ctx);
    const outputFile = join(o.cwd, `.github-output-${jobName}-${i}`);
    writeFileSync(outputFile, '');
    env.GITHUB_OUTPUT = outputFile;
    const r = await runBash(expand(step.run, o.ctx), o.cwd, env);
    results.push({ step: step.name ?? step.run, ...r, githubOutput: readFileSync(outputFile, 'utf8') });
    if (r.status !== 0) break;
  }
  return results;
}
