// The example workflows (every examples/ci/*.yml) hold the API token: they must
// install dbform only from a source the user pins and controls (a full commit of their fork, or a
// tarball they keep), never a registry name someone else can publish to; and every dbform command
// they run must exist as written.
import { spawnSync } from 'node:child_process';
import { chmodSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { runCli } from '../../support/cli.js';
import { tempDir } from '../../support/temp-dir.js';

const CI = join(import.meta.dirname, '..', '..', '..', 'examples', 'ci');

/** Each example: its pinned installs (one per job), the dbform commands it runs, flags it must use. */
const EXAMPLES = [
  { file: 'github-actions.yml', installs: 2, commands: ['apply', 'plan', 'validate'], flags: ['plan --format', 'plan --detailed-exitcode', 'apply --auto-approve'] },
  {
    file: 'preview.yml',
    installs: 3,
    commands: ['apply', 'destroy', 'output', 'sweep'],
    flags: ['apply --auto-approve', 'apply --ttl', 'destroy --auto-approve', 'sweep --auto-approve'],
  },
  { file: 'drift.yml', installs: 1, commands: ['plan'], flags: ['plan --refresh-only', 'plan --format', 'plan --detailed-exitcode'] },
  {
    file: 'github-actions-team.yml',
    installs: 2,
    commands: ['apply', 'plan', 'validate'],
    flags: ['plan --format', 'plan --detailed-exitcode', 'apply --auto-approve', 'apply --lock-timeout'],
  },
] as const;

it('checks every workflow under examples/ci (a new example cannot skip the pinning rules)', () => {
  const files = readdirSync(CI).filter((f) => /\.ya?ml$/.test(f)).sort();
  expect(files).toEqual(EXAMPLES.map((e) => e.file).sort());
});

interface Step {
  name?: string;
  run?: string;
  uses?: string;
}
interface Workflow {
  env: Record<string, string>;
  jobs: Record<string, { steps: Step[] }>;
}

let current = '';
const workflow = () => parse(readFileSync(join(CI, current), 'utf8')) as Workflow;
const runs = (w: Workflow) => Object.values(w.jobs).flatMap((j) => j.steps.flatMap((s) => (s.run ? [s.run] : [])));
/** Shell lines of the run scripts, comments dropped and `\` continuations joined. */
const shellLines = (w: Workflow) =>
  runs(w)
    .flatMap((r) => r.replace(/\\\n/g, ' ').split('\n'))
    .map((l) => l.replace(/(^|\s)#.*$/, '').trim())
    .filter((l) => l !== '');

/** Package specs an install-like command names: `npm i|install|add`, `npx`, `pnpm add|dlx`, `yarn add|dlx`. */
function installSpecs(line: string): string[] {
  const specs: string[] = [];
  const re = /\b(?:npm\s+(?:i|install|add|exec)|npx|pnpm\s+(?:add|dlx|i|install)|yarn\s+(?:add|dlx)|bunx)\b([^;&|]*)/g;
  for (const m of line.matchAll(re)) {
    for (const word of m[1]!.trim().split(/\s+/)) if (word !== '' && !word.startsWith('-')) specs.push(word.replace(/^["']|["']$/g, ''));
  }
  return specs;
}

describe.each(EXAMPLES)('the GitHub Actions example $file installs dbform from a pinned source the user controls', (example) => {
  beforeAll(() => {
    current = example.file;
  });

  it('names no registry package: every install is a git URL at a full commit or a local tarball', () => {
    const w = workflow();
    const specs = shellLines(w).flatMap(installSpecs);
    expect(specs.length).toBeGreaterThanOrEqual(example.installs); // every job installs
    for (const spec of specs) {
      const expanded = spec.replace(/\$\{?(\w+)\}?/g, (_m, name: string) => w.env[name] ?? `$${name}`);
      const pinnedGit = /^git\+https:\/\/[^#\s]+#[^#\s]+$/.test(expanded) && /#\$\{?DBFORM_COMMIT\}?$/.test(spec);
      const tarball = /^\.{0,2}\/\S+\.tgz$/.test(expanded);
      expect(pinnedGit || tarball, `install spec "${spec}" (${expanded}) is neither a pinned git commit nor a local tarball`).toBe(true);
      expect(expanded).not.toMatch(/^(@[\w-]+\/)?dbform(@|$)/);
    }
    // `npx dbform` would fetch the registry's dbform whenever the installed one is not on PATH.
    for (const line of shellLines(w)) expect(line).not.toMatch(/\b(npx|bunx|pnpm dlx|yarn dlx)\s+(--?\S+\s+)*dbform\b/);
    expect(w.env.DBFORM_PACKAGE).toBeUndefined();
  });

  it('refuses to install until DBFORM_COMMIT is a full commit SHA, then installs exactly that commit', () => {
    const w = workflow();
    const installs = Object.values(w.jobs).flatMap((j) => j.steps.filter((s) => s.run?.includes('npm install')));
    expect(installs).toHaveLength(example.installs);
    const bin = tempDir('dbform-ci-');
    const calls = join(bin, 'calls');
    // An `npm` that records what it was asked to install; the step's own shell logic is what runs.
    writeFileSync(join(bin, 'npm'), `#!/bin/sh\necho "$@" >> "${calls}"\n`);
    chmodSync(join(bin, 'npm'), 0o755);
    const run = (script: string, commit: string) =>
      spawnSync('bash', ['-e', '-c', script], { env: { PATH: `${bin}:${process.env.PATH}`, DBFORM_REPO: w.env.DBFORM_REPO, DBFORM_COMMIT: commit }, encoding: 'utf8' });
    const sha = '0123456789abcdef0123456789abcdef01234567';
    for (const step of installs) {
      writeFileSync(calls, '');
      for (const bad of [w.env.DBFORM_COMMIT!, 'main', 'v0.1.0', sha.slice(0, 12), `${sha} `]) {
        const refused = run(step.run!, bad);
        expect(refused.status, bad).toBe(1);
        expect(refused.stderr).toContain('DBFORM_COMMIT must be the full 40-character commit SHA');
      }
      expect(readFileSync(calls, 'utf8')).toBe('');
      const ok = run(step.run!, sha);
      expect(ok.status, ok.stderr).toBe(0);
      expect(readFileSync(calls, 'utf8')).toBe(`install --global git+${w.env.DBFORM_REPO}#${sha}\n`);
    }
    expect(w.env.DBFORM_REPO).toMatch(/^https:\/\/\S+\.git$/);
  });

  it('runs only dbform commands and flags that the CLI has', async () => {
    const commands = shellLines(workflow())
      .flatMap((l) => [...l.matchAll(/^dbform\s+([a-z]+)([^;&|>]*)/g)])
      .map((m) => ({ command: m[1]!, flags: [...m[2]!.matchAll(/(--[a-z-]+)(?:[ =]([a-z]+))?/g)].map((f) => ({ flag: f[1]!, value: f[2] })) }));
    expect(commands.map((c) => c.command).sort()).toEqual([...example.commands]);
    // Each command's help once, however many steps run it.
    const helps = new Map<string, Promise<Awaited<ReturnType<typeof runCli>>>>();
    for (const { command, flags } of commands) {
      if (!helps.has(command)) helps.set(command, runCli([command, '--help']));
      const help = await helps.get(command)!;
      expect(help.code, help.stderr).toBe(0);
      for (const { flag, value } of flags) {
        expect(help.stdout, `dbform ${command} ${flag}`).toMatch(new RegExp(`\\s${flag}\\b`));
        if (flag === '--format') expect(help.stdout).toContain(`"${value}"`);
      }
    }
    const flat = commands.flatMap((c) => c.flags.map((f) => `${c.command} ${f.flag}`));
    expect(flat).toEqual(expect.arrayContaining([...example.flags]));
  });
});
