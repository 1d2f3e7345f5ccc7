// VPC CIDR blocks: valid IPv4 `a.b.c.d/n` with the host bits zero, and no two VPCs of the
// project overlapping (routes between VPCs need disjoint blocks).
import { cidrsOverlap, isCidr, parseCidr, type Cidr, type Diagnostic } from '../../model/index.js';
import { describeSource, diagnosticAt, sourceOf, type Entry } from '../merge.js';
import { CIDR_SHAPE_REGEX } from '../schema.js';
import { str, type Rule } from './rule.js';

const CIDR_SHAPE = new RegExp(CIDR_SHAPE_REGEX);

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
      if (!isCidr(parsed)) {
        errors.push(diagnosticAt(vpc.origin, ['cidr'], `vpcs.${vpc.key}.cidr: ${JSON.stringify(text)} ${parsed.message}`, 'cidr'));
        continue;
      }
      const clash = valid.find((o) => cidrsOverlap(o.cidr, parsed));
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
