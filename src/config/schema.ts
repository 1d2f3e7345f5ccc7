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
import {
  CIDR_SHAPE_REGEX,
  ENV_NAME_REGEX,
  fieldSchemas,
  KEY_REGEX,
  keySchema as key,
  PROJECT_ID_PATTERN,
  PEERING_FIELDS,
  REGION_REGEX,
  REPLICA_SET_FIELDS,
  RFC3339_SHAPE_REGEX,
  SERVICE_FIELDS,
  VPC_FIELDS,
} from '../model/index.js';

export { CIDR_SHAPE_REGEX, ENV_NAME_REGEX, KEY_REGEX, REGION_REGEX };

export const SCHEMA_ID = 'https://dbform.dev/schemas/dbform.schema.json';


/** A reference to an environment variable, as editors see it before interpolation. */
const ENV_REFERENCE_REGEX = '\\$\\{env:[A-Za-z_][A-Za-z0-9_]*\\}';

type Json = Record<string, unknown>;

const protect = (what: string): Json => ({
  type: 'boolean',
  description: `When true, a plan that would delete or replace this ${what} fails instead. Remembered in the lockfile: only an applied \`protect: false\` lifts it.`,
});

const peering: Json = {
  type: 'object',
  description: 'A VPC peering connection to a VPC of another cloud account. Its identity is peer_vpc_id; changing any field replaces it.',
  additionalProperties: false,
  required: ['peer_account_id', 'peer_region_code', 'peer_vpc_id'],
  properties: fieldSchemas(PEERING_FIELDS),
};

const vpc: Json = {
  type: 'object',
  description: 'A VPC managed by dbform (address vpc.<key>).',
  additionalProperties: false,
  required: ['cidr', 'region_code'],
  properties: {
    ...fieldSchemas(VPC_FIELDS),
    protect: protect('VPC'),
    peerings: {
      type: 'array',
      description: 'Peering connections of this VPC, each identified by its peer_vpc_id (address peering.<vpcKey>.<peer_vpc_id>).',
      items: peering,
    },
  },
};

const replicaSet: Json = {
  type: 'object',
  description: 'A read replica set of the service (address replica_set.<serviceKey>.<key>).',
  additionalProperties: false,
  required: ['cpu_millis', 'memory_gbs', 'nodes'],
  properties: {
    ...fieldSchemas(REPLICA_SET_FIELDS),
    protect: protect('replica set'),
  },
};

const fork: Json = {
  type: 'object',
  description: 'Create this service as a fork of another one. Create-time only: ignored once the service exists.',
  additionalProperties: false,
  required: ['from', 'strategy'],
  properties: {
    from: {
      description: 'The service to fork: a key under services:, or { service_id: "..." } for any service by its ID.',
      anyOf: [
        key('a service under services:'),
        {
          type: 'object',
          description: 'Any service of the project, by its ID.',
          additionalProperties: false,
          required: ['service_id'],
          properties: { service_id: { type: 'string', minLength: 1, description: 'ID of the parent service (10 lowercase letters or digits).' } },
        },
      ],
    },
    strategy: {
      enum: ['LAST_SNAPSHOT', 'NOW', 'PITR'],
      description: 'LAST_SNAPSHOT forks from the latest snapshot (fast), NOW takes a new snapshot (up to date), PITR restores to target_time.',
    },
    target_time: {
      type: 'string',
      // Not `format: date-time`: it allows a space for the T, and it would refuse ${env:NAME}.
      pattern: RFC3339_SHAPE_REGEX,
      description: 'Point in time to restore, RFC 3339 (e.g. 2026-11-01T00:00:00Z). Required with strategy PITR, not allowed otherwise.',
    },
  },
  // For editors: the loader reports these through rules/fork.ts, with its own words.
  if: { properties: { strategy: { const: 'PITR' } }, required: ['strategy'] },
  then: { properties: { target_time: true }, required: ['target_time'] },
  else: { properties: { target_time: false } },
};

const service: Json = {
  type: 'object',
  description: 'A database service (address service.<key>). Fields left out are not managed: the API default applies at create and dbform never changes them.',
  additionalProperties: false,
  dependentRequired: { cpu_millis: ['memory_gbs'], memory_gbs: ['cpu_millis'] },
  properties: {
    ...fieldSchemas(SERVICE_FIELDS),
    protect: protect('service'),
    fork,
    replica_sets: {
      type: 'object',
      description: 'Read replica sets of this service, by key.',
      propertyNames: key('a replica set'),
      additionalProperties: replicaSet,
    },
  },
};

const movedEntry: Json = {
  type: 'object',
  description: 'Declares that the resource once at `from` now lives at `to`: the plan rewrites the lockfile instead of deleting and creating.',
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

/** Paths (through `properties` and `additionalProperties`) of the sections that may be left empty. */
const SECTIONS = [['vpcs'], ['services'], ['moved'], ['vpcs', '*', 'peerings'], ['services', '*', 'replica_sets']];

function allowEmptySections(schema: Json): Json {
  for (const path of SECTIONS) {
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
    description: 'Cloud database infrastructure (VPCs, peerings, services, read replica sets) kept in version control by dbform. Any string may use ${env:NAME}; $${ writes a literal ${.',
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
      vpcs: {
        type: 'object',
        description: 'VPCs managed by dbform, by key (address vpc.<key>).',
        propertyNames: key('a VPC'),
        additionalProperties: vpc,
      },
      services: {
        type: 'object',
        description: 'Database services managed by dbform, by key (address service.<key>).',
        propertyNames: key('a service'),
        additionalProperties: service,
      },
      moved: {
        type: 'array',
        description: 'Renamed addresses: each entry moves a lockfile binding from one address to another.',
        items: movedEntry,
      },
    },
    patternProperties: {
      '^x-': { description: 'Free-form extension, ignored by dbform: a place for YAML anchors shared by several resources.' },
    },
  };
}
