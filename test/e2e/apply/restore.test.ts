// `dbform restore service.KEY --to TIME` over real HTTP (SPEC section 17), against both dialects:
// one reviewed plan that forks the service to TIME with the config's settings, binds the address
// (and its replica sets') to the fork, and keeps the original retired and protected; refused at
// plan time outside [created, now); saved and verified like any plan; finished after a kill; the
// same with the state in a real PostgreSQL.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { fetchLiveState } from '../../../src/api/index.js';
import type { EmulatorHandle } from '../../../src/emulator/index.js';
import type { LiveService } from '../../../src/model/index.js';
import { DIALECT_FACTS, itDialectBlind, startTestEmulator, testClient } from '../../support/dialect.js';
import { createTestDatabase, type TestDatabase } from '../../support/pg.js';
import { removeTempDirs } from '../../support/temp-dir.js';
import { runCli, spawnCli, workspace, type CliResult, type Workspace } from './cli-harness.js';

afterAll(removeTempDirs);

const CONFIG = `version: 1
project_id: proj-demo
services:
  db:
    cpu_millis: 1000
    memory_gbs: 4
    pooler: true
    replica_sets:
      r1:
        cpu_millis: 500
        memory_gbs: 2
        nodes: 1
`;

const RETIRED = /^service\.db-before-[0-9]{8}-[0-9]{6}$/;
const MUTATING = /^(POST|PUT|PATCH|DELETE) /;

let emulator: EmulatorHandle | undefined;
/** Called by the emulator's clock on every request it handles: where a kill is placed. */
let onRequest: (() => void) | undefined;
afterEach(async () => {
  onRequest = undefined;
  await emulator?.close();
  emulator = undefined;
});

interface Applied {
  ws: Workspace;
  originalId: string;
  originalSetId: string;
  /** The original's `created`: the earliest time a restore may go back to. */
  created: string;
}

async function liveServices(): Promise<LiveService[]> {
  const client = testClient(emulator!.url);
  try {
    return (await fetchLiveState(client, 'proj-demo')).services;
  } finally {
    await client.close();
  }
}

type Resources = Record<string, { id: string; protect?: boolean; retired?: unknown; restoring?: unknown }>;
const lockOf = (ws: Workspace) => JSON.parse(readFileSync(ws.lockfile, 'utf8')) as { resources: Resources };

/** Where the state lives: the flags every command of the test gets, and what the state binds. */
interface StateAt {
  args: string[];
  resources(ws: Workspace): Promise<Resources>;
}
const FILE_STATE: StateAt = { args: [], resources: async (ws) => lockOf(ws).resources };
const mutations = () => Object.entries(emulator!.stats().requests).filter(([k]) => MUTATING.test(k));
const forksSent = () => Object.entries(emulator!.stats().requests).filter(([k]) => k.endsWith('/forkService')).reduce((n, [, c]) => n + c, 0);

/** An emulator, and the config applied to it: the service with its pooler and replica set. */
async function applied(state: StateAt = FILE_STATE): Promise<Applied> {
  emulator = await startTestEmulator({ timeScale: 0.01, now: () => (onRequest?.(), Date.now()) });
  const ws = workspace(CONFIG, emulator.url);
  const run = await runCli(ws, ['apply', '--auto-approve', ...state.args]);
  expect(run.code, run.stderr).toBe(0);
  const resources = await state.resources(ws);
  const originalId = resources['service.db']!.id;
  const original = (await liveServices()).find((s) => s.id === originalId)!;
  // The restore goes back to a moment after creation that has happened: the creation itself.
  return { ws, originalId, originalSetId: resources['replica_set.db.r1']!.id, created: original.created };
}

