// Request body checks. Each failure is a 400 VALIDATION_ERROR naming the field. Unknown fields
// are ignored, as a tolerant server does.
import type { EnvironmentTagDto } from '../api/dto.js';
import { isCidr, parseCidr } from '../model/cidr.js';
import { invalidField } from './errors.js';
import type { DedicatedSize, ServiceSize } from './store.js';

export type Body = Record<string, unknown>;

export const ENVIRONMENTS: readonly EnvironmentTagDto[] = ['DEV', 'PROD'];

/** The parsed JSON body as an object; a missing body counts as `{}` so required fields are named. */
export function bodyObject(body: unknown): Body {
  if (body === undefined) return {};
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw invalidField('(body)', 'the request body must be a JSON object');
  }
  return body as Body;
}

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return typeof value === 'string' ? `the string ${JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}...` : value)}` : `${typeof value} ${JSON.stringify(value)}`;
}

export function requireString(b: Body, field: string, opts: { max?: number; pattern?: RegExp; hint?: string } = {}): string {
  const v = b[field];
  if (v === undefined) throw invalidField(field, 'is required');
  return checkString(v, field, opts);
}

export function optionalString(b: Body, field: string, opts: { max?: number; pattern?: RegExp; hint?: string } = {}): string | undefined {
  const v = b[field];
  return v === undefined ? undefined : checkString(v, field, opts);
}

/** Length in characters (Unicode code points), not UTF-16 units: an emoji is one character. */
export function charCount(text: string): number {
  let n = 0;
  for (const _ of text) n++;
  return n;
}

/** A service name (create, fork, rename): 1-128 characters, SPEC section 9. */
export function requireName(b: Body): string {
  const v = b.name;
  if (v === undefined) throw invalidField('name', 'is required');
  if (typeof v !== 'string') throw invalidField('name', 'must be a string');
  const length = charCount(v);
  if (length < 1 || length > 128) throw invalidField('name', `must be 1-128 characters long (got ${length})`);
  return v;
}

function checkString(v: unknown, field: string, opts: { max?: number; pattern?: RegExp; hint?: string }): string {
  if (typeof v !== 'string') throw invalidField(field, `must be a string (got ${describe(v)})`);
  const max = opts.max ?? 128;
  const length = charCount(v);
  if (length < 1 || length > max) throw invalidField(field, `must be 1-${max} characters long (got ${length})`);
  if (opts.pattern && !opts.pattern.test(v)) throw invalidField(field, `${opts.hint ?? `must match ${opts.pattern}`} (got ${describe(v)})`);
  return v;
}

export function requireEnum<T extends string>(b: Body, field: string, values: readonly T[]): T {
  if (b[field] === undefined) throw invalidField(field, `is required (one of ${values.join(', ')})`);
  return optionalEnum(b, field, values)!;
}

export function optionalEnum<T extends string>(b: Body, field: string, values: readonly T[]): T | undefined {
  const v = b[field];
  if (v === undefined) return undefined;
  if (typeof v !== 'string' || !(values as readonly string[]).includes(v)) {
    throw invalidField(field, `must be one of ${values.join(', ')} (got ${describe(v)})`);
  }
  return v as T;
}

export function requireInt(b: Body, field: string, min: number, max: number): number {
  if (b[field] === undefined) throw invalidField(field, `is required (an integer ${min}-${max})`);
  return optionalInt(b, field, min, max)!;
}

export function optionalInt(b: Body, field: string, min: number, max: number): number | undefined {
  const v = b[field];
  if (v === undefined) return undefined;
  if (typeof v !== 'number' || !Number.isInteger(v)) throw invalidField(field, `must be an integer (got ${describe(v)})`);
  if (v < min || v > max) throw invalidField(field, `must be between ${min} and ${max} (got ${v})`);
  return v;
}

/** Digit strings for resize bodies; `shared` only where allowed (create and fork). */
function sizeText(b: Body, field: string, allowShared: boolean): number | 'shared' {
  const v = b[field];
  const want = allowShared ? 'a string of digits or "shared"' : 'a string of digits';
  if (typeof v !== 'string') throw invalidField(field, `must be ${want} (got ${describe(v)})`);
  if (v === 'shared' && allowShared) return 'shared';
  if (!/^[0-9]{1,9}$/.test(v)) throw invalidField(field, `must be ${want} (got ${describe(v)})`);
  return Number(v);
}

/**
 * The `cpu_millis`/`memory_gbs` pair of a create, fork or resize body, one of `sizes` (the
 * dialect's); undefined when both are absent and `optional`.
 */
export function sizePair(b: Body, opts: { optional: boolean; allowShared: boolean; sizes: readonly DedicatedSize[] }): ServiceSize | undefined {
  const hasCpu = b.cpu_millis !== undefined;
  const hasMem = b.memory_gbs !== undefined;
  if (!hasCpu && !hasMem && opts.optional) return undefined;
  if (!hasCpu) throw invalidField('cpu_millis', hasMem ? 'is required together with memory_gbs' : 'is required');
  if (!hasMem) throw invalidField('memory_gbs', hasCpu && opts.optional ? 'is required together with cpu_millis' : 'is required');
  const cpu = sizeText(b, 'cpu_millis', opts.allowShared);
  const mem = sizeText(b, 'memory_gbs', opts.allowShared);
  if (cpu === 'shared' || mem === 'shared') {
    if (cpu === mem) return 'shared';
    throw invalidField(cpu === 'shared' ? 'memory_gbs' : 'cpu_millis', '"shared" must be used for both cpu_millis and memory_gbs');
  }
  return allowedPair(cpu, mem, opts.sizes);
}

export function allowedPair(cpuMillis: number, memoryGbs: number, sizes: readonly DedicatedSize[]): DedicatedSize {
  const size = sizes.find((s) => s.cpuMillis === cpuMillis && s.memoryGbs === memoryGbs);
  if (!size) {
    const allowed = sizes.map((s) => `${s.cpuMillis}/${s.memoryGbs}`).join(', ');
    throw invalidField('cpu_millis', `${cpuMillis}/${memoryGbs} (cpu_millis/memory_gbs) is not an allowed size; allowed: ${allowed}`);
  }
  return { ...size };
}

export { parseRfc3339 } from '../model/rfc3339.js';

/**
 * The problem with an IPv4 CIDR block in the API's words, or undefined when it is valid with host
 * bits zero. Read by the model's parser; the API has one message for every malformed block.
 */
export function cidrProblem(cidr: string): string | undefined {
  const parsed = parseCidr(cidr);
  if (isCidr(parsed)) return undefined;
  if (parsed.kind === 'host-bits') return `has host bits set (the /${Number(cidr.split('/')[1])} network is not aligned)`;
  return 'must be an IPv4 CIDR block a.b.c.d/n';
}
