// In flight is not drift (issue 24, SPEC section 14): `kill -9` during a resize, then plan and
// apply again, over real HTTP against the emulator, with the state in the lockfile file and in a
// real PostgreSQL.
//
// The kill lands by construction, not by timing: the emulator reads its clock while it handles a
// request, after the request's body is in; the test's clock kills the apply there, when the request
// it waits for (the resize) is the one being handled. The resize was sent, and the apply never
// sees it finish: the emulator's clock stands still (test/support/emulator-clock.ts), so the
// service stays UPGRADING until the test moves the clock.
import { readFileSync, writeFileSync } from 'node:fs';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ApiClient } from '../../../src/api/client.js';
import { startEmulator } from '../../../src/emulator/index.js';
import { parseLockfileJson, type LockEntry } from '../../../src/model/index.js';
import { EmulatorClock } from '../../support/emulator-clock.js';
import { createTestDatabase, type TestDatabase } from '../../support/pg.js';
import { runCli, spawnCli, workspace, type Workspace } from './cli-harness.js';

const PROJECT = 'proj-demo';
const RESIZE = 'POST /projects/{project_id}/services/{service_id}/resize';
const LIST_SERVICES = 'GET /projects/{project_id}/services';
/** Longer than any transition of the emulator: moving the clock by this ends the one under way. */
const LATER = 3_600_000;

const config = (cpu: number, memory: number) => `version: 1\nproject_id: ${PROJECT}\nservices:\n  db:\n    cpu_millis: ${cpu}\n    memory_gbs: ${memory}\n`;

let emulator: Awaited<ReturnType<typeof startEmulator>> | undefined;
let db: TestDatabase;
beforeAll(async () => {
  db = await createTestDatabase();
});
afterAll(async () => {
  await db.drop();
});
afterEach(async () => {
  await emulator?.close();
  emulator = undefined;
});

