#!/usr/bin/env node
// Regenerates the artefacts derived from src/config/schema.ts (run after `npm run build`):
// schemas/dbform.schema.json and src/config/generated/config-validator.ts.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { renderSchemaJson, renderValidatorSource } from '../dist/config/generate.js';

const root = join(import.meta.dirname, '..');
writeFileSync(join(root, 'schemas', 'dbform.schema.json'), renderSchemaJson());
writeFileSync(join(root, 'src', 'config', 'generated', 'config-validator.ts'), renderValidatorSource());
console.log('wrote schemas/dbform.schema.json and src/config/generated/config-validator.ts');
