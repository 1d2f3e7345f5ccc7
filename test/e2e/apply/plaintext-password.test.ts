// A password written into the config (`password: "..."`, or anything under `password` other than
// `{ from_env, version }`) is an error that names that form and never shows the value: not in
// validate's text or --json, not in plan's or apply's errors. Nothing is sent to the API.
import { rmSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmulator } from '../../../src/emulator/index.js';
import { runCli, workspace, type CliResult } from './cli-harness.js';

const SECRET = 'hunter2-canary-9f3b';
let emulator: Awaited<ReturnType<typeof startEmulator>>;
const dirs: string[] = [];

const config = (password: string) => `version: 1
project_id: proj-demo
services:
  db:
    cpu_millis: 500
    memory_gbs: 2
    password: ${password}
`;

/** Shapes a user may write a password in; each holds the secret somewhere. */
const SHAPES: Record<string, string> = {
  string: `"${SECRET}"`,
  plain: SECRET,
  'value key': `{ value: "${SECRET}" }`,
  'secret as a key': `{ ${SECRET}: 1 }`,
  list: `["${SECRET}"]`,
  'from_env holding a list': `{ from_env: ["${SECRET}"], version: 1 }`,
  'version holding the secret': `{ from_env: DB_PASSWORD, version: "${SECRET}" }`,
  'from an environment variable': '${env:DB_PASSWORD}',
  'block scalar': `|\n      ${SECRET}`,
};

beforeAll(async () => {
  emulator = await startEmulator({ timeScale: 0.01 });
});
afterAll(async () => {
  await emulator?.close();
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

describe('a password written in the config', () => {
  it.each(Object.keys(SHAPES))('%s: an error naming { from_env, version }, the value never shown', async (shape) => {
    const ws = workspace(config(SHAPES[shape]!), emulator.url, { DB_PASSWORD: SECRET });
    dirs.push(ws.dir);
    const runs: Array<[string, CliResult]> = [
      ['validate', await runCli(ws, ['validate'])],
      ['validate --json', await runCli(ws, ['validate', '--json'])],
      ['plan', await runCli(ws, ['plan'])],
      ['apply', await runCli(ws, ['apply', '--auto-approve'])],
    ];
    for (const [name, r] of runs) {
      expect(r.code, `${name}: ${r.stderr}`).toBe(1);
      const output = r.stdout + r.stderr;
      expect(output.includes(SECRET), `${name} shows the secret:\n${output}`).toBe(false);
      if (name !== 'validate --json') expect(output, name).toMatch(/^dbform\.yaml:7:\d+: .*from_env/m);
    }
    const json = JSON.parse(runs[1]![1].stdout) as { errors: Array<{ message: string; path: string | null }> };
    expect(json.errors.map((e) => e.message).join('\n')).toMatch(/from_env/);
    for (const e of json.errors) expect(e.path ?? '').toMatch(/^services\.db\.password(\.from_env|\.version)?$/);
  });

  it('says (sensitive) where a value was found', async () => {
    const ws = workspace(config(`"${SECRET}"`), emulator.url);
    dirs.push(ws.dir);
    const r = await runCli(ws, ['validate']);
    expect(r.stderr).toBe(
      'dbform.yaml:7:15: services.db.password: expected { from_env: VARIABLE, version: 1 } (the password is read from that environment variable at apply time and never written in the config), found a string (sensitive)\n1 error\n',
    );
  });
});
