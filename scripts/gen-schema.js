#!/usr/bin/env node
// Regenerates the artefacts derived from src/config/schema.ts and the op table (run after
// `npm run build`): schemas/dbform.schema.json, src/config/generated/config-validator.ts, and the
// `op` enum of schemas/plan.schema.json.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { renderSchemaJson, renderValidatorSource } from '../dist/config/generate.js';
import { withOperationEnum } from '../dist/planner/plan-schema.js';

const root = join(import.meta.dirname, '..');
writeFileSync(join(root, 'schemas', 'dbform.schema.json'), renderSchemaJson());
writeFileSync(join(root, 'src', 'config', 'generated', 'config-validator.ts'), renderValidatorSource());
const planSchema = join(root, 'schemas', 'plan.schema.json');
writeFileSync(planSchema, withOperationEnum(readFileSync(planSchema, 'utf8')));
console.log('wrote schemas/dbform.schema.json, src/config/generated/config-validator.ts and the op enum of schemas/plan.schema.json');
