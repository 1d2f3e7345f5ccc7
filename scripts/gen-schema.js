#!/usr/bin/env node
// Regenerates the artefacts derived from the schemas and the op table (run after `npm run build`):
// schemas/dbform.schema.json and src/config/generated/config-validator.ts from src/config/schema.ts,
// the `op` enum of schemas/plan.schema.json from the op table, and then
// src/planner/generated/plan-validator.ts from schemas/plan.schema.json, and
// src/policy/generated/policy-validator.ts from schemas/policy.schema.json.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { renderPlanValidatorSource, renderPolicyValidatorSource, renderSchemaJson, renderValidatorSource } from '../dist/codegen/validators.js';
import { withOperationEnum } from '../dist/planner/plan-schema.js';

const root = join(import.meta.dirname, '..');
writeFileSync(join(root, 'schemas', 'dbform.schema.json'), renderSchemaJson());
writeFileSync(join(root, 'src', 'config', 'generated', 'config-validator.ts'), renderValidatorSource());
const planSchema = join(root, 'schemas', 'plan.schema.json');
writeFileSync(planSchema, withOperationEnum(readFileSync(planSchema, 'utf8')));
mkdirSync(join(root, 'src', 'planner', 'generated'), { recursive: true });
writeFileSync(join(root, 'src', 'planner', 'generated', 'plan-validator.ts'), renderPlanValidatorSource());
mkdirSync(join(root, 'src', 'policy', 'generated'), { recursive: true });
writeFileSync(join(root, 'src', 'policy', 'generated', 'policy-validator.ts'), renderPolicyValidatorSource());
console.log('wrote schemas/dbform.schema.json, src/config/generated/config-validator.ts, the op enum of schemas/plan.schema.json, src/planner/generated/plan-validator.ts and src/policy/generated/policy-validator.ts');
