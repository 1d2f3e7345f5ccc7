// schemas/result.schema.json, compiled once: what `apply`, `destroy` and `sweep --json` print must
// validate against it (SPEC section 14).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import Ajv2020 from 'ajv/dist/2020.js';

const schema = JSON.parse(readFileSync(join(import.meta.dirname, '..', '..', 'schemas', 'result.schema.json'), 'utf8')) as object;
const validate = new Ajv2020.default({ allErrors: true, strict: true }).compile(schema);

/** The schema's complaints about `doc`, one line each; empty when it validates. */
export function resultSchemaErrors(doc: unknown): string[] {
  return validate(doc) ? [] : (validate.errors ?? []).map((e) => `${e.instancePath || '/'} ${e.message ?? ''}`);
}

/** stdout of a `--json` run: exactly one JSON document, validated. */
export function parseResult(stdout: string): Record<string, any> {
  const doc = JSON.parse(stdout) as Record<string, any>;
  const errors = resultSchemaErrors(doc);
  if (errors.length > 0) throw new Error(`the result does not validate against schemas/result.schema.json:\n${errors.join('\n')}\n${stdout}`);
  return doc;
}
