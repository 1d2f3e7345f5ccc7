// On fake time (vi.useFakeTimers): the actions' work is a timer, so the order of events is exact.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { walkGraph } from '../../../src/executor/graph-walker.js';
import type { Action } from '../../../src/model/index.js';

function action(id: string, address: string, dependsOn: string[] = []): Action {
  return { id, address, kind: 'service', op: 'resizeService', reason: 'changed', risk: 'none', dependsOn, changes: [], refs: {} };
}

const tick = (ms = 5) => new Promise((r) => setTimeout(r, ms));

async function walk(actions: Action[], opts: { parallelism?: number; fail?: string[]; signal?: AbortSignal; delay?: number } = {}) {
  const started: string[] = [];
  const skipped: Array<{ id: string; reason: string; root?: string }> = [];
  let inFlight = 0;
  let maxInFlight = 0;
  const done = walkGraph(actions, {
    parallelism: opts.parallelism ?? 10,
    signal: opts.signal,
    run: async (a) => {
      started.push(a.id);
      inFlight++;
      maxInFlight = Math.max(maxInFlight, inFlight);
      await tick(opts.delay ?? 5);
      inFlight--;
      if (opts.fail?.includes(a.id)) throw new Error(`${a.id} broke`);
    },
    onSkip: (a, reason, root) => skipped.push({ id: a.id, reason, ...(root ? { root: root.id } : {}) }),
  });
  done.catch(() => {}); // awaited below, after the timers have run
  await vi.runAllTimersAsync();
  await done;
  return { started, skipped, maxInFlight };
}

describe('walkGraph', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('runs dependencies before dependents', async () => {
    const { started } = await walk([action('a3', 's.c', ['a2']), action('a2', 's.b', ['a1']), action('a1', 's.a')]);
    expect(started).toEqual(['a1', 'a2', 'a3']);
  });

  it('never has more than `parallelism` actions in flight', async () => {
    const many = Array.from({ length: 12 }, (_, i) => action(`a${i}`, `service.s${i}`));
    const { maxInFlight, started } = await walk(many, { parallelism: 3 });
    expect(maxInFlight).toBe(3);
    expect(started).toHaveLength(12);
  });

  it('runs independent actions concurrently up to the limit', async () => {
    const many = Array.from({ length: 5 }, (_, i) => action(`a${i}`, `service.s${i}`));
    const { maxInFlight } = await walk(many, { parallelism: 10 });
    expect(maxInFlight).toBe(5);
  });

  it('skips dependents of a failure, naming the root cause, and continues other branches', async () => {
    const actions = [
      action('a1', 'service.db'),
      action('a2', 'replica_set.db.r', ['a1']),
      action('a3', 'replica_set.db.r2', ['a2']),
      action('a4', 'service.other'),
    ];
    const { started, skipped } = await walk(actions, { fail: ['a1'] });
    expect(started.sort()).toEqual(['a1', 'a4']);
    expect(skipped).toEqual([
      { id: 'a2', reason: 'upstream-failed', root: 'a1' },
      { id: 'a3', reason: 'upstream-failed', root: 'a1' },
    ]);
  });

  it('runs actions on one address one at a time in plan order even without dependsOn', async () => {
    const actions = [action('a1', 'service.db'), action('a2', 'service.db'), action('a3', 'service.db')];
    const { maxInFlight, started } = await walk(actions);
    expect(maxInFlight).toBe(1);
    expect(started).toEqual(['a1', 'a2', 'a3']);
  });

  it('still runs a later op on the same address when an earlier one without a dependency fails', async () => {
    const { started, skipped } = await walk([action('a1', 'service.db'), action('a2', 'service.db')], { fail: ['a1'] });
    expect(started).toEqual(['a1', 'a2']);
    expect(skipped).toEqual([]);
  });

  it('starts nothing new after the signal aborts and reports the rest as interrupted', async () => {
    const controller = new AbortController();
    const actions = [action('a1', 'service.a'), action('a2', 'service.b', ['a1']), action('a3', 'service.c', ['a2'])];
    setTimeout(() => controller.abort(), 8);
    const { started, skipped } = await walk(actions, { signal: controller.signal, delay: 20 });
    expect(started).toEqual(['a1']);
    expect(skipped.map((s) => [s.id, s.reason])).toEqual([
      ['a2', 'interrupted'],
      ['a3', 'interrupted'],
    ]);
  });

  it('rejects an unknown dependency and a cycle before running anything', async () => {
    await expect(walk([action('a1', 's.a', ['a9'])])).rejects.toThrow(/unknown action a9/);
    await expect(walk([action('a1', 's.a', ['a2']), action('a2', 's.b', ['a1'])])).rejects.toThrow(/cycle/);
  });

  it('finishes at once on an empty plan', async () => {
    const { started } = await walk([]);
    expect(started).toEqual([]);
  });

  describe('an idle action (waiting for its operation) gives up its slot', () => {
    /** Each action: 5 ms of sending, 50 ms idle (the wait), 5 ms of sending again; `log` records the order. */
    async function walkIdle(count: number, opts: { parallelism: number; idleFreesSlot?: boolean; log?: string[]; idleMs?: (i: number) => number }) {
      let active = 0;
      let maxActive = 0;
      let idle = 0;
      let maxIdle = 0;
      const busy = async (id: string, what: string) => {
        opts.log?.push(`${id} ${what}`);
        maxActive = Math.max(maxActive, ++active);
        await tick(5);
        active--;
      };
      const many = Array.from({ length: count }, (_, i) => action(`a${i}`, `service.s${i}`));
      const started = Date.now();
      const done = walkGraph(many, {
        parallelism: opts.parallelism,
        ...(opts.idleFreesSlot === undefined ? {} : { idleFreesSlot: opts.idleFreesSlot }),
        run: async (a, slot) => {
          await busy(a.id, 'send');
          await slot.idle(async () => {
            maxIdle = Math.max(maxIdle, ++idle);
            await tick(opts.idleMs?.(Number(a.id.slice(1))) ?? 50);
            idle--;
          });
          await busy(a.id, 'after');
        },
        onSkip: () => undefined,
      });
      await vi.runAllTimersAsync();
      await done;
      return { maxActive, maxIdle, ms: Date.now() - started };
    }

    it('so 12 waits run at once at parallelism 3, with never more than 3 actions sending', async () => {
      const r = await walkIdle(12, { parallelism: 3 });
      expect(r.maxActive).toBeLessThanOrEqual(3);
      expect(r.maxIdle).toBe(12);
      // Four rounds of 5 ms sends, one 50 ms wait, then the resumed sends: not four 60 ms rounds.
      expect(r.ms).toBeLessThan(100);
    });

    it('takes a slot back before any new action starts', async () => {
      const log: string[] = [];
      // One slot; a0's wait (8 ms) ends while a2 is sending and a3 has not started.
      await walkIdle(5, { parallelism: 1, log, idleMs: (i) => (i === 0 ? 8 : 50) });
      expect(log.slice(0, 5)).toEqual(['a0 send', 'a1 send', 'a2 send', 'a0 after', 'a3 send']);
    });
  });
});
