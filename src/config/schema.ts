// The JSON Schema of dbform.yaml (SPEC section 1), written here once: what the loader checks a
// config's values against, after interpolation. The precompiled validator and the schema that
// editors read (schemas/dbform.schema.json, which also accepts `${env:NAME}` in pattern fields
// and empty sections: src/codegen/editor-schema.ts) are generated from it (`npm run schema`) and
// compared to it by golden tests.
import { childKinds, KINDS, TOP_KINDS, type AnyKind } from '../kinds/index.js';
import { fieldSchemas, keySchema as key, KIND_NOUNS, nounOf, PROJECT_ID_PATTERN } from '../model/index.js';
import { configKey } from './kind-paths.js';

const SCHEMA_ID = 'https://dbform.dev/schemas/dbform.schema.json';

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

/** Builds the schema object: the loader's validator, and through codegen the editors' schema. */
export function buildConfigSchema(): Json {
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