/** What a finished restore leaves, whichever way it got there. */
async function expectRestored(a: Applied, state: StateAt = FILE_STATE): Promise<{ forkId: string; retired: string }> {
  const resources = await state.resources(a.ws);
  const forkId = resources['service.db']!.id;
  expect(forkId).not.toBe(a.originalId);
  const retired = Object.keys(resources).find((k) => RETIRED.test(k))!;
  expect(resources[retired]).toEqual({ id: a.originalId, protect: true, retired: { from: 'service.db', target_time: a.created } });
  const retiredSet = `replica_set.${retired.slice('service.'.length)}.r1`;
  expect(resources[retiredSet]).toEqual({ id: a.originalSetId, retired: { from: 'replica_set.db.r1', target_time: a.created } });
  expect(Object.values(resources).some((e) => e.restoring !== undefined)).toBe(false);
  const services = await liveServices();
  const fork = services.find((s) => s.id === forkId)!;
  const original = services.find((s) => s.id === a.originalId)!;
  // Exactly one fork, with the config's settings; the original and its set are live and untouched.
  expect(services.filter((s) => s.forkedFrom?.serviceId === a.originalId).map((s) => s.id)).toEqual([forkId]);
  expect(fork).toMatchObject({ name: 'db', status: 'READY', pooler: true, size: { cpuMillis: 1000, memoryGbs: 4 } });
  expect(fork.replicaSets.map((r) => [r.name, r.nodes, r.id === resources['replica_set.db.r1']!.id])).toEqual([['r1', 1, true]]);
  expect(original.status).toBe('READY');
  expect(original.replicaSets.map((r) => r.id)).toEqual([a.originalSetId]);
  // Where the API renames services in place, the original is renamed <name>-before-<stamp>; else both are "db".
  expect(original.name).toBe(DIALECT_FACTS.renamesServices ? retired.slice('service.'.length) : 'db');
  // The next plan is empty: the retired original is not "removed from the config".
  const next = await runCli(a.ws, ['plan', '--detailed-exitcode', ...state.args]);
  expect(next.code, next.stdout + next.stderr).toBe(0);
  return { forkId, retired };
}