async function until(check: () => boolean, what: string, ms = 15_000): Promise<void> {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

/** An emulator on a clock the test holds, which calls `onRequest` each time it reads its clock for a request. */
async function world() {
  const clock = new EmulatorClock();
  const hook: { onRequest?: () => void } = {};
  emulator = await startEmulator({
    timeScale: 0.01,
    now: () => {
      hook.onRequest?.();
      return clock.now();
    },
  });
  const em = emulator;
  const count = (route: string) => em.stats().requests[route] ?? 0;
  const service = async () => {
    const client = new ApiClient({ baseUrl: em.url, token: 'demo-pat' });
    try {
      return (await client.listServices(PROJECT)).find((s) => s.name === 'db')!;
    } finally {
      await client.close();
    }
  };
  return { clock, hook, count, url: em.url, service };
}

type World = Awaited<ReturnType<typeof world>>;

/** Where the state lives, and how a test reads the entry of service.db from it. */
interface Store {
  name: string;
  env(): NodeJS.ProcessEnv;
  entry(ws: Workspace): Promise<LockEntry | undefined>;
}

const FILE: Store = {
  name: 'the lockfile file',
  env: () => ({}),
  entry: async (ws) => {
    const parsed = parseLockfileJson(JSON.parse(readFileSync(ws.lockfile, 'utf8')));
    if (!parsed.ok) throw new Error(parsed.errors.join('; '));
    return parsed.value.resources['service.db'];
  },
};

const POSTGRES: Store = {
  name: 'PostgreSQL',
  env: () => ({ DBFORM_STATE: db.url }),
  entry: async () => {
    const { rows } = await db.query<{ document: unknown }>('SELECT document FROM dbform.states WHERE project_id = $1 AND workspace = $2', [PROJECT, 'default']);
    const parsed = parseLockfileJson(rows[0]!.document);
    if (!parsed.ok) throw new Error(parsed.errors.join('; '));
    return parsed.value.resources['service.db'];
  },
};

/** A service at 500/2 applied with the clock running; then the clock stops and the config asks for 1000/4. */
async function appliedAtSmallSize(w: World, store: Store): Promise<Workspace> {
  const ws = workspace(config(500, 2), w.url, store.env());
  const first = await runCli(ws, ['apply', '--auto-approve']);
  expect(first.code, first.stderr).toBe(0);
  expect((await store.entry(ws))?.applied).toMatchObject({ size: { cpuMillis: 500, memoryGbs: 2 } });
  w.clock.freeze();
  writeFileSync(ws.config, config(1000, 4));
  return ws;
}

/**
 * Someone else changes HA (which the config leaves unmanaged): the service is UPGRADING, and stays
 * so. The apply then sends the resize, which is refused (409: not READY), and lists the services to
 * wait out the transition: killed there, after the refusal, by construction.
 */
async function resizeRefusedThenKilled(w: World, ws: Workspace): Promise<void> {
  const other = new ApiClient({ baseUrl: w.url, token: 'demo-pat' });
  try {
    await other.setHAReplica(PROJECT, String((await w.service()).service_id), { replica_count: 1 });
  } finally {
    await other.close();
  }
  let listsAtResize = -1;
  await applyKilledWhen(w, ws, () => {
    if (w.count(RESIZE) === 1 && listsAtResize < 0) listsAtResize = w.count(LIST_SERVICES);
    return listsAtResize >= 0 && w.count(LIST_SERVICES) > listsAtResize;
  });
}

/** Runs apply and kills it (SIGKILL) when `now` says so, from inside the emulator's handling of a request. */
async function applyKilledWhen(w: World, ws: Workspace, now: () => boolean): Promise<void> {
  const run = spawnCli(ws, ['apply', '--auto-approve']);
  let out = '';
  run.child.stdout!.on('data', (d) => (out += d));
  w.hook.onRequest = () => {
    if (!now()) return;
    w.hook.onRequest = undefined;
    run.child.kill('SIGKILL');
  };
  const result = await run.done;
  w.hook.onRequest = undefined;
  expect(result.signal, `the apply was not killed mid-apply; it printed:\n${out}${result.stderr}`).toBe('SIGKILL');
  expect(out).not.toMatch(/^Apply (complete|finished)/m);
}

describe.each([FILE, POSTGRES])('kill -9 during a resize, state in $name', (store) => {
  it('the state holds the resize as pending; plan shows it settling with the op and no drift; apply sends no second resize and records the values', async () => {
    const w = await world();
    const ws = await appliedAtSmallSize(w, store);
    // Killed while the emulator handles the resize: it was sent, and the apply never saw an answer.
    await applyKilledWhen(w, ws, () => w.count(RESIZE) === 1);
    expect((await w.service()).status).toBe('UPGRADING');
    const recorded = await store.entry(ws);
    expect(recorded?.pending).toEqual({ op: 'resizeService', sets: { cpu_millis: 1000, memory_gbs: 4 }, since: expect.stringMatching(/^\d{4}-\d\d-\d\dT/) });
    expect(recorded?.applied).toMatchObject({ size: { cpuMillis: 500, memoryGbs: 2 } });

    const json = await runCli(ws, ['plan', '--json']);
    expect(json.code, json.stderr).toBe(0);
    const plan = JSON.parse(json.stdout);
    expect(plan.actions).toEqual([]);
    expect(plan.settling).toEqual([{ address: 'service.db', id: expect.any(String), status: 'UPGRADING', op: 'resizeService' }]);
    expect(plan.drift).toBeUndefined();
    const text = await runCli(ws, ['plan']);
    expect(text.stdout).toContain('  … service.db  UPGRADING (resizeService sent by an earlier apply, not seen to finish)\n');
    expect(text.stdout).not.toContain('Changed outside dbform');
    const markdown = await runCli(ws, ['plan', '--format', 'markdown']);
    expect(markdown.stdout).toContain('> - <code>service.db</code> UPGRADING (resizeService sent by an earlier apply, not seen to finish)\n');

    const applying = spawnCli(ws, ['apply', '--auto-approve']);
    let out = '';
    applying.child.stdout!.on('data', (d) => (out += d));
    await until(() => /service\.db settle UPGRADING\n/.test(out), 'the apply to wait for the resize in flight');
    w.clock.advance(LATER);
    const applied = await applying.done;
    expect(applied.code, `${out}${applied.stderr}`).toBe(0);
    expect(out).toContain('apply started: 0 action(s), 0 state binding(s), 1 settling resource(s) to wait for');
    expect(out).toMatch(/✓ service\.db UPGRADING -> READY \(resizeService sent by an earlier apply, now done\)/);
    expect(w.count(RESIZE)).toBe(1);
    const live = await w.service();
    expect(live.resources[0]?.spec).toMatchObject({ cpu_millis: 1000, memory_gbs: 4 });
    const after = await store.entry(ws);
    expect(after?.pending).toBeUndefined();
    expect(after?.applied).toMatchObject({ size: { cpuMillis: 1000, memoryGbs: 4 } });

    const next = await runCli(ws, ['plan', '--detailed-exitcode']);
    expect(next.code, next.stdout).toBe(0);
    expect(next.stdout).not.toContain('Changed outside dbform');
  });
});

describe('kill -9 during a resize, state in the lockfile file', () => {
  it('once the resize has finished, plan shows no drift for cpu_millis and memory_gbs and no action; apply sends nothing and records the values', async () => {
    const w = await world();
    const ws = await appliedAtSmallSize(w, FILE);
    await applyKilledWhen(w, ws, () => w.count(RESIZE) === 1);
    w.clock.advance(LATER);
    expect((await w.service()).status).toBe('READY');

    const json = await runCli(ws, ['plan', '--json', '--detailed-exitcode']);
    expect(json.code, json.stderr).toBe(0);
    const plan = JSON.parse(json.stdout);
    expect(plan.drift).toBeUndefined();
    expect(plan.actions).toEqual([]);
    expect(plan.settling).toBeUndefined();
    const refresh = await runCli(ws, ['plan', '--refresh-only']);
    expect(refresh.stdout).not.toMatch(/cpu_millis|memory_gbs/);

    const mutationsBefore = Object.entries(emulator!.stats().requests).filter(([k]) => !k.startsWith('GET')).reduce((n, [, c]) => n + c, 0);
    const applied = await runCli(ws, ['apply', '--auto-approve']);
    expect(applied.code, applied.stderr).toBe(0);
    const mutationsAfter = Object.entries(emulator!.stats().requests).filter(([k]) => !k.startsWith('GET')).reduce((n, [, c]) => n + c, 0);
    expect(mutationsAfter).toBe(mutationsBefore);
    expect(w.count(RESIZE)).toBe(1);
    const after = await FILE.entry(ws);
    expect(after?.pending).toBeUndefined();
    expect(after?.applied).toMatchObject({ size: { cpuMillis: 1000, memoryGbs: 4 } });
  });

  it('a pending resize that never took effect (refused while the service was busy): waited for while the service is busy, then planned again', async () => {
    const w = await world();
    const ws = await appliedAtSmallSize(w, FILE);
    await resizeRefusedThenKilled(w, ws);
    expect((await FILE.entry(ws))?.pending).toMatchObject({ op: 'resizeService', sets: { cpu_millis: 1000, memory_gbs: 4 } });

    // Still busy: dbform cannot tell the resize from the HA change, so it waits rather than resends.
    const busy = JSON.parse((await runCli(ws, ['plan', '--json'])).stdout);
    expect(busy.actions).toEqual([]);
    expect(busy.settling).toEqual([expect.objectContaining({ address: 'service.db', status: 'UPGRADING', op: 'resizeService' })]);
    const waiting = spawnCli(ws, ['apply', '--auto-approve']);
    let out = '';
    waiting.child.stdout!.on('data', (d) => (out += d));
    await until(() => /service\.db settle UPGRADING\n/.test(out), 'the apply to wait for the service');
    w.clock.advance(LATER);
    const waited = await waiting.done;
    // Settled without the values: the apply says so and fails; the record is gone.
    expect(waited.code).toBe(1);
    expect(waited.stderr).toMatch(
      /service\.db settle: resizeService, sent by an earlier apply \(\S+\), did not take effect: the service settled without cpu_millis 1000, memory_gbs 4; the next plan sends it again\n/,
    );
    expect(w.count(RESIZE)).toBe(1);
    const settled = await w.service();
    expect(settled.status).toBe('READY');
    expect(settled.resources[0]?.spec).toMatchObject({ cpu_millis: 500, memory_gbs: 2 });
    expect((await FILE.entry(ws))?.pending).toBeUndefined();

    const json = await runCli(ws, ['plan', '--json']);
    expect(json.code, json.stderr).toBe(0);
    const plan = JSON.parse(json.stdout);
    expect(plan.actions.map((a: { address: string; op: string }) => `${a.address} ${a.op}`)).toEqual(['service.db resizeService']);
    expect(plan.settling).toBeUndefined();
    expect(plan.drift).toBeUndefined();
  });

  it('a pending resize whose service settled without the values before the next plan is planned again, with no drift', async () => {
    const w = await world();
    const ws = await appliedAtSmallSize(w, FILE);
    await resizeRefusedThenKilled(w, ws);
    w.clock.advance(LATER);
    expect((await w.service()).resources[0]?.spec).toMatchObject({ cpu_millis: 500, memory_gbs: 2 });
    expect((await FILE.entry(ws))?.pending).toMatchObject({ op: 'resizeService' });

    const plan = JSON.parse((await runCli(ws, ['plan', '--json'])).stdout);
    expect(plan.actions.map((a: { address: string; op: string }) => `${a.address} ${a.op}`)).toEqual(['service.db resizeService']);
    expect(plan.settling).toBeUndefined();
    expect(plan.drift).toBeUndefined();
    // The clock runs again: the resize sent now finishes, and its values are recorded.
    w.clock.thaw();
    const applied = await runCli(ws, ['apply', '--auto-approve']);
    expect(applied.code, applied.stderr).toBe(0);
    expect(w.count(RESIZE)).toBe(2);
    const after = await FILE.entry(ws);
    expect(after?.pending).toBeUndefined();
    expect(after?.applied).toMatchObject({ size: { cpuMillis: 1000, memoryGbs: 4 } });
  });
});
