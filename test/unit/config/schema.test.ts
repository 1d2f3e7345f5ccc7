// The committed schema and precompiled validator are generated from src/config/schema.ts; these
// golden tests fail when someone edits one without regenerating (`npm run schema`).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { describe, expect, it } from 'vitest';
import { buildEditorSchema } from '../../../src/codegen/editor-schema.js';
import { renderSchemaJson, renderValidatorSource } from '../../../src/codegen/validators.js';
import { buildConfigSchema } from '../../../src/config/schema.js';
import { findSchemaErrors } from '../../../src/config/validator.js';

const ROOT = join(import.meta.dirname, '..', '..', '..');
type Json = Record<string, unknown>;

/** Every subschema that describes a value (not the maps of names such as `properties`). */
function subschemas(schema: Json, path = '#'): Array<{ path: string; schema: Json }> {
  const out = [{ path, schema }];
  const visit = (value: unknown, at: string) => {
    if (value && typeof value === 'object' && !Array.isArray(value)) out.push(...subschemas(value as Json, at));
  };
  for (const [name, props] of Object.entries({ properties: schema.properties, patternProperties: schema.patternProperties })) {
    for (const [key, value] of Object.entries((props as Json | undefined) ?? {})) visit(value, `${path}/${name}/${key}`);
  }
  visit(schema.additionalProperties, `${path}/additionalProperties`);
  visit(schema.items, `${path}/items`);
  visit(schema.propertyNames, `${path}/propertyNames`);
  ((schema.anyOf as Json[] | undefined) ?? []).forEach((b, i) => visit(b, `${path}/anyOf/${i}`));
  return out;
}

describe('config schema', () => {
  it('schemas/dbform.schema.json is what src/config/schema.ts produces', () => {
    expect(readFileSync(join(ROOT, 'schemas', 'dbform.schema.json'), 'utf8')).toBe(renderSchemaJson());
  });

  it('the precompiled validator is what ajv compiles from the schema', () => {
    expect(readFileSync(join(ROOT, 'src', 'config', 'generated', 'config-validator.ts'), 'utf8')).toBe(renderValidatorSource());
  });

  it('is a valid draft 2020-12 schema, for the loader and for editors', () => {
    const ajv = new Ajv2020({ strict: true, validateFormats: false });
    expect(ajv.validateSchema(buildConfigSchema())).toBe(true);
    expect(ajv.validateSchema(buildEditorSchema())).toBe(true);
  });

  it('describes every field and refuses unknown keys everywhere', () => {
    for (const { path, schema } of [buildConfigSchema(), buildEditorSchema()].flatMap((s) => subschemas(s))) {
      expect(typeof schema.description === 'string' && schema.description.length > 10, `${path} has a description`).toBe(true);
      if (schema.type === 'object' || (Array.isArray(schema.type) && schema.type.includes('object'))) {
        expect(schema.additionalProperties, `${path} refuses unknown keys`).not.toBe(undefined);
        expect(schema.additionalProperties === false || typeof schema.additionalProperties === 'object', path).toBe(true);
      }
    }
  });

  it('checks resource keys with the key pattern', () => {
    const schema = buildConfigSchema() as { properties: Record<string, Json> };
    for (const section of ['vpcs', 'services']) {
      expect((schema.properties[section]!.propertyNames as Json).pattern).toBe('^[a-z][a-z0-9-]{0,62}$');
    }
  });

  it('the validator accepts a minimal config and reports a bad one', () => {
    expect(findSchemaErrors({ version: 1, project_id: 'proj-demo' })).toEqual([]);
    const errors = findSchemaErrors({ version: 1, project_id: 'proj-demo', services: { db: { nodes: 2 } } });
    expect(errors.map((e) => [e.keyword, e.instancePath])).toEqual([['additionalProperties', '/services/db']]);
  });

  it('counts name length in characters, not UTF-16 units', () => {
    const name = '😀'.repeat(128);
    expect(findSchemaErrors({ version: 1, project_id: 'p', services: { db: { name } } })).toEqual([]);
    expect(findSchemaErrors({ version: 1, project_id: 'p', services: { db: { name: `${name}x` } } })).toHaveLength(1);
  });

  describe('as editors see it (the committed file, before interpolation)', () => {
    const committed = JSON.parse(readFileSync(join(ROOT, 'schemas', 'dbform.schema.json'), 'utf8')) as Json;
    const check = new Ajv2020({ strict: true, allErrors: true }).compile(committed);
    const config = (service: Json, vpc: Json = { cidr: '10.0.0.0/16', region_code: 'us-east-1' }) => ({
      version: 1,
      project_id: 'proj-demo',
      vpcs: { main: vpc },
      services: { db: {}, s: service },
    });

    it('lets every pattern field hold ${env:NAME}, which the loader checks after interpolation', () => {
      const env = config(
        { region_code: '${env:REGION}', vpc: '${env:VPC}', password: { from_env: '${env:PW_VAR}' }, fork: { from: '${env:P}', strategy: 'PITR', target_time: '${env:T}' } },
        { cidr: '${env:CIDR}', region_code: 'eu-${env:X}-1', peerings: [{ peer_account_id: '123456789012', peer_region_code: '${env:R}', peer_vpc_id: 'v' }] },
      );
      expect(check(env), JSON.stringify(check.errors)).toBe(true);
      // The loader's validator sees these only after interpolation: there, `${env:` can only come
      // from a `$${` escape, and its patterns stay strict.
      expect(findSchemaErrors(env).filter((e) => e.keyword === 'pattern').map((e) => e.instancePath).sort()).toEqual([
        '/services/s/fork/from', '/services/s/fork/target_time', '/services/s/password/from_env', '/services/s/region_code', '/services/s/vpc',
        '/vpcs/main/cidr', '/vpcs/main/peerings/0/peer_region_code', '/vpcs/main/region_code',
      ]);
    });

    it('refuses a target_time that only looks like RFC 3339 (a space for the T)', () => {
      const fork = (target_time: string) => config({ fork: { from: 'db', strategy: 'PITR', target_time } });
      expect(check(fork('2026-11-01T00:00:00Z'))).toBe(true);
      expect(check(fork('2026-11-01 00:00:00Z'))).toBe(false);
      expect(check(fork('2026-11-01'))).toBe(false);
    });

    it('shows that PITR needs target_time and other strategies refuse it', () => {
      expect(check(config({ fork: { from: 'db', strategy: 'PITR' } }))).toBe(false);
      expect(check(config({ fork: { from: 'db', strategy: 'NOW', target_time: '2026-11-01T00:00:00Z' } }))).toBe(false);
      expect(check(config({ fork: { from: 'db', strategy: 'NOW' } }))).toBe(true);
    });
  });
});
