// cpu_millis and memory_gbs come in fixed pairs (SPEC section 9). Each value alone is checked
// by the schema; this rule checks that they go together.
import type { Diagnostic } from '../../model/diagnostics.js';
import { ALLOWED_SERVICE_SIZES, describeAllowedSizes, isAllowedServiceSize } from '../../model/sizes.js';
import { diagnosticAt, type Entry } from '../merge.js';
import { replicaSetsOf, type Rule } from './rule.js';

const sizeValue = (v: unknown): number | 'shared' | undefined =>
  v === 'shared' || (typeof v === 'number' && ALLOWED_SERVICE_SIZES.some((s) => s.cpuMillis === v || s.memoryGbs === v)) ? (v as number | 'shared') : undefined;

function checkPair(entry: Entry, label: string, shared: boolean): Diagnostic[] {
  const cpu = sizeValue(entry.value.cpu_millis);
  const memory = sizeValue(entry.value.memory_gbs);
  // Unknown or out-of-list values are already reported by the schema.
  if (cpu === undefined || memory === undefined) return [];
  if (!shared && (cpu === 'shared' || memory === 'shared')) return [];
  if (isAllowedServiceSize(cpu, memory)) return [];
  const partner = cpu === 'shared' ? 'shared' : ALLOWED_SERVICE_SIZES.find((s) => s.cpuMillis === cpu)?.memoryGbs;
  const hint = partner === undefined ? '' : `; cpu_millis ${cpu} goes with memory_gbs ${partner}`;
  const allowed = shared ? describeAllowedSizes() : describeAllowedSizes().replace(', shared/shared', '');
  const message = `${label}.memory_gbs: ${memory} does not go with cpu_millis ${cpu}; allowed cpu_millis/memory_gbs pairs are ${allowed}${hint}`;
  return [diagnosticAt(entry.origin, ['memory_gbs'], message, 'size-pair')];
}

export const sizesRule: Rule = {
  code: 'size-pair',
  check(config) {
    return config.services.flatMap((service) => [
      ...checkPair(service, `services.${service.key}`, true),
      ...replicaSetsOf(service).flatMap((rs) => checkPair(rs, `services.${service.key}.replica_sets.${rs.key}`, false)),
    ]);
  },
};
