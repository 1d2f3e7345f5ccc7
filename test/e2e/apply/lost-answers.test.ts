// A resize or HA change whose answer was lost (the emulator's fault injection drops it), over real
// HTTP: the client sends it again, the repeat is refused (409), and only the values it set may
// confirm that the first attempt took effect. A transitional status proves nothing: a change that
// landed leaves the service UPGRADING (the replica set resizing), but so does another operation
// under way when the API refused this one. The engine waits for the transition to end, then looks:
// the values there, it is done (exactly one change); not there, it sends again, and the change lands.
// The emulator's clock stands while the test looks (test/support/emulator-clock.ts): a transition
// is on when the apply meets it and ends where the test moves the clock, however slow the machine.
import { afterEach, describe, expect, it } from 'vitest';
import type { ApiClient } from '../../../src/api/client.js';
import type { ExecutorApi } from '../../../src/executor/ports.js';
import { fieldChange, type Action } from '../../../src/model/index.js';
import { EmulatorClock } from '../../support/emulator-clock.js';
import { testClient } from '../../support/dialect.js';
import { act, planOf, PROJECT, startHarness, type Harness } from './engine-harness.js';

/** Longer than any transition of the emulator. */
const LATER = 3_600_000;
const SERVICE = '/projects/{project_id}/services/{service_id}';

let h: Harness;
let clock: EmulatorClock;
let api: ApiClient | undefined;
afterEach(async () => {
  await api?.close();
  api = undefined;
  await h?.close();
});

/** Moves the emulator's clock 100 ms per look until the condition holds. */
async function until(condition: () => Promise<boolean>): Promise<void> {
  for (let i = 0; i < 200; i++) {
    if (await condition()) return;
    clock.advance(100);
  }
  throw new Error('the emulator did not reach the expected state in 20 s of its time');
}

/** A READY service `db` at 500/2 with an active replica set `r` at 500/2, the clock standing. */
async function world(): Promise<{ service: string; replicaSet: string }> {
  clock = new EmulatorClock();
  clock.freeze();
  h = await startHarness({ timeScale: 0.1, now: clock.now });
  const service = (await h.client.createService(PROJECT, { name: 'db', cpu_millis: '500', memory_gbs: '2' })).service_id;
  await until(async () => (await h.client.getService(PROJECT, service)).status === 'READY');
  clock.advance(LATER); // past the tiger dialect's first backup, which a replica set needs
  const rs = await h.client.createReplicaSet(PROJECT, service, { name: 'r', cpu_millis: 500, memory_gbs: 2, nodes: 1 });
  await until(async () => (await h.client.listReplicaSets(PROJECT, service))[0]?.status === 'active');
  return { service, replicaSet: rs.id };
}

interface Case {
  op: 'resizeService' | 'setHAReplica' | 'resizeReplicaSet';
  route: string;
  action(ids: { service: string; replicaSet: string }): Action;
  /** Someone else's change that leaves the target transitional, and refuses the op meanwhile. */
  busy(client: ApiClient, ids: { service: string; replicaSet: string }): Promise<unknown>;
  /** The status the target shows while the change (or the other one) is under way. */
  transitional: string;
  /** Whether the target shows what the action set. */
  shows(client: ApiClient, ids: { service: string; replicaSet: string }): Promise<boolean>;
}

const sizeOf = async (client: ApiClient, id: string) => (await client.getService(PROJECT, id)).resources?.[0]?.spec;

const CASES: Case[] = [
  {
    op: 'resizeService',
    route: `POST ${SERVICE}/resize`,
    action: ({ service }) =>
      act('resizeService', 'service.db', {
        reason: 'changed',
        refs: { target: { address: 'service.db', id: service } },
        changes: [fieldChange('cpu_millis', 500, 1000), fieldChange('memory_gbs', 2, 4)],
        request: { cpu_millis: '1000', memory_gbs: '4' },
      }),
    busy: (client, { service }) => client.setHAReplica(PROJECT, service, { replica_count: 1 }),
    transitional: 'UPGRADING',
    shows: async (client, { service }) => {
      const spec = await sizeOf(client, service);
      return String(spec?.cpu_millis) === '1000' && String(spec?.memory_gbs) === '4';
    },
  },
  {
    op: 'setHAReplica',
    route: `POST ${SERVICE}/setHA`,
    action: ({ service }) =>
      act('setHAReplica', 'service.db', {
        reason: 'changed',
        refs: { target: { address: 'service.db', id: service } },
        changes: [fieldChange('ha.replicas', 0, 2), fieldChange('ha.sync_replicas', 0, 1)],
        request: { replica_count: 2, sync_replica_count: 1 },
      }),
    busy: (client, { service }) => client.resizeService(PROJECT, service, { cpu_millis: '1000', memory_gbs: '4' }),
    transitional: 'UPGRADING',
    shows: async (client, { service }) => {
      const ha = (await client.getService(PROJECT, service)).ha_replicas;
      return ha?.replica_count === 2 && ha.sync_replica_count === 1;
    },
  },
  {
    op: 'resizeReplicaSet',
    route: `POST ${SERVICE}/replicaSets/{replica_set_id}/resize`,
    action: ({ service, replicaSet }) =>
      act('resizeReplicaSet', 'replica_set.db.r', {
        reason: 'changed',
        refs: { service: { address: 'service.db', id: service }, target: { address: 'replica_set.db.r', id: replicaSet } },
        changes: [fieldChange('cpu_millis', 500, 1000), fieldChange('memory_gbs', 2, 4)],
        request: { cpu_millis: '1000', memory_gbs: '4' },
      }),
    busy: (client, { service, replicaSet }) => client.resizeReplicaSet(PROJECT, service, replicaSet, { cpu_millis: '2000', memory_gbs: '8' }),
    transitional: 'resizing',
    shows: async (client, { service, replicaSet }) => {
      const rs = (await client.listReplicaSets(PROJECT, service)).find((r) => r.id === replicaSet);
      return String(rs?.cpu_millis) === '1000' && String(rs?.memory_gbs) === '4';
    },
  },
];

