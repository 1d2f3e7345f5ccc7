// The engine's wait conditions (SPEC sections 3 and 5) over a batched poller (the client's
// StatusPoller): what each goal means, the resource's kind says (src/kinds/<kind>: `waits`).
import { describeRef, kindDef } from '../kinds/index.js';
import type { ExecutorPoller, ExecutorWaits, WaitOptions } from './ports.js';

/** The poller's options for one wait; `waitingFor` says in words what it waits for (for a stall notice). */
function options(o: WaitOptions, waitingFor: string, describe: (status: string, live: unknown) => string = (status) => status) {
  return {
    timeoutMs: o.timeoutMs,
    ...(o.signal ? { signal: o.signal } : {}),
    ...(o.onStatus ? { onStatus: (status: string, live: unknown) => o.onStatus!(describe(status, live)) } : {}),
    ...(o.onStall ? { onStall: (status: string | undefined, forMs: number, known: boolean) => o.onStall!({ waitingFor, status, forMs, known }) } : {}),
  };
}

export function pollerWaits(poller: ExecutorPoller): ExecutorWaits {
  return {
    async until(kind, ref, goal, o, arg) {
      const subject = describeRef(kind, ref.id, ref.parentId);
      if (goal === 'gone') return poller.waitForGone(kind, ref, options(o, `${subject} to be deleted`));
      const spec = kindDef(kind).waits.goals[goal];
      if (spec === undefined) throw new Error(`a ${kind} has no wait goal ${goal}`);
      const describe = spec.describe && ((status: string, live: unknown) => spec.describe!(status, live, arg));
      return poller.waitFor(kind, ref, (live) => spec.done(live, arg), options(o, `${subject} ${spec.what(arg)}`, describe));
    },
  };
}
