// Pieces the fields of several kinds share: JSON Schema fragments (src/config/schema.ts puts the
// whole schema together from the descriptors) and what `null` means when reading the config.
import { REGION_CODE_PATTERN } from '../api-values.js';
import { ALLOWED_SERVICE_SIZES, describeAllowedSizes, isAllowedServiceSize } from '../sizes.js';
import type { FieldProblem, Json } from './types.js';

/** Logical names: the keys of resources in the config (SPEC section 1). */
export const KEY_REGEX = '^[a-z][a-z0-9-]{0,62}$';
/** An open pattern (SPEC section 12): the API decides which regions exist. */
export const REGION_REGEX = REGION_CODE_PATTERN;
export const ENV_NAME_REGEX = '^[A-Za-z_][A-Za-z0-9_]*$';
/** The shape of a CIDR block; octet ranges and host bits are checked by kinds/vpc/kind.ts. */
export const CIDR_SHAPE_REGEX = '^[0-9]{1,3}(\\.[0-9]{1,3}){3}/[0-9]{1,2}$';

export const keySchema = (what: string): Json => ({
  type: 'string',
  pattern: KEY_REGEX,
  description: `Key of ${what}: a lowercase letter, then up to 62 lowercase letters, digits or hyphens.`,
});

/** Names the config can hold: 1-128 characters (code points, as JSON Schema counts them; see nameSchema). */
export function isWritableName(name: string): boolean {
  const length = [...name].length;
  return length >= 1 && length <= 128;
}

export const nameSchema = (what: string): Json => ({
  type: 'string',
  minLength: 1,
  maxLength: 128,
  description: `Name of the ${what} in the cloud (1-128 characters). Optional; defaults to the key.`,
});

export const environmentSchema = (what: string): Json => ({
  enum: ['DEV', 'PROD', null],
  description: `Environment tag of the ${what}: DEV or PROD. null manages it as DEV; leave it out to leave it unmanaged.`,
});

export const regionCodeSchema = (description: string): Json => ({ type: 'string', pattern: REGION_REGEX, description });

const sizesText = describeAllowedSizes();
export const CPU_VALUES = ALLOWED_SERVICE_SIZES.map((s) => s.cpuMillis);
export const MEMORY_VALUES = ALLOWED_SERVICE_SIZES.map((s) => s.memoryGbs);

export const sizeSchema = (field: 'cpu_millis' | 'memory_gbs', shared: boolean): Json => {
  const values = field === 'cpu_millis' ? CPU_VALUES : MEMORY_VALUES;
  const pairs = shared ? sizesText : sizesText.replace(', shared/shared', '');
  return {
    enum: shared ? [...values, 'shared'] : [...values],
    description:
      field === 'cpu_millis'
        ? `CPU in millicores, given together with memory_gbs as an allowed pair (cpu_millis/memory_gbs): ${pairs}.`
        : `Memory in GB, given together with cpu_millis as an allowed pair (cpu_millis/memory_gbs): ${pairs}.`,
  };
};

// Every number of an allowed pair, either side: looked up for each size of a config, not searched.
const SIZE_NUMBERS: ReadonlySet<unknown> = new Set(ALLOWED_SERVICE_SIZES.flatMap((s) => [s.cpuMillis, s.memoryGbs]));

const sizeValue = (v: unknown): number | 'shared' | undefined => (v === 'shared' || (typeof v === 'number' && SIZE_NUMBERS.has(v)) ? (v as number | 'shared') : undefined);

/**
 * cpu_millis and memory_gbs come in fixed pairs (SPEC section 9): each value alone the schema
 * checks, this that they go together (`shared`: whether the shared pair is one of them).
 */
export function sizePairProblem(raw: Json, shared: boolean): FieldProblem | undefined {
  const cpu = sizeValue(raw.cpu_millis);
  const memory = sizeValue(raw.memory_gbs);
  // Unknown or out-of-list values are already reported by the schema.
  if (cpu === undefined || memory === undefined) return undefined;
  if (!shared && (cpu === 'shared' || memory === 'shared')) return undefined;
  if (isAllowedServiceSize(cpu, memory)) return undefined;
  const partner = cpu === 'shared' ? 'shared' : ALLOWED_SERVICE_SIZES.find((s) => s.cpuMillis === cpu)?.memoryGbs;
  const hint = partner === undefined ? '' : `; cpu_millis ${cpu} goes with memory_gbs ${partner}`;
  const allowed = shared ? sizesText : sizesText.replace(', shared/shared', '');
  return { key: 'memory_gbs', message: `${memory} does not go with cpu_millis ${cpu}; allowed cpu_millis/memory_gbs pairs are ${allowed}${hint}`, code: 'size-pair' };
}

/** `null` manages absence: DEV (SPEC section 1). */
export const environmentOf = (v: unknown): 'DEV' | 'PROD' | undefined => (v === undefined ? undefined : v === null ? 'DEV' : (v as 'DEV' | 'PROD'));
/** `null` manages absence: false (a switch left off). */
export const flagOf = (v: unknown): boolean | undefined => (v === undefined ? undefined : v === null ? false : (v as boolean));
