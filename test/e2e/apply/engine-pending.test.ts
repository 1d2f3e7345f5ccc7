// The engine's pending records (SPEC section 14), with the real client and the emulator over
// HTTP: written before an update op is sent, ended with its values once it is seen to finish,
// ended when it is refused, kept when its outcome is unknown.
import { readFileSync } from 'node:fs';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import type { ExecutorApi } from '../../../src/executor/ports.js';
import { pendingOf } from '../../../src/executor/pending.js';
import { fieldChange, parseLockfileJson, sensitiveChange, type LockEntry } from '../../../src/model/index.js';
import { act, planOf, PROJECT, startHarness, type Harness } from './engine-harness.js';
import { EmulatorClock } from '../../support/emulator-clock.js';
import { removeTempDirs } from '../../support/temp-dir.js';

afterAll(removeTempDirs);

let h: Harness;
let open: Harness | undefined;
afterEach(async () => {
  await open?.close();
  open = undefined;
});

async function harness(...args: Parameters<typeof startHarness>): Promise<Harness> {
  h = open = await startHarness(...args);
  return h;
}

/** A service made by the engine, its ID, and its lockfile entry as the create left it. */
async function service(): Promise<string> {
  const create = act('createService', 'service.db', { request: { name: 'db', cpu_millis: '500', memory_gbs: '2', region_code: 'us-east-1' } });
  const made = await h.apply(planOf([create]));
  expect(made.failed).toEqual([]);
  return h.readLock().resources['service.db']!.id;
}

const resize = (id: string, cpu: number, memory: number) =>
  act('resizeService', 'service.db', {
    reason: 'changed',
    refs: { target: { address: 'service.db', id } },
    changes: [fieldChange('cpu_millis', 500, cpu), fieldChange('memory_gbs', 2, memory)],
    request: { cpu_millis: String(cpu), memory_gbs: String(memory) },
  });

/** The client, except that each resize first reads the lockfile on disk: what the state held when it was sent. */
function seeingTheStateAtResize(seen: Array<LockEntry | undefined>): ExecutorApi {
  return new Proxy(h.client, {
    get(target, key) {
      const value = Reflect.get(target, key) as unknown;
      if (typeof value !== 'function') return value;
      if (key !== 'resizeService') return value.bind(target);
      return (...args: unknown[]) => {
        const parsed = parseLockfileJson(JSON.parse(readFileSync(h.lockPath, 'utf8')));
        seen.push(parsed.ok ? parsed.value.resources['service.db'] : undefined);
        return (value as (...a: unknown[]) => unknown).apply(target, args);
      };
    },
  }) as ExecutorApi;
}

describe('pending records around an update op', () => {
  it('is in the state before the resize is sent; seen to finish, it ends and the size joins the drift record in the same write', async () => {
    await harness();
    const id = await service();
    const seen: Array<LockEntry | undefined> = [];
    const writes: unknown[] = [];
    const appliedOf = (address: string) => (address === 'service.db' ? { name: 'db', size: { cpuMillis: 1000, memoryGbs: 4 } } : undefined);
    const result = await h.apply(planOf([resize(id, 1000, 4)]), { api: seeingTheStateAtResize(seen), appliedOf, trackWrite: (w) => (writes.push(w), w) });
    expect(result.failed).toEqual([]);
    expect(seen).toEqual([{ id, pending: { op: 'resizeService', sets: { cpu_millis: 1000, memory_gbs: 4 }, since: expect.any(String) } }]);
    // Only the fields the op set; and nothing else of the record.
    expect(h.readLock().resources['service.db']).toEqual({ id, applied: { size: { cpuMillis: 1000, memoryGbs: 4 } } });
    expect(writes).toHaveLength(2);
  });

  it('refused for good (400: not an allowed size), the record ends with nothing recorded', async () => {
    await harness();
    const id = await service();
    const seen: Array<LockEntry | undefined> = [];
    const result = await h.apply(planOf([resize(id, 3000, 5)]), { api: seeingTheStateAtResize(seen), appliedOf: () => ({ size: { cpuMillis: 3000, memoryGbs: 5 } }) });
    expect(result.failed.map((f) => f.message)).toEqual([expect.stringMatching(/^resizeService service\.db failed: 400 /)]);
    expect(seen[0]?.pending?.op).toBe('resizeService');
    expect(h.readLock().resources['service.db']).toEqual({ id });
  });

  it('sent, then the wait runs out of --timeout: the outcome is unknown, so the record stays for the next plan', async () => {
    const clock = new EmulatorClock();
    await harness({ now: clock.now });
    const id = await service();
    clock.freeze();
    const result = await h.apply(planOf([resize(id, 1000, 4)]), { timeoutMs: 300 });
    expect(result.failed.map((f) => f.message)).toEqual([expect.stringMatching(/^resizeService service\.db failed: timed out after /)]);
    expect(h.readLock().resources['service.db']!.pending).toMatchObject({ op: 'resizeService', sets: { cpu_millis: 1000, memory_gbs: 4 } });
    expect((await h.client.listServices(PROJECT))[0]!.status).toBe('UPGRADING');
  });

  it('only ops that change a resource in place get a record: what they set, never a secret; creates and deletes none', () => {
    const since = new Date('2026-05-01T10:00:00Z');
    expect(pendingOf(act('createService', 'service.db'), since)).toBeUndefined();
    expect(pendingOf(act('deleteService', 'service.db'), since)).toBeUndefined();
    expect(pendingOf(act('enablePooler', 'service.db', { changes: [fieldChange('pooler', false, true)] }), since)).toEqual({
      op: 'enablePooler',
      sets: { pooler: true },
      since: '2026-05-01T10:00:00.000Z',
    });
    const password = act('updatePassword', 'service.db', { changes: [sensitiveChange('password'), fieldChange('password.version', 1, 2)] });
    expect(pendingOf(password, since)?.sets).toEqual({ 'password.version': 2 });
  });
});
