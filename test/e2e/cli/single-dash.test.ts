// Terraform-style single-dash options get one line with dbform's spelling, never commander's
// generic error or a silent misreading (`export -out=plan` as `-o ut=plan`).
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../../support/cli.js';

const ROOT = join(import.meta.dirname, '..', '..', '..');

const CASES: Array<[string[], string]> = [
  [['apply', '-auto-approve'], "error: unknown option '-auto-approve': dbform's options take two dashes; write --auto-approve"],
  [['-auto-approve', 'apply'], "error: unknown option '-auto-approve': dbform's options take two dashes; write --auto-approve"],
  [['apply', '-target=service.x'], "error: unknown option '-target=service.x': dbform's options take two dashes; write --target service.x"],
  [['plan', '-target', 'service.x'], "error: unknown option '-target': dbform's options take two dashes; write --target service.x"],
  [['plan', '-out=plan'], "error: unknown option '-out=plan': dbform's options take two dashes; write --out plan"],
  [['plan', '-detailed-exitcode'], "error: unknown option '-detailed-exitcode': dbform's options take two dashes; write --detailed-exitcode"],
  [['apply', '-parallelism=3'], "error: unknown option '-parallelism=3': dbform's options take two dashes; write --parallelism 3"],
  [['export', '-out=plan'], "error: unknown option '-out=plan': dbform's options take two dashes, and `dbform export` has no --out (see dbform export --help)"],
  [['export', '-force'], "error: unknown option '-force': dbform's options take two dashes; write --force"],
  [['apply', '-lock=false'], "error: unknown option '-lock=false' (a Terraform option): dbform always locks the state during apply; `--force-unlock` removes a lock left by another run"],
  [['plan', '-var-file=prod.tfvars'], "error: unknown option '-var-file=prod.tfvars' (a Terraform option): dbform has no variables; write ${env:NAME} in the config to read an environment variable"],
  [['plan', '-destroy'], "error: unknown option '-destroy' (a Terraform option): run `dbform destroy` to delete everything the state binds"],
];

describe('Terraform-style single-dash options', () => {
  it.each(CASES)('%j', async (args, line) => {
    const r = await runCli(args, { cwd: ROOT });
    expect(r).toMatchObject({ code: 1, stdout: '', stderr: `${line}\n` });
  });

  it('leaves short options with their values alone', async () => {
    expect(await runCli(['validate', '-f', 'examples/quickstart.yaml'], { cwd: ROOT })).toMatchObject({ code: 0 });
    expect(await runCli(['validate', '-fexamples/quickstart.yaml'], { cwd: ROOT })).toMatchObject({ code: 0 });
    expect(await runCli(['-f', 'examples/quickstart.yaml', 'validate'], { cwd: ROOT })).toMatchObject({ code: 0 });
  });

  it('leaves words after -- to the command', async () => {
    const r = await runCli(['validate', '--', '-auto-approve'], { cwd: ROOT });
    expect(r.stderr).not.toContain('two dashes');
  });
});
