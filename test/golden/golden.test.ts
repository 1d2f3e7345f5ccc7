// One test per directory under test/golden/: plan the case and compare plan.txt (colour off),
// plan.json and plan.md byte for byte. `UPDATE_GOLDEN=1 npx vitest run test/golden` rewrites them.
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Ajv2020 from 'ajv/dist/2020.js';
import { describe, expect, it } from 'vitest';
import { renderPlanJson, renderPlanMarkdown, renderPlanText } from '../../src/cli/render/index.js';
import { planChanges } from '../../src/planner/index.js';
import { loadGoldenCase } from './golden-case.js';

const ROOT = import.meta.dirname;
const UPDATE = process.env.UPDATE_GOLDEN === '1';
const cases = readdirSync(ROOT).filter((d) => statSync(join(ROOT, d)).isDirectory()).sort();
const schema = JSON.parse(readFileSync(join(ROOT, '../../schemas/plan.schema.json'), 'utf8'));
const validate = new Ajv2020.default({ allErrors: true, strict: true }).compile(schema);

describe('golden plans', () => {
  it('has the cases the issue asks for', () => {
    expect(cases.length).toBeGreaterThanOrEqual(15);
    for (const c of ['adopt', 'move-auto', 'drift', 'blocked-protect', 'replace-service', 'delete-removed', 'target', 'no-change-1000']) expect(cases).toContain(c);
  });

  it.each(cases)('%s', (name) => {
    const dir = join(ROOT, name);
    const input = loadGoldenCase(dir);
    const plan = planChanges(input.desired, input.live, input.lock, input.options);
    const outputs: Record<string, string> = {
      'plan.txt': renderPlanText(plan, { color: false }),
      'plan.json': renderPlanJson(plan),
      'plan.md': renderPlanMarkdown(plan),
    };
    expect(validate(JSON.parse(outputs['plan.json']!)), JSON.stringify(validate.errors)).toBe(true);
    // Same inputs, byte-identical outputs.
    const again = planChanges(input.desired, input.live, input.lock, input.options);
    expect(renderPlanJson(again)).toBe(outputs['plan.json']);
    for (const [file, text] of Object.entries(outputs)) {
      const path = join(dir, file);
      if (UPDATE) writeFileSync(path, text);
      else {
        expect(existsSync(path), `${name}/${file} is missing (UPDATE_GOLDEN=1 to create it)`).toBe(true);
        expect(text, `${name}/${file} (UPDATE_GOLDEN=1 to accept)`).toBe(readFileSync(path, 'utf8'));
      }
    }
  });
});
