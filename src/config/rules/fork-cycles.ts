// Fork chains must end at a service that is not a fork of the config: a cycle has no service
// that could be created first.
import type { Diagnostic } from '../../model/diagnostics.js';
import { diagnosticAt, type Entry } from '../merge.js';
import { entriesByKey, record, str, type Rule } from './rule.js';

export const forkCyclesRule: Rule = {
  code: 'fork-cycle',
  check(config) {
    const byKey = entriesByKey(config.services);
    const parentOf = (s: Entry): Entry | undefined => {
      const from = str(record(s.value, 'fork'), 'from');
      return from === undefined || from === s.key ? undefined : byKey.get(from);
    };
    const errors: Diagnostic[] = [];
    const reported = new Set<string>();
    for (const start of config.services) {
      // Most services fork nothing: no chain to follow.
      if (parentOf(start) === undefined) continue;
      const chain: Entry[] = [];
      const onChain = new Set<string>();
      for (let s: Entry | undefined = start; s; s = parentOf(s)) {
        if (onChain.has(s.key)) {
          const cycle = chain.slice(chain.findIndex((c) => c.key === s!.key));
          if (!cycle.some((c) => reported.has(c.key))) {
            cycle.forEach((c) => reported.add(c.key));
            const text = [...cycle, cycle[0]!].map((c) => c.key).join(' -> ');
            const message = `services.${cycle[0]!.key}.fork.from: fork cycle ${text}; one of them must be created without fork`;
            errors.push(diagnosticAt(cycle[0]!.origin, ['fork', 'from'], message, 'fork-cycle'));
          }
          break;
        }
        chain.push(s);
        onChain.add(s.key);
      }
    }
    return errors;
  },
};
