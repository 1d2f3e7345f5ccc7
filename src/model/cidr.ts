// IPv4 CIDR blocks (`a.b.c.d/n`), read one way wherever dbform meets one: the config's VPC
// blocks (kinds/vpc/kind.ts), the VPCs an export can write (export/build.ts), and the
// emulator's createVPC.

export interface Cidr {
  /** The network address as a number (0 to 2^32 - 1). */
  base: number;
  prefix: number;
}

export interface CidrProblem {
  /** `host-bits`: a well-formed block whose address is not its network's; anything else is malformed. */
  kind: 'shape' | 'octet' | 'prefix' | 'leading-zero' | 'host-bits';
  /** What is wrong, to follow the block in a message: `has an octet above 255`. */
  message: string;
}

const BLOCK = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})\/(\d{1,2})$/;

const hasLeadingZero = (digits: string): boolean => digits.length > 1 && digits.startsWith('0');

const addressText = (n: number): string => [24, 16, 8, 0].map((shift) => Math.floor(n / 2 ** shift) % 256).join('.');

/** Parses `a.b.c.d/n` with the host bits zero; otherwise says what is wrong. */
export function parseCidr(text: string): Cidr | CidrProblem {
  const m = BLOCK.exec(text);
  if (!m) return { kind: 'shape', message: 'is not an IPv4 CIDR block like 10.10.0.0/16' };
  const octets = m.slice(1, 5);
  const numbers = octets.map(Number);
  if (numbers.some((o) => o > 255)) return { kind: 'octet', message: 'has an octet above 255' };
  const prefix = Number(m[5]);
  if (prefix > 32) return { kind: 'prefix', message: `has prefix length /${prefix}; it must be 0-32` };
  const base = numbers.reduce((acc, o) => acc * 256 + o, 0);
  const network = base - (base % 2 ** (32 - prefix));
  const networkText = `${addressText(network)}/${prefix}`;
  // Some tools read a leading zero as octal: the block must be written one way only.
  const zeroIn = octets.some(hasLeadingZero) ? 'an octet' : hasLeadingZero(m[5]!) ? 'the prefix length' : undefined;
  if (zeroIn) return { kind: 'leading-zero', message: `has a leading zero in ${zeroIn}; write ${networkText}` };
  if (network !== base) return { kind: 'host-bits', message: `has host bits set; the block starting at its network address is ${networkText}` };
  return { base, prefix };
}

export const isCidr = (parsed: Cidr | CidrProblem): parsed is Cidr => 'base' in parsed;

const lastAddress = (c: Cidr): number => c.base + 2 ** (32 - c.prefix) - 1;

/** Whether two blocks share an address (routes between VPCs need disjoint blocks). */
export function cidrsOverlap(a: Cidr, b: Cidr): boolean {
  return a.base <= lastAddress(b) && b.base <= lastAddress(a);
}
