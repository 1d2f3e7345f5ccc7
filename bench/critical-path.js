// The critical path of a plan's waits: the longest dependency chain, each action weighted by the
// emulator's timeline for its operation (SPEC section 6) times the time scale. It is the wall time
// a perfect engine with unlimited parallelism and an infinitely fast poll would need.
// `quantizedCriticalPath` adds what the poll schedule costs: a wait ends at the first poll tick
// at or after the timeline ends, on a poll schedule: 'elapsed', dbform's (src/api/poll-schedule.ts:
// every pollMs, then a fifth of the elapsed time, capped at 10 x), or 'backoff', the schedule of
// before turn 2 (first look after pollMs, then x1.5 per tick, capped at 10 x), which only the
// bench still needs and so keeps here.
import { simulateLooks as elapsedLooks } from '../dist/api/poll-schedule.js';

/** Nominal timeline per operation, in ms at time scale 1 (SPEC section 6; src/emulator/clock.ts). */
export const TIMELINE_MS = {
  createService: 5000, // QUEUED 1 s + CONFIGURING 4 s
  forkService: 5000,
  resizeService: 3000,
  setHAReplica: 3000,
  stopService: 2000,
  startService: 2000,
  deleteService: 2000,
  attachServiceToVPC: 2000,
  detachServiceFromVPC: 2000,
  createReplicaSet: 4000,
  resizeReplicaSet: 2000,
  deleteReplicaSet: 2000,
  createVPCPeering: 2000,
  deleteVPCPeering: 0, // immediate, but the engine still waits for "gone"
};

/** Operations the engine waits on (SPEC section 3, "waits for"); the others finish with their request. */
export const WAITING_OPS = new Set(Object.keys(TIMELINE_MS));

export function timelineMs(op, timeScale) {
  return (TIMELINE_MS[op] ?? 0) * timeScale;
}

/** The looks of one wait alone under the schedule before turn 2, until it sees `durationMs` end. */
function backoffLooks(pollMs, durationMs) {
  let at = pollMs;
  let interval = pollMs * 1.5;
  for (let looks = 1; ; looks++) {
    if (at >= durationMs) return { looks, seenAt: at };
    at += interval;
    interval = Math.min(interval * 1.5, pollMs * 10);
  }
}

/**
 * Looks a wait makes until an operation of `durationMs` is seen finished, and when it is seen (ms
 * after the wait starts), when no status changes on the way and nothing else shares its ticks.
 */
export function simulateLooks(schedule, pollMs, durationMs) {
  return schedule === 'backoff' ? backoffLooks(pollMs, durationMs) : elapsedLooks(pollMs, durationMs);
}

/** When the first poll tick at or after `durationMs` happens, for a wait that starts at 0. */
export function pollTickAfter(durationMs, pollMs, schedule = 'elapsed') {
  return simulateLooks(schedule, pollMs, durationMs).seenAt;
}

/**
 * Longest path through the plan's DAG. Edges are `dependsOn` plus, as the engine does, the
 * previous action on the same address (ops on one resource run one at a time, in plan order).
 * `weight(action)` gives each action's duration. Returns { ms, path } (path: action IDs).
 */
export function longestPath(actions, weight) {
  const byId = new Map(actions.map((a) => [a.id, a]));
  const lastOnAddress = new Map();
  const preds = new Map();
  for (const a of actions) {
    const p = new Set(a.dependsOn);
    const prev = lastOnAddress.get(a.address);
    if (prev) p.add(prev.id);
    lastOnAddress.set(a.address, a);
    preds.set(a.id, [...p]);
  }
  const finish = new Map();
  const via = new Map();
  const visit = (a, depth = 0) => {
    if (finish.has(a.id)) return finish.get(a.id);
    if (depth > actions.length) throw new Error(`the plan's dependencies form a cycle at ${a.id}`);
    let start = 0;
    for (const id of preds.get(a.id)) {
      const dep = byId.get(id);
      if (!dep) throw new Error(`action ${a.id} depends on unknown action ${id}`);
      const end = visit(dep, depth + 1);
      if (end > start) {
        start = end;
        via.set(a.id, id);
      }
    }
    const end = start + weight(a);
    finish.set(a.id, end);
    return end;
  };
  let best;
  for (const a of actions) {
    const end = visit(a);
    if (best === undefined || end > finish.get(best)) best = a.id;
  }
  const path = [];
  for (let id = best; id !== undefined; id = via.get(id)) path.unshift(id);
  return { ms: best === undefined ? 0 : finish.get(best), path };
}

/** The critical path of the emulator's timelines alone. */
export function criticalPath(actions, timeScale) {
  return longestPath(actions, (a) => timelineMs(a.op, timeScale));
}

/** The critical path when each wait ends at the poll tick that first sees it finished. */
export function quantizedCriticalPath(actions, timeScale, pollMs, schedule = 'elapsed') {
  return longestPath(actions, (a) => (WAITING_OPS.has(a.op) ? pollTickAfter(timelineMs(a.op, timeScale), pollMs, schedule) : 0));
}
