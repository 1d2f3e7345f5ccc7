// Workspaces on a real PostgreSQL and on files: ${workspace} in the config, ten workspaces
// applying at once, list, delete, and adoption that never takes another workspace's ID.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli, workspace } from '../apply/cli-harness.js';
import { useDatabaseAndEmulator } from '../../support/pg-and-emulator.js';

const world = useDatabaseAndEmulator();

const preview = `version: 1
project_id: proj-demo
services:
  app:
    name: app-\${workspace}
    cpu_millis: 500
    memory_gbs: 2
  shared:
    name: shared-db
    cpu_millis: 500
    memory_gbs: 2
`;

async function liveServices(): Promise<Array<{ service_id: string; name: string }>> {
  const res = await fetch(`${world.emulator.url}/projects/proj-demo/services`, { headers: { authorization: 'Bearer demo-pat' } });
  return (await res.json()) as Array<{ service_id: string; name: string }>;
}

describe('workspaces', () => {
  it('ten workspaces apply at once on one PostgreSQL state: each gets its own resources, no ID is bound twice', async () => {
    // A live service that every workspace's config names: at most one workspace may adopt it.
    const created = await fetch(`${world.emulator.url}/projects/proj-demo/services`, {
      method: 'POST',
      headers: { authorization: 'Bearer demo-pat', 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'shared-db', cpu_millis: '500', memory_gbs: '2' }),
    });
    const sharedId = ((await created.json()) as { service_id: string }).service_id;
    const ws = workspace(preview, world.emulator.url, { DBFORM_STATE: world.db.url });
    const names = Array.from({ length: 10 }, (_, i) => `pr-${i + 1}`);
    const runs = await Promise.all(names.map((n) => runCli(ws, ['apply', '--auto-approve', '--workspace', n])));
    const claims = await world.db.query<{ resource_id: string; workspace: string; address: string }>(
      "SELECT resource_id, workspace, address FROM dbform.claims WHERE project_id = 'proj-demo' ORDER BY workspace, address",
    );
    const ids = claims.rows.map((r) => r.resource_id);
    expect(new Set(ids).size).toBe(ids.length);
    expect(claims.rows.filter((r) => r.resource_id === sharedId).length).toBeLessThanOrEqual(1);
    const live = await liveServices();
    expect(runs.filter((r) => r.code === 0).length).toBeGreaterThanOrEqual(1);
    names.forEach((n, i) => {
      if (runs[i]!.code !== 0) {
        // Lost a race for a fixed name, in one line: the ID another workspace bound first is not
        // bound here; or, planned after it was bound, creating another "shared-db" would make a
        // twin of it (SPEC section 13); or copies made meanwhile are ambiguous.
        expect(runs[i]!.stderr).toMatch(
          /^(error: apply stopped: resource ID \w+ \(service\.shared\) is already bound to service\.shared in workspace "pr-\d+" of project proj-demo; a resource belongs to one workspace only, so this workspace does not bind it\.|dbform\.yaml:\d+:\d+: service\.shared would be created with the name "shared-db", which is the name of the live service \w+ that workspace "pr-\d+" binds as service\.shared: that would make a twin of it|dbform\.yaml:\d+:\d+: \d+ live services have the name "shared-db" .*dbform import service\.shared <ID>)/m,
        );
        expect(claims.rows.some((r) => r.workspace === n && r.resource_id === sharedId)).toBe(false);
        return;
      }
      const app = live.filter((s) => s.name === `app-${n}`);
      expect(app, n).toHaveLength(1);
      expect(claims.rows.find((r) => r.workspace === n && r.address === 'service.app')?.resource_id, n).toBe(app[0]!.service_id);
    });
    // Run again, a workspace that lost the race never adopts the ID another workspace binds, nor
    // creates a twin of it: the plan names the workspace that owns "shared-db", and nothing is created.
    const owner = claims.rows.find((r) => r.resource_id === sharedId)!.workspace;
    const before = (await liveServices()).length;
    for (const [i, n] of names.entries()) {
      if (runs[i]!.code === 0) continue;
      const again = await runCli(ws, ['apply', '--auto-approve', '--workspace', n]);
      expect(again.code, again.stderr).toBe(1);
      expect(again.stderr).toContain(`that workspace "${owner}" binds as service.shared: that would make a twin of it. To work on workspace "${owner}", run with --workspace ${owner}`);
    }
    expect((await liveServices()).length).toBe(before);
    const after = await world.db.query<{ resource_id: string; workspace: string; address: string }>("SELECT resource_id, workspace, address FROM dbform.claims WHERE project_id = 'proj-demo'");
    expect(new Set(after.rows.map((r) => r.resource_id)).size).toBe(after.rows.length);
    expect(after.rows.filter((r) => r.resource_id === sharedId)).toHaveLength(1);
    expect(after.rows.filter((r) => r.address === 'service.shared').map((r) => r.workspace)).toEqual([owner]);
    // Every workspace that wrote a state is listed (one refused at its plan wrote none).
    const list = JSON.parse((await runCli(ws, ['workspace', 'list', '--json', '--workspace', owner])).stdout);
    const written = [...new Set(after.rows.map((r) => r.workspace))].sort();
    expect(list.map((w: { workspace: string }) => w.workspace)).toEqual(expect.arrayContaining(written));
    expect(list.every((w: { workspace: string }) => names.includes(w.workspace))).toBe(true);
    expect(list.find((w: { workspace: string }) => w.workspace === owner)).toMatchObject({ current: true, expires_at: null });
    expect(list.every((w: { last_apply: string | null }) => w.last_apply !== null)).toBe(true);
  });

  it('workspace delete refuses while the workspace binds resources; destroy, then delete', async () => {
    const ws = workspace(preview.replace(/  shared:[\s\S]*$/, ''), world.emulator.url, { DBFORM_STATE: world.db.url, DBFORM_WORKSPACE: 'tmp-1' });
    expect((await runCli(ws, ['apply', '--auto-approve'])).code).toBe(0);
    const refused = await runCli(ws, ['workspace', 'delete', 'tmp-1']);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toBe('error: workspace "tmp-1" still binds 1 resource(s); run `dbform destroy --workspace tmp-1` first (nothing was deleted)\n');
    expect((await runCli(ws, ['destroy', '--auto-approve'])).code).toBe(0);
    const deleted = await runCli(ws, ['workspace', 'delete', 'tmp-1']);
    expect(deleted.code, deleted.stderr).toBe(0);
    const list = JSON.parse((await runCli(ws, ['workspace', 'list', '--json'])).stdout);
    expect(list.map((w: { workspace: string }) => w.workspace)).not.toContain('tmp-1');
    const history = JSON.parse((await runCli(ws, ['history', '--json', '--limit', '1'])).stdout);
    expect(history).toHaveLength(1);
    expect(history[0]).toMatchObject({ workspace: 'tmp-1', command: 'dbform destroy --auto-approve', exit_code: 0 });
  });

  it('file store: dbform.<workspace>.lock.json beside dbform.lock.json, history in .dbform/history.jsonl', async () => {
    const ws = workspace(preview.replace(/  shared:[\s\S]*$/, ''), world.emulator.url);
    expect((await runCli(ws, ['apply', '--auto-approve', '--workspace', 'feature-x'])).code).toBe(0);
    expect(existsSync(ws.lockfile)).toBe(false);
    const lock = JSON.parse(readFileSync(join(ws.dir, 'dbform.feature-x.lock.json'), 'utf8'));
    expect(Object.keys(lock.resources)).toEqual(['service.app']);
    const lines = readFileSync(join(ws.dir, '.dbform', 'history.jsonl'), 'utf8').trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(JSON.parse(lines[0]!)).toMatchObject({ workspace: 'feature-x', exit_code: 0, actions: [{ address: 'service.app', op: 'createService', outcome: 'done' }] });
    const plan = await runCli(ws, ['plan', '--detailed-exitcode'], { env: { DBFORM_WORKSPACE: 'feature-x' } });
    expect(plan.code, plan.stdout).toBe(0);
    const live = await liveServices();
    expect(live.filter((s) => s.name === 'app-feature-x')).toHaveLength(1);
  });

  it('file store: adoption by name never takes an ID another workspace binds', async () => {
    const fixed = preview.replace(/  app:\n    name: app-\$\{workspace\}\n    cpu_millis: 500\n    memory_gbs: 2\n/, '').replace('shared-db', 'fixed-name');
    const ws = workspace(fixed, world.emulator.url);
    expect((await runCli(ws, ['apply', '--auto-approve', '--workspace', 'one'])).code).toBe(0);
    const bound = JSON.parse(readFileSync(join(ws.dir, 'dbform.one.lock.json'), 'utf8')).resources['service.shared'].id;
    const plan = JSON.parse((await runCli(ws, ['plan', '--json', '--workspace', 'two'])).stdout);
    expect(plan.bindings).toEqual([]);
    expect(plan.actions.map((a: { address: string; op: string }) => `${a.address} ${a.op}`)).toEqual(['service.shared createService']);
    // The same config in the workspace that binds it: nothing to do.
    const own = JSON.parse((await runCli(ws, ['plan', '--json', '--workspace', 'one'])).stdout);
    expect(own.actions).toEqual([]);
    expect(bound).toMatch(/^[a-z0-9]{10}$/);
  });

  it('a bad workspace name is one line and changes nothing', async () => {
    const ws = workspace(preview, world.emulator.url, { DBFORM_STATE: world.db.url });
    for (const [args, env, source] of [
      [['plan', '--workspace', 'Bad_Name'], {}, '--workspace'],
      [['apply', '--auto-approve'], { DBFORM_WORKSPACE: '-x' }, 'DBFORM_WORKSPACE'],
    ] as const) {
      const before = (await world.db.query('SELECT count(*)::int AS n FROM dbform.states')).rows[0];
      const r = await runCli(ws, [...args], { env });
      expect(r.code).toBe(1);
      expect(r.stderr).toMatch(new RegExp(`^error: ${source} "[^"]+" is not a valid workspace name: use 1-63 lowercase letters, digits and '-', starting with a letter or digit\\n$`));
      expect((await world.db.query('SELECT count(*)::int AS n FROM dbform.states')).rows[0]).toEqual(before);
    }
  });
});
