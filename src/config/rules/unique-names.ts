// Names (the `name` field, or the key when left out) are how dbform adopts live resources, so
// two resources of one kind with one name would make adoption ambiguous.
import type { Diagnostic } from '../../model/diagnostics.js';
import { describeSource, diagnosticAt, sourceOf, type Entry } from '../merge.js';
import { nameOf, replicaSetsOf, type Rule } from './rule.js';

function findDuplicates(entries: readonly Entry[], label: (e: Entry) => string, scope: string): Diagnostic[] {
  const errors: Diagnostic[] = [];
  const seen = new Map<string, Entry>();
  for (const entry of entries) {
    const name = nameOf(entry);
    if (name === undefined) continue;
    const first = seen.get(name);
    if (!first) {
      seen.set(name, entry);
      continue;
    }
    const explicit = entry.value.name !== undefined;
    const firstSource = sourceOf(first.origin, first.value.name !== undefined ? ['name'] : [], first.value.name !== undefined ? 'value' : 'key');
    const message = `${label(entry)}: the name ${JSON.stringify(name)} is already used by ${label(first)} (${describeSource(firstSource)}); ${scope}`;
    errors.push(diagnosticAt(entry.origin, explicit ? ['name'] : [], message, 'duplicate-name', { target: explicit ? 'value' : 'key' }));
  }
  return errors;
}

export const uniqueNamesRule: Rule = {
  code: 'duplicate-name',
  check(config) {
    return [
      ...findDuplicates(config.vpcs, (e) => `vpcs.${e.key}`, 'VPC names must be unique in the project'),
      ...findDuplicates(config.services, (e) => `services.${e.key}`, 'service names must be unique in the project'),
      ...config.services.flatMap((service) =>
        findDuplicates(
          replicaSetsOf(service),
          (e) => `services.${service.key}.replica_sets.${e.key}`,
          'replica set names must be unique within their service',
        ),
      ),
    ];
  },
};
