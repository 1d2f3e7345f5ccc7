// VPC CIDR blocks: valid IPv4 `a.b.c.d/n` with the host bits zero, and no two VPCs of the
// project overlapping (peering and routing need disjoint blocks).
import type { Diagnostic } from '../../model/diagnostics.js';
import { describeSource, diagnosticAt, sourceOf, type Entry } from '../merge.js';
import { CIDR_SHAPE_REGEX } from '../schema.js';
import { str, type Rule } from './rule.js';

export interface Cidr {
  base: number;
  prefix: number;
}

/** Parses `a.b.c.d/n`; a string explaining the problem when it is not a valid block. */
export function parseCidr(text: string): Cidr | string {
  const m = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})\/(\d{1,2})$/.exec(text);
  if (!m) return 'is not an IPv4 CIDR block like 10.10.0.0/16';
  const octets = m.slice(1, 5);
  const numbers = octets.map(Number);
  if (numbers.some((o) => o > 255)) return 'has an octet above 255';
  const prefix = Number(m[5]);
  if (prefix > 32) return `has prefix length /${prefix}; it must be 0-32`;
  const base = numbers.reduce((acc, o) => acc * 256 + o, 0);
  const size = 2 ** (32 - prefix);
  const network = base - (base % size);
  const networkText = `${[24, 16, 8, 0].map((shift) => Math.floor(network / 2 ** shift) % 256).join('.')}/${prefix}`;
  // Some tools read a leading zero as octal: the block must be written one way only.
  const zeroIn = octets.some(hasLeadingZero) ? 'an octet' : hasLeadingZero(m[5]!) ? 'the prefix length' : undefined;
  if (zeroIn) return `has a leading zero in ${zeroIn}; write ${networkText}`;
  if (network !== base) return `has host bits set; the block starting at its network address is ${networkText}`;
  return { base, prefix };
}

const CIDR_SHAPE = new RegExp(CIDR_SHAPE_REGEX);

const hasLeadingZero = (digits: string): boolean => digits.length > 1 && digits.startsWith('0');

const lastAddress = (c: Cidr): number => c.base + 2 ** (32 - c.prefix) - 1;

export const cidrRule: Rule = {
  code: 'cidr',
  check(config) {
    const errors: Diagnostic[] = [];
    const valid: Array<{ vpc: Entry; text: string; cidr: Cidr }> = [];
    for (const vpc of config.vpcs) {
      const text = str(vpc.value, 'cidr');
      // A string without the a.b.c.d/n shape is reported by the schema.
      if (text === undefined || !CIDR_SHAPE.test(text)) continue;
      const parsed = parseCidr(text);
      if (typeof parsed === 'string') {
        errors.push(diagnosticAt(vpc.origin, ['cidr'], `vpcs.${vpc.key}.cidr: ${JSON.stringify(text)} ${parsed}`, 'cidr'));
        continue;
      }
      const clash = valid.find((o) => o.cidr.base <= lastAddress(parsed) && parsed.base <= lastAddress(o.cidr));
      if (clash) {
        const there = describeSource(sourceOf(clash.vpc.origin, ['cidr']));
        const message = `vpcs.${vpc.key}.cidr: ${text} overlaps ${clash.text} of vpcs.${clash.vpc.key} (${there}); VPC blocks of a project must not overlap`;
        errors.push(diagnosticAt(vpc.origin, ['cidr'], message, 'cidr-overlap'));
      }
      valid.push({ vpc, text, cidr: parsed });
    }
    return errors;
  },
};