/**
 * The engine's client, whose first `op` loses its answer: the emulator's fault injection is
 * switched on as the op is sent, and off once the client has logged that first attempt. `lines`
 * gets the client's debug lines from then on.
 */
function losingFirstAnswerOf(op: Case['op'], lines: string[]): ExecutorApi {
  let armed = false;
  let lost = false;
  api = testClient(h.emulator.url, {
    retry: { baseDelayMs: 5, maxDelayMs: 50 },
    logger: (line) => {
      if (!armed) return;
      lines.push(line);
      if (!lost) {
        lost = true;
        h.emulator.setFaults({ lostResponseRate: 0 });
      }
    },
  });
  const client = api;
  return new Proxy(client, {
    get(target, key) {
      const value = Reflect.get(target, key) as unknown;
      if (typeof value !== 'function') return value;
      if (key !== op || armed) return value.bind(target);
      return (...args: unknown[]) => {
        armed = true;
        h.emulator.setFaults({ lostResponseRate: 1 });
        return (value as (...a: unknown[]) => unknown).apply(target, args);
      };
    },
  }) as ExecutorApi;
}

/** Resolves once the engine says it waits for `status` to finish; fails after 20 s of waiting for it. */
async function engineWaitsFor(status: string): Promise<void> {
  const said = `waiting for ${status} to finish`;
  for (const end = Date.now() + 20_000; !h.events.some((e) => e.type === 'action-status' && e.status === said); await new Promise((r) => setTimeout(r, 5))) {
    if (Date.now() > end) throw new Error(`the engine never said "${said}"; it said ${JSON.stringify(h.events.filter((e) => e.type === 'action-status'))}`);
  }
}

/** Ends every transition under way, and lets the clock run again for what the apply starts next. */
function endTransitionsAndRun(): void {
  clock.advance(LATER);
  clock.thaw();
}

const attemptLine = (n: number) => new RegExp(` \\(attempt ${n}\\)`);

describe.each(CASES)('$op whose answer was lost', (c) => {
  it('landed: the repeat is refused, the engine waits for the transition and finds the values, and sends nothing more (one change)', async () => {
    const ids = await world();
    h.emulator.resetStats();
    const lines: string[] = [];
    const running = h.apply(planOf([c.action(ids)]), { api: losingFirstAnswerOf(c.op, lines) });
    await engineWaitsFor(c.transitional);
    expect(await c.shows(h.client, ids)).toBe(false); // under way: not shown yet
    endTransitionsAndRun();
    const result = await running;
    expect(result.failed.map((f) => f.message)).toEqual([]);
    // Two requests: the first took effect (its answer lost), the repeat was refused. No third.
    expect(h.emulator.stats().requests[c.route]).toBe(2);
    const sent = lines.filter((l) => l.includes(' POST '));
    expect(sent).toEqual([expect.stringMatching(attemptLine(1)), expect.stringMatching(/ -> 409 .*\(attempt 2\)/)]);
    expect(sent[0]).not.toMatch(/ -> \d{3} /);
    expect(lines.some((l) => l.includes('took effect'))).toBe(false);
    expect(await c.shows(h.client, ids)).toBe(true);
  });

  it('refused while another operation was under way: not taken for one that took effect; sent again once settled, and it lands', async () => {
    const ids = await world();
    await c.busy(h.client, ids);
    h.emulator.resetStats();
    const lines: string[] = [];
    const running = h.apply(planOf([c.action(ids)]), { api: losingFirstAnswerOf(c.op, lines) });
    await engineWaitsFor(c.transitional);
    endTransitionsAndRun();
    const result = await running;
    expect(result.failed.map((f) => f.message)).toEqual([]);
    // Refused twice (the first answer lost), then sent once the other operation had ended.
    expect(h.emulator.stats().requests[c.route]).toBe(3);
    const sent = lines.filter((l) => l.includes(' POST '));
    expect(sent).toHaveLength(3);
    expect(sent[1]).toMatch(/ -> 409 .*\(attempt 2\)/);
    expect(sent[2]).toMatch(/ -> 202 .*\(attempt 1\)/);
    expect(await c.shows(h.client, ids)).toBe(true);
  });
});
