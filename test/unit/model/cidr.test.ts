// CIDR blocks, parsed once (src/model/cidr.ts) for the config rule, export and the emulator.
import { describe, expect, it } from 'vitest';
import { cidrProblem } from '../../../src/emulator/validate.js';
import { cidrsOverlap, isCidr, parseCidr, type Cidr } from '../../../src/model/index.js';

describe('parseCidr', () => {
  it.each([
    ['0.0.0.0/0', { base: 0, prefix: 0 }],
    ['10.10.0.0/16', { base: 0x0a0a0000, prefix: 16 }],
    ['192.168.1.7/32', { base: 0xc0a80107, prefix: 32 }],
    ['255.255.255.254/31', { base: 0xfffffffe, prefix: 31 }],
  ])('accepts %s', (text, parsed) => expect(parseCidr(text)).toEqual(parsed));

  it.each([
    ['10.0.0.0', 'shape', 'is not an IPv4 CIDR block like 10.10.0.0/16'],
    ['10.0.0/16', 'shape', 'is not an IPv4 CIDR block like 10.10.0.0/16'],
    [' 10.0.0.0/16', 'shape', 'is not an IPv4 CIDR block like 10.10.0.0/16'],
    ['10.02.0.0/16', 'leading-zero', 'has a leading zero in an octet; write 10.2.0.0/16'],
    ['010.02.000.7/16', 'leading-zero', 'has a leading zero in an octet; write 10.2.0.0/16'],
    ['12.0.0.0/08', 'leading-zero', 'has a leading zero in the prefix length; write 12.0.0.0/8'],
    ['12.0.0.0/00', 'leading-zero', 'has a leading zero in the prefix length; write 0.0.0.0/0'],
    ['10.256.0.0/16', 'octet', 'has an octet above 255'],
    ['10.0.0.0/33', 'prefix', 'has prefix length /33; it must be 0-32'],
    ['10.0.0.128/24', 'host-bits', 'has host bits set; the block starting at its network address is 10.0.0.0/24'],
    ['255.255.255.255/1', 'host-bits', 'has host bits set; the block starting at its network address is 128.0.0.0/1'],
  ])('refuses %s', (text, kind, message) => expect(parseCidr(text)).toEqual({ kind, message }));
});

describe('cidrsOverlap', () => {
  const block = (text: string): Cidr => {
    const parsed = parseCidr(text);
    if (!isCidr(parsed)) throw new Error(parsed.message);
    return parsed;
  };
  it.each([
    ['10.0.0.0/24', '10.0.1.0/24', false],
    ['10.0.0.0/8', '10.200.0.0/16', true],
    ['10.200.0.0/16', '10.0.0.0/8', true],
    ['10.0.0.0/16', '10.0.0.0/16', true],
    ['0.0.0.0/0', '192.168.1.7/32', true],
    ['255.255.255.254/31', '255.255.255.252/31', false],
  ])('%s and %s: %s', (a, b, overlap) => expect(cidrsOverlap(block(a), block(b))).toBe(overlap));
});

// The emulator's createVPC answers in the API's words: one message for every malformed block.
describe("the emulator's CIDR check", () => {
  it.each([
    ['10.10.0.0/16', undefined],
    ['0.0.0.0/0', undefined],
    ['10.0.0.0', 'must be an IPv4 CIDR block a.b.c.d/n'],
    ['10.256.0.0/16', 'must be an IPv4 CIDR block a.b.c.d/n'],
    ['10.0.0.0/33', 'must be an IPv4 CIDR block a.b.c.d/n'],
    ['10.02.0.0/16', 'must be an IPv4 CIDR block a.b.c.d/n'],
    ['12.0.0.0/08', 'must be an IPv4 CIDR block a.b.c.d/n'],
    ['10.10.0.1/16', 'has host bits set (the /16 network is not aligned)'],
    ['192.168.1.7/31', 'has host bits set (the /31 network is not aligned)'],
  ])('%s: %s', (text, problem) => expect(cidrProblem(text)).toBe(problem));
});
