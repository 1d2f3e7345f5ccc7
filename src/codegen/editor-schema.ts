// The schema editors read (schemas/dbform.schema.json), from the loader's (src/config/schema.ts).
// Editors check the file as written, before interpolation: a pattern field (cidr, region_code...)
// may hold `${env:NAME}`, and a section with every entry commented out reads as null. The loader
// checks values after interpolation, where the only way to get `${env:` is a `$${` escape, and
// turns an empty section into `{}` or `[]` before it validates: its patterns stay strict and its
// messages never mention null.
import { configKey, kindDef, KINDS, TOP_KINDS, type AnyKind } from '../kinds/index.js';
import { buildConfigSchema } from '../config/schema.js';

type Json = Record<string, unknown>;

/** A reference to an environment variable, as editors see it before interpolation. */
const ENV_REFERENCE_REGEX = '\\$\\{env:[A-Za-z_][A-Za-z0-9_]*\\}';

/** The loader's schema, with env references and empty sections allowed. */
export function buildEditorSchema(): Json {
  return allowEmptySections(allowEnvReferences(buildConfigSchema()) as Json);
}

/** A copy of `schema` whose patterns also accept a `${env:NAME}` reference (property names excepted). */
function allowEnvReferences(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(allowEnvReferences);
  if (schema === null || typeof schema !== 'object') return schema;
  const out: Json = {};
  for (const [key, value] of Object.entries(schema)) {
    if (key === 'propertyNames') out[key] = value;
    else if (key === 'pattern' && typeof value === 'string') out[key] = `${value}|${ENV_REFERENCE_REGEX}`;
    else out[key] = allowEnvReferences(value);
  }
  return out;
}

/** Paths (through `properties` and `additionalProperties`) of the sections that may be left empty: every kind's collection, and `moved`. */
function sections(): string[][] {
  const pathOf = (def: AnyKind): string[] => (def.parent === undefined ? [configKey(def)] : [...pathOf(kindDef(def.parent)), '*', configKey(def)]);
  return [...TOP_KINDS.map(pathOf), ['moved'], ...KINDS.filter((k) => k.parent !== undefined).map(pathOf)];
}

function allowEmptySections(schema: Json): Json {
  for (const path of sections()) {
    let node = schema;
    for (const seg of path) node = (seg === '*' ? node.additionalProperties : (node.properties as Json)[seg]) as Json;
    node.type = [node.type, 'null'];
    node.description = `${node.description as string} Left empty (null) it means none.`;
  }
  return schema;
}