describe('dbform restore service.db --to TIME', () => {
  it('plans the fork and the rebinding, applies them; output gives the fork, the original is kept retired and protected', async () => {
    const a = await applied();
    const run = await runCli(a.ws, ['restore', 'service.db', '--to', a.created, '--auto-approve']);
    expect(run.code, run.stderr).toBe(0);
    // The plan on screen: the fork to TIME, its settings after it, and the state's rebinding.
    expect(run.stdout).toMatch(/\+ service\.db\b/);
    expect(run.stdout).toContain('forkService');
    expect(run.stdout).toContain(`fork.target_time: ${JSON.stringify(a.created)}`);
    expect(run.stdout).toMatch(/service\.db-before-[0-9]{8}-[0-9]{6}.*retired from service\.db/);
    expect(run.stdout).toMatch(/replica_set\.db-before-[0-9]{8}-[0-9]{6}\.r1.*retired from replica_set\.db\.r1/);
    expect(/~ service\.db-before-[0-9]{8}-[0-9]{6} {2}\(retired from service\.db .*; renameService\)\n {6}name: "db" -> "db-before-[0-9]{8}-[0-9]{6}"/.test(run.stdout)).toBe(DIALECT_FACTS.renamesServices);
    const { forkId, retired } = await expectRestored(a);

    const output = JSON.parse((await runCli(a.ws, ['output', '--json'])).stdout) as Record<string, { host: string; pooler_host?: string }>;
    const fork = (await liveServices()).find((s) => s.id === forkId)!;
    expect(output['service.db']!.host).toBe(fork.endpoint!.host);
    expect(output['service.db']!.pooler_host).toBe(fork.poolerEndpoint!.host);
    expect(output['replica_set.db.r1']!.host).toBe(fork.replicaSets[0]!.endpoint!.host);

    const list = JSON.parse((await runCli(a.ws, ['state', 'list', '--json'])).stdout) as { resources: Array<{ address: string; id: string; protect: boolean; retired?: boolean }> };
    const retiredRows = list.resources.filter((r) => r.retired === true);
    expect(retiredRows.map((r) => [r.address, r.id, r.protect])).toEqual([
      [retired, a.originalId, true],
      [`replica_set.${retired.slice('service.'.length)}.r1`, a.originalSetId, true],
    ]);
    const text = (await runCli(a.ws, ['state', 'list'])).stdout;
    expect(text.split('\n').find((l) => l.startsWith(`${retired} `))).toMatch(/retired/);

    const history = JSON.parse((await runCli(a.ws, ['history', '--json', '--limit', '1'])).stdout) as Array<{ command: string; exit_code: number }>;
    expect(history[0]!.command).toBe(`dbform restore service.db --to ${a.created} --auto-approve`);
    expect(history[0]!.exit_code).toBe(0);

    // The fork's initial password goes to the pgpass file only: never to the screen, the state or the history.
    const forkLine = readFileSync(a.ws.pgpass, 'utf8').split('\n').find((l) => l.startsWith(`${fork.endpoint!.host}:`));
    const password = forkLine!.split(':').slice(4).join(':');
    expect(password.length).toBeGreaterThan(7);
    const historyText = (await runCli(a.ws, ['history', '--json'])).stdout;
    for (const text of [run.stdout, run.stderr, readFileSync(a.ws.lockfile, 'utf8'), historyText]) expect(text).not.toContain(password);
  });

  it('is exported as the fork under the address: the retired original stays out of the YAML and bound in the state, the export plans nothing', async () => {
    const a = await applied();
    expect((await runCli(a.ws, ['restore', 'service.db', '--to', a.created, '--auto-approve'])).code).toBe(0);
    const { forkId, retired } = await expectRestored(a);
    const before = readFileSync(a.ws.lockfile, 'utf8');
    // A replica set added by hand to the original since: no binding, so named as left out.
    const client = testClient(emulator!.url);
    try {
      await client.createReplicaSet('proj-demo', a.originalId, { name: 'by-hand', cpu_millis: 500, memory_gbs: 2, nodes: 1 });
    } finally {
      await client.close();
    }

    // The export goes beside the state it keeps (the lockfile beside -o), then replaces the config.
    const run = await runCli(a.ws, ['export', '-o', 'exported.yaml']);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).toContain(`service "${DIALECT_FACTS.renamesServices ? retired.slice('service.'.length) : 'db'}" (${a.originalId}): retired by a restore; the state keeps it as ${retired}`);
    expect(run.stderr).toMatch(/replica set "by-hand" \(\w+\) of .*: its service was retired by a restore, so it stays out of the config too/);
    const yaml = readFileSync(join(a.ws.dir, 'exported.yaml'), 'utf8');
    expect(yaml).not.toMatch(/^ +by-hand:/m);
    expect(yaml).toMatch(/^#   - replica set "by-hand" .*: its service was retired by a restore/m);
    expect(yaml).toMatch(/^ {2}db:$/m);
    expect(yaml).not.toMatch(/^ {2}db-before-/m);
    // Nothing lost or rebound: the fork at service.db, the original and its set still retired.
    expect(readFileSync(a.ws.lockfile, 'utf8')).toBe(before);
    expect(lockOf(a.ws).resources['service.db']!.id).toBe(forkId);
    writeFileSync(a.ws.config, yaml);
    const plan = await runCli(a.ws, ['plan', '--detailed-exitcode']);
    expect(plan.code, plan.stdout + plan.stderr).toBe(0);
  });

  it('lets the original go once its protect is lifted: state rm refuses it protected, destroy --target deletes it with its set', async () => {
    const a = await applied();
    expect((await runCli(a.ws, ['restore', 'service.db', '--to', a.created, '--auto-approve'])).code).toBe(0);
    const { retired } = await expectRestored(a);
    const rm = await runCli(a.ws, ['state', 'rm', retired]);
    expect(rm.code).toBe(1);
    expect(rm.stderr).toContain(`${retired} is protected`);
    const blocked = await runCli(a.ws, ['destroy', '--target', retired, '--auto-approve']);
    expect(blocked.code, blocked.stderr).toBe(3);
    writeFileSync(a.ws.config, `${CONFIG}  ${retired.slice('service.'.length)}:\n    protect: false\n`);
    const lift = await runCli(a.ws, ['apply', '--auto-approve']);
    expect(lift.code, lift.stderr).toBe(0);
    const destroy = await runCli(a.ws, ['destroy', '--target', retired, '--auto-approve']);
    expect(destroy.code, destroy.stderr).toBe(0);
    const services = await liveServices();
    expect(services.find((s) => s.id === a.originalId)?.status ?? 'gone').toMatch(/^(gone|DELETING|DELETED)$/);
    expect(Object.keys(lockOf(a.ws).resources).filter((k) => k.includes('-before-'))).toEqual([]);
    expect(services.find((s) => s.id === lockOf(a.ws).resources['service.db']!.id)!.status).toBe('READY');
  });

  const refusals: Array<[string, (a: Applied) => string, RegExp]> = [
    ['before the service was created', (a) => new Date(Date.parse(a.created) - 60_000).toISOString(), /^error: service\.db: --to \S+ is before the service \(\w+\) was created/],
    ['in the future', () => new Date(Date.now() + 3_600_000).toISOString(), /^error: service\.db: --to \S+ is not in the past/],
  ];
  for (const [what, to, message] of refusals) {
    itDialectBlind(`refuses --to ${what} at plan time: exit 1, one line, nothing sent`, async () => {
      const a = await applied();
      emulator!.resetStats();
      const run = await runCli(a.ws, ['restore', 'service.db', '--to', to(a), '--auto-approve']);
      expect(run.code).toBe(1);
      expect(run.stderr.trim().split('\n')).toHaveLength(1);
      expect(run.stderr).toMatch(message);
      expect(mutations()).toEqual([]);
      expect(lockOf(a.ws).resources['service.db']!.id).toBe(a.originalId);
    });
  }

  itDialectBlind('refuses a bad address or time with one line naming it, exit 1, before anything is sent (and so does destroy --target)', async () => {
    const a = await applied();
    emulator!.resetStats();
    const bad: Array<[string[], RegExp]> = [
      [['restore', 'vpc.main', '--to', a.created], /^error: restore vpc\.main: only a service can be restored to a point in time; give its address, service\.<key>$/],
      [['restore', 'service.nope', '--to', a.created], /^error: service\.nope: not in the config: a restore makes the fork with the config's settings, so the config must have it$/],
      [['restore', 'service.db', '--to', 'yesterday'], /^error: --to yesterday: not an RFC 3339 time such as \S+ \(a time zone is required\)$/],
      [['destroy', '--target', 'bogus'], /^error: --target "bogus": not an address \(vpc\.<key>, .*\)$/],
      [['destroy', '--target', 'service.nope'], /^error: --target service\.nope: no such resource in the config or the state$/],
    ];
    for (const [args, message] of bad) {
      const run = await runCli(a.ws, [...args, '--auto-approve']);
      expect(run.code, args.join(' ')).toBe(1);
      expect(run.stderr.trim().split('\n'), args.join(' ')).toHaveLength(1);
      expect(run.stderr.trim(), args.join(' ')).toMatch(message);
    }
    expect(mutations()).toEqual([]);
    expect(lockOf(a.ws).resources['service.db']!.id).toBe(a.originalId);
  });

  itDialectBlind('asks for approval in its own words, and without a terminal says how to restore non-interactively', async () => {
    const a = await applied();
    emulator!.resetStats();
    const run = await runCli(a.ws, ['restore', 'service.db', '--to', a.created]);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain(`run \`dbform restore service.db --to ${a.created} --auto-approve\` to proceed non-interactively`);
    expect(mutations()).toEqual([]);
  });

  itDialectBlind('is policed like any plan: a deny on the fork blocks the restore (exit 3), nothing sent or bound', async () => {
    const a = await applied();
    const policy = join(a.ws.dir, 'no-forks.yaml');
    writeFileSync(policy, 'version: 1\nrules:\n  - name: no-prod-forks\n    deny: action.op == "forkService"\n    message: forks wait for the change window\n');
    emulator!.resetStats();
    const run = await runCli(a.ws, ['restore', 'service.db', '--to', a.created, '--auto-approve', '--policy', policy]);
    expect(run.code).toBe(3);
    expect(run.stdout + run.stderr).toContain('policy no-prod-forks: forks wait for the change window');
    expect(mutations()).toEqual([]);
    expect(lockOf(a.ws).resources['service.db']).toEqual(expect.objectContaining({ id: a.originalId }));
    expect(Object.values(lockOf(a.ws).resources).some((e) => e.restoring !== undefined || e.retired !== undefined)).toBe(false);
  });

  it('whose fork the API refuses leaves no restore under way: the address keeps the original, the next plan is empty', async () => {
    // A parent without a backup yet refuses forks (and replica sets: none here) with 409 for an hour of the emulator's time.
    emulator = await startTestEmulator({ timeScale: 0.01, backupDelay: 3600 });
    const ws = workspace(CONFIG.slice(0, CONFIG.indexOf('    replica_sets:')), emulator.url);
    const first = await runCli(ws, ['apply', '--auto-approve']);
    expect(first.code, first.stderr).toBe(0);
    const originalId = lockOf(ws).resources['service.db']!.id;
    const created = (await liveServices()).find((s) => s.id === originalId)!.created;
    const run = await runCli(ws, ['restore', 'service.db', '--to', created, '--auto-approve', '--timeout', '2s']);
    expect(run.code).toBe(1);
    // Where the API renames, the original was renamed first, and is renamed back.
    expect(run.stdout + run.stderr).toMatch(new RegExp(`the restore to ${created.replace(/[.]/g, '\\.')} was not made: the API refused its fork, so service\\.db stays bound to ${originalId}(, renamed back to "db")? and no restore is under way`));
    expect((await liveServices()).find((s) => s.id === originalId)!.name).toBe('db');
    const lock = lockOf(ws);
    expect(lock.resources['service.db']!.id).toBe(originalId);
    expect(Object.values(lock.resources).some((e) => e.restoring !== undefined || e.retired !== undefined)).toBe(false);
    expect((await liveServices()).filter((s) => s.forkedFrom?.serviceId === originalId)).toEqual([]);
    const next = await runCli(ws, ['plan', '--detailed-exitcode']);
    expect(next.code, next.stdout).toBe(0);
  });

  it('saves the restore as a plan that apply verifies like any saved plan; an edited one is refused', async () => {
    const a = await applied();
    const planFile = join(a.ws.dir, 'restore.json');
    emulator!.resetStats();
    const saved = await runCli(a.ws, ['restore', 'service.db', '--to', a.created, '--out', planFile]);
    expect(saved.code, saved.stderr).toBe(0);
    expect(mutations()).toEqual([]);
    const json = JSON.parse(readFileSync(planFile, 'utf8'));
    expect(json.options.restore).toMatchObject({ address: 'service.db', target_time: a.created });
    expect(json.actions.map((x: { op: string; address: string }) => `${x.op} ${x.address}`)).toContain('forkService service.db');
    expect(json.api).toEqual({ renames_services: DIALECT_FACTS.renamesServices });
    // Where the original is renamed, that comes first: the fork waits for it.
    const rename = json.actions.find((x: { op: string }) => x.op === 'renameService');
    const forkAction = json.actions.find((x: { op: string }) => x.op === 'forkService');
    expect(rename === undefined ? [] : [rename.id]).toEqual(DIALECT_FACTS.renamesServices ? forkAction.depends_on : []);

    // An edited plan: the fork sent to another time. Refused, nothing changed.
    const edited = join(a.ws.dir, 'edited.json');
    const fork = json.actions.find((x: { op: string }) => x.op === 'forkService');
    writeFileSync(edited, JSON.stringify({ ...json, actions: json.actions.map((x: { op: string }) => (x === fork ? { ...fork, request: { ...fork.request, target_time: new Date(Date.parse(a.created) + 1000).toISOString() } } : x)) }));
    emulator!.resetStats();
    const refused = await runCli(a.ws, ['apply', edited]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/is not what dbform plans now/);
    expect(mutations()).toEqual([]);
    // A plan without the restore's retirements is refused too.
    const unbound = join(a.ws.dir, 'unbound.json');
    writeFileSync(unbound, JSON.stringify({ ...json, bindings: [] }));
    const withoutRetirement = await runCli(a.ws, ['apply', unbound]);
    expect(withoutRetirement.code).toBe(1);
    expect(withoutRetirement.stderr).toMatch(/service\.db-before-[0-9]{8}-[0-9]{6}: the plan file has no binding, but dbform plans \{"address"/);
    expect(mutations()).toEqual([]);

    const run = await runCli(a.ws, ['apply', planFile]);
    expect(run.code, run.stderr).toBe(0);
    await expectRestored(a);
  });

  describe('killed after the fork was sent', () => {
    /** The restore, killed with SIGKILL when its forkService reaches the emulator (before it is answered). */
    async function killedRestore(a: Applied): Promise<CliResult> {
      const child = spawnCli(a.ws, ['restore', 'service.db', '--to', a.created, '--auto-approve']);
      onRequest = () => {
        if (forksSent() === 0) return;
        onRequest = undefined;
        child.child.kill('SIGKILL');
      };
      const killed = await child.done;
      expect(killed.signal).toBe('SIGKILL');
      expect(forksSent()).toBe(1);
      // Killed before it learned the fork's ID: the address is still bound to the original, the restore marked under way.
      const lock = lockOf(a.ws);
      expect(lock.resources['service.db']).toMatchObject({ id: a.originalId, restoring: { target_time: a.created } });
      return killed;
    }

    it.each([
      ['a plain apply', (_a: Applied) => ['apply', '--auto-approve']],
      ['the same restore command', (a: Applied) => ['restore', 'service.db', '--to', a.created, '--auto-approve']],
    ])('%s finishes it, with exactly one fork', async (_how, args) => {
      const a = await applied();
      await killedRestore(a);
      const run = await runCli(a.ws, args(a));
      expect(run.code, run.stderr).toBe(0);
      expect(run.stdout).toContain('was interrupted; this plan finishes it');
      expect(forksSent()).toBe(1);
      await expectRestored(a);
    });
  });
});

describe('with the state in PostgreSQL (--state postgres://...)', () => {
  let db: TestDatabase;
  beforeAll(async () => {
    db = await createTestDatabase();
  });
  afterAll(async () => db?.drop());

  const stateRow = async () => {
    const { rows } = await db.query<{ serial: number; document: { resources: Resources } }>(
      'SELECT serial::int AS serial, document FROM dbform.states WHERE project_id = $1 AND workspace = $2',
      ['proj-demo', 'default'],
    );
    return rows[0]!;
  };
  const history = async () =>
    (await db.query<{ record: Record<string, unknown> }>('SELECT record FROM dbform.history WHERE project_id = $1 ORDER BY seq', ['proj-demo'])).rows.map((r) => r.record);

  it('restore --out, then apply of that plan: the database binds service.db to the fork, keeps the original retired and protected, and has the apply in its history; a second apply plans nothing', async () => {
    const state: StateAt = { args: ['--state', db.url], resources: async () => (await stateRow()).document.resources };
    const a = await applied(state);
    const planFile = join(a.ws.dir, 'restore.json');
    emulator!.resetStats();
    const saved = await runCli(a.ws, ['restore', 'service.db', '--to', a.created, '--out', planFile, ...state.args]);
    expect(saved.code, saved.stderr).toBe(0);
    expect(mutations()).toEqual([]);
    const before = await stateRow();
    const json = JSON.parse(readFileSync(planFile, 'utf8'));
    expect(json.options.restore).toMatchObject({ address: 'service.db', target_time: a.created });
    expect(json.serial).toBe(before.serial);

    const run = await runCli(a.ws, ['apply', planFile, ...state.args]);
    expect(run.code, run.stderr).toBe(0);
    const { forkId, retired } = await expectRestored(a, state);
    // Nothing went to a lockfile: the database holds it all.
    expect(existsSync(a.ws.lockfile)).toBe(false);
    const after = await stateRow();
    expect(after.serial).toBeGreaterThan(before.serial);
    expect(after.document.resources['service.db']).toEqual({ id: forkId, applied: expect.any(Object) });
    const claims = await db.query<{ resource_id: string; address: string }>('SELECT resource_id, address FROM dbform.claims WHERE project_id = $1 AND workspace = $2', ['proj-demo', 'default']);
    expect(Object.fromEntries(claims.rows.map((c) => [c.address, c.resource_id]))).toMatchObject({ 'service.db': forkId, [retired]: a.originalId });

    const records = await history();
    expect(records.map((r) => r.command)).toEqual([`dbform apply --auto-approve --state ${db.url}`, `dbform apply ${planFile} --state ${db.url}`]);
    expect(records[1]).toMatchObject({ workspace: 'default', state: db.url, exit_code: 0, serial_before: before.serial, serial_after: after.serial });
    const actions = (records[1]!.actions as Array<{ address: string; op: string; outcome: string }>).map((x) => `${x.address} ${x.op} ${x.outcome}`);
    expect(actions).toEqual(expect.arrayContaining(['service.db forkService done', 'replica_set.db.r1 createReplicaSet done']));

    emulator!.resetStats();
    const again = await runCli(a.ws, ['apply', '--auto-approve', ...state.args]);
    expect(again.code, again.stderr).toBe(0);
    expect(again.stdout).toMatch(/^No changes/m);
    expect(mutations()).toEqual([]);
    expect(await stateRow()).toEqual(after);
  });
});
