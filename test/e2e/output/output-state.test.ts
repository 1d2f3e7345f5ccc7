// `dbform output` reads the state wherever it lives: on PostgreSQL (--state, DBFORM_STATE) and in
// each workspace (--workspace, DBFORM_WORKSPACE), each address answered from its own binding.
import { describe, expect, it } from 'vitest';
import { runCli, workspace } from '../apply/cli-harness.js';
import { useDatabaseAndEmulator } from '../../support/pg-and-emulator.js';

const world = useDatabaseAndEmulator();

const config = `version: 1
project_id: proj-demo
services:
  app:
    name: app-\${workspace}
    cpu_millis: 500
    memory_gbs: 2
`;

describe('dbform output with a PostgreSQL state and workspaces', () => {
  it('answers each workspace from its own binding; --state and DBFORM_STATE select the store', async () => {
    const ws = workspace(config, world.emulator.url);
    for (const w of ['default', 'pr-7']) {
      const r = await runCli(ws, ['apply', '--auto-approve', '--state', world.db.url, '--workspace', w]);
      expect(r.code, r.stderr).toBe(0);
    }
    const ids = await world.db.query<{ workspace: string; id: string }>("SELECT workspace, document -> 'resources' -> 'service.app' ->> 'id' AS id FROM dbform.states ORDER BY workspace");
    const idOf = (w: string) => ids.rows.find((r) => r.workspace === w)!.id;
    const hostOf = async (args: string[], env: NodeJS.ProcessEnv = {}) => {
      const r = await runCli(ws, ['output', '--json', ...args], { env });
      expect(r.code, r.stderr).toBe(0);
      return JSON.parse(r.stdout)['service.app'].host as string;
    };
    const preview = await hostOf(['--state', world.db.url, '--workspace', 'pr-7']);
    expect(preview).toBe(`${idOf('pr-7')}.proj-demo.tsdb.cloud.example`);
    expect(await hostOf([], { DBFORM_STATE: world.db.url, DBFORM_WORKSPACE: 'pr-7' })).toBe(preview);
    expect(await hostOf(['--state', world.db.url])).toBe(`${idOf('default')}.proj-demo.tsdb.cloud.example`);
    expect(idOf('default')).not.toBe(idOf('pr-7'));
    // The lockfile beside the config binds nothing: without the state URL, nothing is bound.
    const local = await runCli(ws, ['output', '--workspace', 'pr-7']);
    expect(local.code).toBe(1);
    expect(local.stderr).toBe('error: service.app is not bound in workspace "pr-7" of dbform.pr-7.lock.json: it has not been applied there yet (run `dbform apply`)\n');
    const missing = await runCli(ws, ['output', '--state', world.db.url, '--workspace', 'pr-8']);
    expect(missing.stderr).toMatch(/^error: service\.app is not bound in workspace "pr-8" of postgres:\/\/\S+: it has not been applied there yet \(run `dbform apply`\)\n$/);
  });
});
