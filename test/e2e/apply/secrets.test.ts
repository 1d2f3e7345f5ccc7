// Secrets never leave: the API token, a configured password and the initial passwords appear in
// no output, lockfile, plan file or markdown; initial passwords go only to the pgpass file.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiClient } from '../../../src/api/client.js';
import { startEmulator } from '../../../src/emulator/index.js';
import { runCli, workspace, type CliResult, type Workspace } from './cli-harness.js';
import { removeTempDirs } from '../../support/temp-dir.js';

afterAll(removeTempDirs);

const TOKEN = 'canary-token-7c1f2b9e';
const PASSWORD = 'canary-password-5d8a3e';
let emulator: Awaited<ReturnType<typeof startEmulator>>;
let ws: Workspace;
const outputs: Array<[string, string]> = [];
const record = (name: string, run: CliResult) => outputs.push([`${name} stdout`, run.stdout], [`${name} stderr`, run.stderr]);

const config = (version: number) => `version: 1
project_id: proj-demo
services:
  db:
    cpu_millis: 500
    memory_gbs: 2
    password:
      from_env: DB_PASSWORD
      version: ${version}
`;

beforeAll(async () => {
  emulator = await startEmulator({
    timeScale: 0.01,
    seed: { projects: [{ id: 'proj-demo', name: 'Demo' }], tokens: [{ token: TOKEN, kind: 'pat', project_id: 'proj-demo' }] },
  });
  ws = workspace(config(1), emulator.url, { DBFORM_API_KEY: TOKEN, DB_PASSWORD: PASSWORD });
  record('plan --out', await runCli(ws, ['plan', '--out', 'saved.plan.json']));
  record('plan --format markdown', await runCli(ws, ['plan', '--format', 'markdown']));
  record('apply PLAN --debug', await runCli(ws, ['apply', 'saved.plan.json', '--debug']));
  const { writeFileSync } = await import('node:fs');
  writeFileSync(ws.config, config(2));
  record('plan --json', await runCli(ws, ['plan', '--json']));
  record('apply (rotation) --debug', await runCli(ws, ['apply', '--auto-approve', '--debug']));
  // A failing updatePassword must not leak either: a config that names an unset variable.
  writeFileSync(ws.config, config(3).replace('DB_PASSWORD', 'UNSET_PASSWORD'));
  record('apply (missing variable)', await runCli(ws, ['apply', '--auto-approve']));
});
afterAll(async () => emulator?.close());

describe('secrets', () => {
  it('ran the commands it inspects', () => {
    expect(outputs).toHaveLength(12);
    expect(outputs.find(([n]) => n === 'apply (rotation) --debug stdout')![1]).toContain('updatePassword');
    expect(outputs.find(([n]) => n === 'apply (missing variable) stderr')![1]).toContain('environment variable UNSET_PASSWORD (password.from_env of service.db) is not set or empty');
    expect(outputs.find(([n]) => n === 'plan --format markdown stdout')![1]).toContain('service.db');
  });

  it('the token and the password appear in no output, lockfile, plan file or markdown', async () => {
    const files = readdirSync(ws.dir).filter((f) => statSync(join(ws.dir, f)).isFile() && f !== 'pgpass');
    expect(files).toEqual(expect.arrayContaining(['dbform.lock.json', 'saved.plan.json', 'dbform.yaml']));
    const texts: Array<[string, string]> = [...outputs, ...files.map((f): [string, string] => [f, readFileSync(join(ws.dir, f), 'utf8')])];
    for (const [name, text] of texts) {
      expect(text.includes(TOKEN), `${name} holds the API token`).toBe(false);
      expect(text.includes(PASSWORD), `${name} holds the password`).toBe(false);
    }
  });

  it('the initial password is only in the pgpass file (0600), with the service endpoint', async () => {
    const pgpass = readFileSync(ws.pgpass, 'utf8').trim().split('\n');
    expect(pgpass).toHaveLength(1);
    const [host, port, db, user, initial] = pgpass[0]!.split(':');
    const client = new ApiClient({ baseUrl: emulator.url, token: TOKEN });
    const live = (await client.listServices('proj-demo'))[0]!;
    await client.close();
    expect([host, port, db, user]).toEqual([live.endpoint!.host, String(live.endpoint!.port), 'tsdb', 'tsdbadmin']);
    expect(initial!.length).toBeGreaterThan(8);
    expect(statSync(ws.pgpass).mode & 0o777).toBe(0o600);
    for (const [name, text] of [...outputs, ['lockfile', readFileSync(ws.lockfile, 'utf8')] as [string, string]]) {
      expect(text.includes(initial!), `${name} holds the initial password`).toBe(false);
    }
    expect(JSON.parse(readFileSync(ws.lockfile, 'utf8')).resources['service.db'].password_version).toBe(2);
  });
});
