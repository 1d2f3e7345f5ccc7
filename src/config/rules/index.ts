// The semantic rules of SPEC section 1 that a JSON Schema cannot express, in reporting order.
import { cidrRule } from './cidr.js';
import { forkCyclesRule } from './fork-cycles.js';
import { forkRule } from './fork.js';
import { haRule } from './ha.js';
import { movedRule } from './moved.js';
import { peeringsRule } from './peerings.js';
import { referencesRule } from './references.js';
import type { Rule } from './rule.js';
import { sizesRule } from './sizes.js';
import { uniqueNamesRule } from './unique-names.js';

export type { Rule } from './rule.js';

export const RULES: readonly Rule[] = [
  cidrRule,
  peeringsRule,
  uniqueNamesRule,
  referencesRule,
  forkCyclesRule,
  forkRule,
  haRule,
  sizesRule,
  movedRule,
];
