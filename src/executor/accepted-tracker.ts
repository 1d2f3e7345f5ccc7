// Whether an action's request took effect in the cloud: after Ctrl-C, an action whose change the
// API accepted is reported as "sent; wait abandoned", not as "not started" (SPEC section 5: the
// summary says truthfully what was done).
import type { ExecutorApi } from './ports.js';

const READS = /^(list|get)/;

/**
 * The same API, calling `onAccepted` each time a mutating call (anything but list/get) answers
 * with success. A refused call (409 while a transition runs, ...) changed nothing and does not count.
 */
export function trackAccepted(api: ExecutorApi, onAccepted: () => void): ExecutorApi {
  return new Proxy(api, {
    get(target, key) {
      const value: unknown = Reflect.get(target, key);
      if (typeof value !== 'function') return value;
      if (typeof key !== 'string' || READS.test(key)) return value.bind(target);
      return async (...args: unknown[]) => {
        const answer: unknown = await value.apply(target, args);
        onAccepted();
        return answer;
      };
    },
  });
}
