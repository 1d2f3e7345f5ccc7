// Terraform habits (SPEC section 14): `dbform completion SHELL` scripts that a real shell runs and
// that complete commands and flag values from the program itself; Terraform's verbs that dbform
// spells otherwise answer with one line naming the dbform command.
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BIN, runCli } from '../../support/cli.js';
import { tempDir } from '../../support/temp-dir.js';

/**
 * Runs the bash script dbform prints, in bash, as the shell would on TAB: COMP_WORDS and
 * COMP_CWORD set, the completion function called, COMPREPLY printed. bash-completion's
 * `_get_comp_words_by_ref` (the script's one outside helper) is given its plain meaning.
 */
function completeInBash(words: string[]): string[] {
  const dir = tempDir('dbform-completion-');
  const script = join(dir, 'tab.sh');
  const quoted = words.map((w) => `'${w}'`).join(' ');
  writeFileSync(
    script,
    [
      '_get_comp_words_by_ref() { cur="${COMP_WORDS[COMP_CWORD]}"; prev="${COMP_WORDS[COMP_CWORD-1]}"; words=("${COMP_WORDS[@]}"); cword=$COMP_CWORD; }',
      `dbform() { "${process.execPath}" "${BIN}" "$@"; }`,
      'source <(dbform completion bash)',
      `COMP_WORDS=(dbform ${quoted}); COMP_CWORD=${words.length}`,
      '__dbform_complete 2>/dev/null',
      'printf "%s\\n" "${COMPREPLY[@]}"',
    ].join('\n'),
  );
  const run = spawnSync('bash', [script], { encoding: 'utf8' });
  expect(run.status, run.stderr).toBe(0);
  return run.stdout.split('\n').filter((l) => l !== '');
}

describe('dbform completion', () => {
  it('bash completes a command name and the choices of a flag, read from the program', () => {
    expect(completeInBash(['pl'])).toEqual(['plan']);
    expect(completeInBash(['plan', '--format', ''])).toEqual(['text', 'json', 'markdown']);
    expect(completeInBash(['st'])).toEqual(['state']);
  });

  it.each(['bash', 'zsh', 'fish'])('prints a %s script that asks `dbform complete` for candidates', async (shell) => {
    // A real process: @bomb.sh/tab prints the script with console.log, and registers what it
    // describes on a program of its own module, once per process.
    const r = await runCli(['completion', shell], { spawn: true });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('dbform complete --');
    if (shell === 'bash') expect(spawnSync('bash', ['-n'], { input: r.stdout }).status).toBe(0);
  });

  it('refuses a shell it does not know, in one line', async () => {
    const r = await runCli(['completion', 'tcsh']);
    expect(r.code).toBe(1);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).toContain('bash, zsh, fish');
  });
});

describe("Terraform's verbs", () => {
  it.each([
    [['refresh'], 'dbform plan --refresh-only'],
    [['show', 'service.db'], 'dbform state show service.db'],
    [['init'], 'dbform validate'],
    [['taint', 'service.db'], 'dbform plan --replace service.db'],
  ])('%j answers with one line naming the dbform spelling, exit 1', async (args, spelling) => {
    const r = await runCli(args);
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).toContain(spelling);
  });

  it('keeps them out of --help', async () => {
    const help = await runCli(['--help']);
    expect(help.stdout).toContain('completion');
    expect(help.stdout).not.toMatch(/^\s+(refresh|taint|init|complete)\b/m);
  });
});
