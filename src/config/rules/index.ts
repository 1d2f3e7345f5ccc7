// The semantic rules of SPEC section 1 that a JSON Schema cannot express, in reporting order. Rules
// run on the merged data even when the schema found problems (so that all errors come at once),
// so they read values through guards (rule.ts) and skip whatever has the wrong type: the schema
// has already said so.
import type { Diagnostic } from '../../model/diagnostics.js';
import type { MergedConfig } from '../merge.js';
import { kindRules } from './kinds.js';
import { movedEntries } from './moved.js';
import { uniqueNames } from './unique-names.js';

export const RULES: ReadonlyArray<(config: MergedConfig) => Diagnostic[]> = [kindRules, uniqueNames, movedEntries];
