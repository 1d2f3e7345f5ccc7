// HA: a synchronous replica needs a second, asynchronous one (the API refuses 1 sync of 1).
// The ranges themselves (replicas 0-2, sync_replicas 0-1) are in the schema.
import type { Diagnostic } from '../../model/diagnostics.js';
import { diagnosticAt } from '../merge.js';
import { int, record, type Rule } from './rule.js';

export const haRule: Rule = {
  code: 'ha',
  check(config) {
    const errors: Diagnostic[] = [];
    for (const service of config.services) {
      const ha = record(service.value, 'ha');
      if (!ha || int(ha, 'sync_replicas') !== 1) continue;
      const replicas = ha.replicas === undefined ? 0 : int(ha, 'replicas');
      if (replicas === undefined || replicas === 2) continue;
      const found = ha.replicas === undefined ? 'replicas is left out, which means 0' : `replicas is ${replicas}`;
      const message = `services.${service.key}.ha.sync_replicas: 1 needs replicas: 2 (${found}); one synchronous replica always comes with one asynchronous`;
      errors.push(diagnosticAt(service.origin, ['ha', 'sync_replicas'], message, 'ha'));
    }
    return errors;
  },
};
