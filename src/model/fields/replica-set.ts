// The managed fields of a read replica set (SPEC section 1), one descriptor each (types.ts):
// its size resizes in place, pooler and environment have their ops, name and nodes replace it.
import type { FieldChange } from '../plan.js';
import type { DesiredReplicaSet, Endpoint, EnvironmentTag, LiveReplicaSet } from '../resources.js';
import { sizeSchema } from './common.js';
import { environmentField, nameField } from './shared-fields.js';
import { poolerField, type ConnectionPoolerDto } from './service.js';
import { fieldChange, type FieldDescriptor, type FieldSet, type Json } from './types.js';
import { num, type MetadataDto } from './wire.js';

/** The properties of a desired replica set that its fields set. */
export interface DesiredReplicaSetFields {
  name: string;
  cpuMillis: number;
  memoryGbs: number;
  nodes: number;
  pooler?: boolean;
  environment?: EnvironmentTag;
}

/** The properties of a live replica set that its fields read from the wire. */
export interface LiveReplicaSetFields {
  name: string;
  cpuMillis: number;
  memoryGbs: number;
  nodes: number;
  pooler: boolean;
  /** Set exactly while the pooler is enabled (`connection_pooler.endpoint`): `dbform output` prints it. */
  poolerEndpoint?: Endpoint;
  environment?: string;
}

/** The keys of a replica set's wire body that its fields read (src/api/dto.ts: ReadReplicaSetDto extends it). */
export interface ReplicaSetFieldsDto {
  name: string;
  cpu_millis: number;
  memory_gbs: number;
  nodes: number;
  connection_pooler?: ConnectionPoolerDto;
  metadata?: MetadataDto;
}

type Field = FieldDescriptor<DesiredReplicaSet, LiveReplicaSet, ReplicaSetFieldsDto>;

const name: Field = nameField<DesiredReplicaSet, LiveReplicaSet, ReplicaSetFieldsDto>('replica set');

// cpu_millis and memory_gbs are one pair: one field, one resize.
const size: Field = {
  id: 'size',
  schema: { cpu_millis: sizeSchema('cpu_millis', false), memory_gbs: sizeSchema('memory_gbs', false) },
  desired: (raw, into) => {
    into.cpuMillis = raw.cpu_millis as number;
    into.memoryGbs = raw.memory_gbs as number;
  },
  wire: (w, into) => {
    into.cpuMillis = num(w.cpu_millis) ?? 0;
    into.memoryGbs = num(w.memory_gbs) ?? 0;
  },
  live: (l) => ({ cpuMillis: l.cpuMillis, memoryGbs: l.memoryGbs }),
  record: (d) => ({ cpuMillis: d.cpuMillis, memoryGbs: d.memoryGbs }),
  fingerprint: (l: LiveReplicaSet, out: Json) => {
    out.cpu_millis = l.cpuMillis;
    out.memory_gbs = l.memoryGbs;
  },
  update: (d, l) => {
    if (d.cpuMillis === l.cpuMillis && d.memoryGbs === l.memoryGbs) return undefined;
    const changes: FieldChange[] = [];
    if (d.cpuMillis !== l.cpuMillis) changes.push(fieldChange('cpu_millis', l.cpuMillis, d.cpuMillis));
    if (d.memoryGbs !== l.memoryGbs) changes.push(fieldChange('memory_gbs', l.memoryGbs, d.memoryGbs));
    return { op: 'resizeReplicaSet', changes, request: { cpu_millis: String(d.cpuMillis), memory_gbs: String(d.memoryGbs) } };
  },
  // Create takes integers, unlike resize (cloud-api.md 4.5).
  create: (d, body) => {
    body.request.cpu_millis = d.cpuMillis;
    body.request.memory_gbs = d.memoryGbs;
    body.changes.push(fieldChange('cpu_millis', null, d.cpuMillis), fieldChange('memory_gbs', null, d.memoryGbs));
  },
  export: (l) => ({ values: { cpu_millis: l.cpuMillis, memory_gbs: l.memoryGbs } }),
};

const nodes: Field = {
  id: 'nodes',
  schema: { nodes: { type: 'integer', minimum: 1, maximum: 10, description: 'Number of nodes in the replica set, 1-10. Changing it replaces the replica set.' } },
  desired: (raw, into) => void (into.nodes = raw.nodes as number),
  wire: (w, into) => void (into.nodes = num(w.nodes) ?? 0),
  live: (l) => l.nodes,
  record: (d) => d.nodes,
  fingerprint: 'nodes',
  replace: (d, l) => (d.nodes === l.nodes ? undefined : [fieldChange('nodes', l.nodes, d.nodes, true)]),
  create: (d, body) => {
    body.request.nodes = d.nodes;
    body.changes.push(fieldChange('nodes', null, d.nodes));
  },
  export: (l) => ({ values: { nodes: l.nodes } }),
};

const pooler: Field = poolerField('replica set', { on: 'enableReplicaPooler', off: 'disableReplicaPooler' });

const environment: Field = {
  ...environmentField<DesiredReplicaSet, LiveReplicaSet, ReplicaSetFieldsDto>('replica set', 'setReplicaEnvironment'),
  // A new replica set starts as DEV.
  afterCreate: (d) =>
    d.environment === undefined || d.environment === 'DEV'
      ? undefined
      : { op: 'setReplicaEnvironment', changes: [fieldChange('environment', 'DEV', d.environment)], request: { environment: d.environment } },
};

export const REPLICA_SET_FIELDS: FieldSet<DesiredReplicaSet, LiveReplicaSet, ReplicaSetFieldsDto> = {
  fields: [name, size, nodes, pooler, environment],
  create: [name, size, nodes],
  sortedRequest: true,
  replace: [name, nodes],
};
