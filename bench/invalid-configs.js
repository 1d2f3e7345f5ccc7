// Configs that fail validation, for the cost of errors (SPEC section 8, revised in turn 3): the
// generated config (scripts/gen-large-config.js) with values made wrong by plain text edits.
import { generateLargeConfig } from '../scripts/gen-large-config.js';

/** `services` services, each with one wrong size (memory_gbs 9 beside cpu_millis 2000): one error each. */
export function sizeErrorConfig(services) {
  return generateLargeConfig(services).replace(/^ {4}memory_gbs: 8$/gm, '    memory_gbs: 9');
}

/**
 * Eight wrong settings in every service, nine errors (an addon, a region, a size, an environment, a
 * range and the HA rule it breaks, a type, an unknown VPC, a replica set's nodes): 90,000 at 10,000.
 */
const EVERY_SERVICE_WRONG = [
  [/^ {4}addons: \[time-series\]$/gm, '    addons: [time-seris]'],
  [/^ {4}region_code: us-east-1$/gm, '    region_code: US-EAST'],
  [/^ {4}memory_gbs: 8$/gm, '    memory_gbs: 9'],
  [/^ {4}environment: PROD$/gm, '    environment: PRDO'],
  [/^ {4}ha: \{ replicas: 2, sync_replicas: 1 \}$/gm, '    ha: { replicas: 3, sync_replicas: 1 }'],
  [/^ {4}pooler: true$/gm, '    pooler: "yes"'],
  [/^ {4}vpc: vpc-(\d+)$/gm, '    vpc: vpc-gone-$1'],
  [/^ {8}nodes: 2$/gm, '        nodes: 11'],
];

/** `services` services (10,000: about 5 MB), every one of them invalid (and the region of every VPC). */
export function allInvalidConfig(services) {
  return EVERY_SERVICE_WRONG.reduce((text, [pattern, replacement]) => text.replace(pattern, replacement), generateLargeConfig(services));
}
