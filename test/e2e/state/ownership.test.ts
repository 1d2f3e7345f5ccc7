// The ownership authority of SPEC section 13, over real HTTP and a real PostgreSQL: a state that
// binds what another workspace owns (a hand-edited row or lockfile, a row overwritten with another
// workspace's document, a copied lockfile) stops every command that reads it before anything is
// planned, sent or printed. "Sent" is counted at the emulator (GET /__emulator/stats).
import { copyFileSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import { runCli, workspace, type Workspace } from '../apply/cli-harness.js';
import { useDatabaseAndEmulator } from '../../support/pg-and-emulator.js';
import { createTestDatabase, type TestDatabase } from '../../support/pg.js';

const world = useDatabaseAndEmulator();

const config = (prefix: string) => `version: 1
project_id: proj-demo
services:
  app:
    name: ${prefix}-\${workspace}
    cpu_millis: 500
    memory_gbs: 2
`;

/** A state database of one test: its workspaces are the whole project. */
async function freshDatabase(): Promise<TestDatabase> {
  const db = await createTestDatabase();
  onTestFinished(() => db.drop());
  return db;
}

interface Stats {
  requests: Record<string, number>;
  total: number;
}

async function emulatorStats(): Promise<Stats> {
  return (await (await fetch(new URL('/__emulator/stats', world.emulator.url))).json()) as Stats;
}

async function resetStats(): Promise<void> {
  await fetch(new URL('/__emulator/reset', world.emulator.url), { method: 'POST' });
}

async function liveServices(): Promise<Array<{ service_id: string; name: string; status: string }>> {
  const res = await fetch(`${world.emulator.url}/projects/proj-demo/services`, { headers: { authorization: 'Bearer demo-pat' } });
  return ((await res.json()) as Array<{ service_id: string; name: string; status: string }>).filter((s) => s.status !== 'DELETING');
}

async function apply(ws: Workspace, name: string, ...extra: string[]): Promise<void> {
  const r = await runCli(ws, ['apply', '--auto-approve', '--workspace', name, ...extra]);
  expect(r.code, r.stderr).toBe(0);
}

const DELETE_SERVICE = 'DELETE /projects/{project_id}/services/{service_id}';

/**
 * Every command that reads the state of `name`: each exits 1 with `message`, prints nothing on
 * stdout and sends nothing at all to the API (the check comes before the first request).
 */
async function expectEveryCommandRefused(ws: Workspace, name: string, message: RegExp): Promise<void> {
  const commands = [
    ['plan'],
    ['apply', '--auto-approve'],
    ['destroy', '--auto-approve'],
    ['output', '--format', 'env'],
    ['output', '--json'],
    ['state', 'show', 'service.app'],
    ['state', 'list'],
    ['logs', 'service.app'],
    ['import', 'service.app', 'zzzzzzzzzz'],
  ];
  for (const command of commands) {
    await resetStats();
    const r = await runCli(ws, [...command, '--workspace', name]);
    expect(r.code, `${command.join(' ')}: ${r.stderr}`).toBe(1);
    expect(r.stderr, command.join(' ')).toMatch(message);
    expect(r.stderr, command.join(' ')).not.toContain('unexpected failure');
    expect(r.stdout, command.join(' ')).toBe('');
    expect((await emulatorStats()).total, command.join(' ')).toBe(0);
  }
}

describe('a PostgreSQL state row that binds what another workspace owns', () => {
  it("destroy --workspace w3, its row edited to bind production's service ID: refused, no deleteService sent; so is every other command", async () => {
    const db = await freshDatabase();
    const ws = workspace(config('own-edit'), world.emulator.url, { DBFORM_STATE: db.url });
    await apply(ws, 'default');
    await apply(ws, 'w3');
    const ids = await db.query<{ workspace: string; id: string }>("SELECT workspace, document -> 'resources' -> 'service.app' ->> 'id' AS id FROM dbform.states");
    const production = ids.rows.find((r) => r.workspace === 'default')!.id;
    await db.query("UPDATE dbform.states SET document = jsonb_set(document, '{resources,service.app,id}', to_jsonb($1::text)) WHERE workspace = 'w3'", [production]);

    await resetStats();
    const r = await runCli(ws, ['destroy', '--auto-approve', '--workspace', 'w3']);
    expect(r.code).toBe(1);
    expect(r.stderr).toBe(
      `error: resource ID ${production} is bound to service.app in workspace "w3" and to service.app in workspace "default"; ` +
        'a resource belongs to one workspace only: if this binding is the mistake (an edited, restored or copied state), `dbform state rm service.app --workspace w3` forgets it.\n' +
        'Nothing was planned, sent or printed for workspace "w3" of project proj-demo.\n',
    );
    expect((await emulatorStats()).requests[DELETE_SERVICE]).toBeUndefined();
    expect((await liveServices()).map((s) => s.service_id)).toContain(production);

    await expectEveryCommandRefused(ws, 'w3', new RegExp(`^error: resource ID ${production} is bound to service\\.app in workspace "w3" and to service\\.app in workspace "default"`));
    // Production itself is untouched by the bad row: its own claims are its own.
    const plan = await runCli(ws, ['plan']);
    expect(plan.code, plan.stderr).toBe(0);
    expect(plan.stdout).toContain('No changes.');
    // The repair the error names: state rm forgets the wrong binding; w3 plans again, and its
    // own service (unbound now) is not the production one.
    const rm = await runCli(ws, ['state', 'rm', 'service.app', '--workspace', 'w3']);
    expect(rm.code, rm.stderr).toBe(0);
    const again = await runCli(ws, ['plan', '--workspace', 'w3']);
    expect(again.code, again.stderr).toBe(0);
    expect(again.stdout).not.toContain(production);
    expect((await liveServices()).map((s) => s.service_id)).toContain(production);
    const claims = await db.query<{ workspace: string }>('SELECT workspace FROM dbform.claims WHERE resource_id = $1', [production]);
    expect(claims.rows).toEqual([{ workspace: 'default' }]);
  });

  it("a row overwritten with another workspace's lineage and document (a bad restore): destroy refuses; a restored copy inserted as a new row too", async () => {
    const db = await freshDatabase();
    const ws = workspace(config('own-restore'), world.emulator.url, { DBFORM_STATE: db.url });
    await apply(ws, 'default');
    await apply(ws, 'w3');
    const before = await db.query<{ workspace: string; lineage: string }>('SELECT workspace, lineage FROM dbform.states ORDER BY workspace');
    const [prod, w3] = [before.rows[0]!.lineage, before.rows[1]!.lineage];
    await db.query(
      "UPDATE dbform.states w SET lineage = d.lineage, document = d.document, serial = d.serial FROM dbform.states d WHERE w.workspace = 'w3' AND d.workspace = 'default'",
    );
    // The database keeps the lineage the row was created with, whatever the edit wrote.
    const after = await db.query<{ created_lineage: string }>("SELECT created_lineage FROM dbform.states WHERE workspace = 'w3'");
    expect(after.rows[0]!.created_lineage).toBe(w3);

    await resetStats();
    const r = await runCli(ws, ['destroy', '--auto-approve', '--workspace', 'w3']);
    expect(r.code).toBe(1);
    expect(r.stderr.split('\n')[0]).toBe(
      `error: the state of workspace "w3" in ${redacted(db)} was created with lineage ${w3} but now holds a document of lineage ${prod}: ` +
        "another state's document was restored or copied over it; restore this workspace's own state.",
    );
    expect(r.stderr).toContain(`have the same lineage ${prod}: one is a copy of the other`);
    expect(r.stderr).toMatch(/resource ID \w+ is bound to service\.app in workspace "w3" and to service\.app in workspace "default"/);
    expect(r.stdout).toBe('');
    expect((await emulatorStats()).total).toBe(0);
    expect((await liveServices()).map((s) => s.name)).toEqual(expect.arrayContaining(['own-restore-default', 'own-restore-w3']));

    // Restored by deleting the row and inserting the copy: its creation lineage is the copy's, but
    // two rows of one lineage, and the claims, still say whose it is.
    await db.query("DELETE FROM dbform.states WHERE workspace = 'w3'");
    await db.query("INSERT INTO dbform.states (project_id, workspace, lineage, serial, document) SELECT project_id, 'w3', lineage, serial, document FROM dbform.states WHERE workspace = 'default'");
    await expectEveryCommandRefused(ws, 'w3', new RegExp(`^error: the state of workspace "w3" \\(\\S+\\) and the state of workspace "default" \\(\\S+\\) have the same lineage ${prod}`));
  });
});

function redacted(db: TestDatabase): string {
  return `postgres://postgres@127.0.0.1:${db.port}/${db.name}`;
}

describe('lockfiles beside each other (the file store)', () => {
  it("cp dbform.lock.json dbform.pr-6.lock.json and an expired expiry: sweep --auto-approve deletes nothing of default's", async () => {
    const ws = workspace(config('own-copy'), world.emulator.url);
    await apply(ws, 'default');
    await apply(ws, 'pr-5', '--ttl', '72h');
    copyFileSync(ws.lockfile, join(ws.dir, 'dbform.pr-6.lock.json'));
    writeFileSync(join(ws.dir, 'dbform.pr-6.lock.json.expiry.json'), JSON.stringify({ expires_at: '2020-01-01T00:00:00.000Z' }));
    const production = JSON.parse(readFileSync(ws.lockfile, 'utf8')).resources['service.app'].id as string;

    await resetStats();
    const r = await runCli(ws, ['sweep', '--auto-approve']);
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/^Sweeping 1 workspace\(s\) of project proj-demo: pr-6\n/);
    expect(r.stdout).not.toContain('Swept workspace');
    expect(r.stderr).toMatch(/^error: the state of workspace "pr-6" \(\S*dbform\.pr-6\.lock\.json\) and the state of workspace "default" \(\S*dbform\.lock\.json\) have the same lineage [0-9a-f-]+: one is a copy of the other/);
    expect(r.stderr).toContain(`resource ID ${production} is bound to service.app in workspace "pr-6" and to service.app in workspace "default"`);
    expect((await emulatorStats()).requests[DELETE_SERVICE]).toBeUndefined();
    expect((await liveServices()).map((s) => s.service_id)).toContain(production);

    // Which of the two is the copy cannot be told from the files: default is refused as well
    // until the copy is removed, and works again after.
    const plan = await runCli(ws, ['plan']);
    expect(plan.code).toBe(1);
    expect(plan.stderr).toMatch(/have the same lineage/);
    await expectEveryCommandRefused(ws, 'pr-6', /^error: the state of workspace "pr-6" \(\S+\) and the state of workspace "default"/);
  });

  it("output --workspace pr-3 --format env with pr-3's lockfile edited to bind production's ID prints nothing of production's", async () => {
    const ws = workspace(config('own-out'), world.emulator.url);
    await apply(ws, 'default');
    await apply(ws, 'pr-3');
    const production = JSON.parse(readFileSync(ws.lockfile, 'utf8')).resources['service.app'].id as string;
    const pr3 = join(ws.dir, 'dbform.pr-3.lock.json');
    const doc = JSON.parse(readFileSync(pr3, 'utf8'));
    doc.resources['service.app'].id = production;
    writeFileSync(pr3, JSON.stringify(doc, null, 2));
    await resetStats();
    const r = await runCli(ws, ['output', '--workspace', 'pr-3', '--format', 'env']);
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(new RegExp(`^error: resource ID ${production} is bound to service\\.app in workspace "pr-3" and to service\\.app in workspace "default"`));
    expect((await emulatorStats()).total).toBe(0);
    await expectEveryCommandRefused(ws, 'pr-3', new RegExp(`^error: resource ID ${production} is bound to service\\.app in workspace "pr-3"`));
  });

  it('a sibling lockfile that cannot be read leaves ownership unknown: refused, naming the file', async () => {
    const ws = workspace(config('own-broken'), world.emulator.url);
    await apply(ws, 'default');
    writeFileSync(join(ws.dir, 'dbform.pr-9.lock.json'), '{ not json');
    const r = await runCli(ws, ['plan']);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/^error: cannot tell which resources the workspace of \S*dbform\.pr-9\.lock\.json binds: it is not valid JSON/);
    expect(r.stdout).toBe('');
  });
});

describe('PostgreSQL: output of a hand-edited preview row', () => {
  it("output --workspace pr-3 --format env with pr-3's document edited to bind production's ID prints nothing of production's", async () => {
    const db = await freshDatabase();
    const ws = workspace(config('own-pgout'), world.emulator.url, { DBFORM_STATE: db.url });
    await apply(ws, 'default');
    await apply(ws, 'pr-3');
    const ids = await db.query<{ workspace: string; id: string }>("SELECT workspace, document -> 'resources' -> 'service.app' ->> 'id' AS id FROM dbform.states");
    const production = ids.rows.find((r) => r.workspace === 'default')!.id;
    await db.query("UPDATE dbform.states SET document = jsonb_set(document, '{resources,service.app,id}', to_jsonb($1::text)) WHERE workspace = 'pr-3'", [production]);
    await resetStats();
    const r = await runCli(ws, ['output', '--workspace', 'pr-3', '--format', 'env']);
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr).not.toContain(production + '.proj-demo');
    expect(r.stderr).toMatch(new RegExp(`^error: resource ID ${production} is bound to service\\.app in workspace "pr-3" and to service\\.app in workspace "default"`));
    expect((await emulatorStats()).total).toBe(0);
  });
});
