// The JSON Schema of dbform.yaml (SPEC section 1), written here once. The committed
// schemas/dbform.schema.json and the precompiled validator are generated from it
// (`npm run schema`) and compared to it by a golden test.
//
// The two differ in one way. Editors check the file as written, before interpolation, so the
// committed schema lets a pattern field (cidr, region_code...) hold `${env:NAME}`. The loader
// checks values after interpolation, where the only way to get `${env:` is a `$${` escape: its
// validator keeps the patterns strict. Editors also accept an empty section (`services:` with
// every entry commented out reads as null); the loader turns one into `{}` or `[]` before it
// validates, so its messages never mention null.
import { childKinds, KINDS, TOP_KINDS, type AnyKind } from '../kinds/index.js';
import { CIDR_SHAPE_REGEX, ENV_NAME_REGEX, fieldSchemas, KEY_REGEX, keySchema as key, KIND_NOUNS, nounOf, PROJECT_ID_PATTERN, REGION_REGEX } from '../model/index.js';
import { configKey } from './kind-paths.js';

export { CIDR_SHAPE_REGEX, ENV_NAME_REGEX, KEY_REGEX, REGION_REGEX };

export const SCHEMA_ID = 'https://dbform.dev/schemas/dbform.schema.json';


/** A reference to an environment variable, as editors see it before interpolation. */
const ENV_REFERENCE_REGEX = '\\$\\{env:[A-Za-z_][A-Za-z0-9_]*\\}';

type Json = Record<string, unknown>;

const protect = (what: string): Json => ({
  type: 'boolean',
  description: `When true, a plan that would delete or replace this ${what} fails instead. Remembered in the state: only an applied \`protect: false\` lifts it.`,
});

/** One entry of a kind: its fields, `protect`, what else its kind takes, and its children's collections. */
function entrySchema(def: AnyKind): Json {
  const { description, required, dependentRequired, properties } = def.config.entry;
  const children: Json = {};
  for (const child of childKinds(def.kind)) children[configKey(child)] = collectionSchema(child);
  return {
    type: 'object',
    description,
    additionalProperties: false,
    ...(required ? { required } : {}),
    ...(dependentRequired ? { dependentRequired } : {}),
    properties: { ...fieldSchemas(def.fields), ...(def.config.protect ? { protect: protect(nounOf(def.kind)) } : {}), ...properties, ...children },
  };
}

/** A kind's collection: a map of entries by key, or a list. */
function collectionSchema(def: AnyKind): Json {
  const { description, keyNoun } = def.config.collection;
  return def.config.shape === 'map'
    ? { type: 'object', description, propertyNames: key(keyNoun!), additionalProperties: entrySchema(def) }
    : { type: 'array', description, items: entrySchema(def) };
}

const movedEntry: Json = {
  type: 'object',
  description: 'Declares that the resource once at `from` now lives at `to`: the plan moves its binding in the state instead of deleting and creating.',
  additionalProperties: false,
  required: ['from', 'to'],
  properties: {
    from: { type: 'string', description: 'The old address, e.g. service.old (no longer in the config).' },
    to: { type: 'string', description: 'The new address, e.g. service.new (defined in the config).' },
  },
};

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

/**
 * Builds the schema object; the single source of schemas/dbform.schema.json (for editors) and
 * of the loader's validator (`forLoader`: strict patterns, see the top of this file).
 */
export function buildConfigSchema(options: { forLoader?: boolean } = {}): Json {
  const schema = buildLoaderSchema();
  return options.forLoader ? schema : allowEmptySections(allowEnvReferences(schema) as Json);
}

/** Paths (through `properties` and `additionalProperties`) of the sections that may be left empty: every kind's collection, and `moved`. */
function sections(): string[][] {
  const pathOf = (def: AnyKind): string[] => (def.parent === undefined ? [configKey(def)] : [...pathOf(KINDS.find((k) => k.kind === def.parent)!), '*', configKey(def)]);
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

function buildLoaderSchema(): Json {
  return {
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    $id: SCHEMA_ID,
    title: 'dbform configuration',
    description: `Cloud database infrastructure (${KINDS.map((k) => k.config.title ?? KIND_NOUNS[k.kind].many).join(', ')}) kept in version control by dbform. Any string may use \${env:NAME}; $\${ writes a literal \${.`,
    type: 'object',
    additionalProperties: false,
    required: ['version', 'project_id'],
    properties: {
      version: { const: 1, description: 'Version of the file format; always 1.' },
      project_id: {
        type: 'string',
        minLength: 1,
        // SPEC section 13: it becomes a segment of every API path (model/project-id.ts).
        pattern: PROJECT_ID_PATTERN.source,
        description: 'ID of the cloud project all resources live in (letters, digits, _ and -, at most 128), e.g. ${env:DBFORM_PROJECT_ID}.',
      },
      state: {
        type: 'string',
        minLength: 1,
        description:
          'Where the state lives when neither --state nor DBFORM_STATE says: postgres://user@host:5432/db (a team database; the password from ${env:...}, PGPASSWORD or the pgpass file) or file:PATH. Default: the lockfile beside the config.',
      },
      ...Object.fromEntries(TOP_KINDS.map((def) => [configKey(def), collectionSchema(def)])),
      moved: {
        type: 'array',
        description: 'Renamed addresses: each entry moves a binding of the state from one address to another.',
        items: movedEntry,
      },
    },
    patternProperties: {
      '^x-': { description: 'Free-form extension, ignored by dbform: a place for YAML anchors shared by several resources.' },
    },
  };
}
