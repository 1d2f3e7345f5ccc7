// The semantic rules of SPEC section 1 that a JSON Schema cannot express, in reporting order.
import { kindRulesRule } from './kinds.js';
import { movedRule } from './moved.js';
import type { Rule } from './rule.js';
import { uniqueNamesRule } from './unique-names.js';

export type { Rule } from './rule.js';

export const RULES: readonly Rule[] = [
  kindRulesRule,
  uniqueNamesRule,
  movedRule,
];
