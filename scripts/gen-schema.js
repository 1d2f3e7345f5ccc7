#!/usr/bin/env node
// Regenerates the artefacts derived from the schemas (run after `npm run build`):
// schemas/dbform.schema.json and src/config/generated/config-validator.ts from src/config/schema.ts,
// and src/planner/generated/plan-validator.ts from schemas/plan.schema.json.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { renderPlanValidatorSource, renderSchemaJson, renderValidatorSource } from '../dist/config/generate.js';

const root = join(import.meta.dirname, '..');
writeFileSync(join(root, 'schemas', 'dbform.schema.json'), renderSchemaJson());
writeFileSync(join(root, 'src', 'config', 'generated', 'config-validator.ts'), renderValidatorSource());
mkdirSync(join(root, 'src', 'planner', 'generated'), { recursive: true });
writeFileSync(join(root, 'src', 'planner', 'generated', 'plan-validator.ts'), renderPlanValidatorSource());
console.log('wrote schemas/dbform.schema.json, src/config/generated/config-validator.ts and src/planner/generated/plan-validator.ts');
