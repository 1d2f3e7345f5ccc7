import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { SCHEMA_URL, schemaRefFor } from '../../../src/export/schema-ref.js';
import { removeTempDirs, tempDir } from '../../support/temp-dir.js';

afterAll(removeTempDirs);

describe('schemaRefFor', () => {
  it('is the schema $id URL', () => {
    const schema = JSON.parse(readFileSync(join(import.meta.dirname, '../../../schemas/dbform.schema.json'), 'utf8'));
    expect(SCHEMA_URL).toBe(schema.$id);
  });

  it('points by relative path at the schema shipped in the same project (node_modules/dbform)', () => {
    const repo = tempDir('dbform-repo-');
    writeFileSync(join(repo, 'package.json'), '{}');
    const schema = join(repo, 'node_modules', 'dbform', 'schemas', 'dbform.schema.json');
    mkdirSync(join(schema, '..'), { recursive: true });
    writeFileSync(schema, '{}');
    mkdirSync(join(repo, 'infra'));
    expect(schemaRefFor('infra/dbform.yaml', repo, schema)).toBe('../node_modules/dbform/schemas/dbform.schema.json');
    expect(schemaRefFor(join(repo, 'dbform.yaml'), '/', schema)).toBe('node_modules/dbform/schemas/dbform.schema.json');
    expect(schemaRefFor(undefined, join(repo, 'infra'), schema)).toBe('../node_modules/dbform/schemas/dbform.schema.json');
  });

  it('uses the URL when the schema lies outside the output project (a global install)', () => {
    const repo = tempDir('dbform-repo-');
    writeFileSync(join(repo, 'package.json'), '{}');
    const elsewhere = tempDir('dbform-global-');
    writeFileSync(join(elsewhere, 'dbform.schema.json'), '{}');
    expect(schemaRefFor('dbform.yaml', repo, join(elsewhere, 'dbform.schema.json'))).toBe(SCHEMA_URL);
    expect(schemaRefFor('dbform.yaml', repo, join(repo, 'missing.schema.json'))).toBe(SCHEMA_URL);
  });

  it('points at this checkout\'s schema for a file inside it', () => {
    const root = join(import.meta.dirname, '../../..');
    expect(schemaRefFor('examples/x.yaml', root)).toBe('../schemas/dbform.schema.json');
  });
});
